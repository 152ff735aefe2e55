#include "tracker.hpp"

#include <algorithm>
#include <cctype>

namespace live_alerts {

bool LiveTracker::wanted(const sn::Channel& channel, const Settings& settings) {
  if (!settings.channel_ids.empty() && settings.channel_ids.count(channel.channel_id) == 0) {
    return false;
  }
  if (settings.games.empty()) return true;
  if (!channel.game_name) return false;
  std::string game = *channel.game_name;
  std::transform(game.begin(), game.end(), game.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return settings.games.count(game) != 0;
}

std::vector<sn::Channel> LiveTracker::update(const std::vector<sn::Channel>& channels,
                                             const Settings& settings) {
  std::vector<sn::Channel> went_live;
  std::map<std::string, sn::Channel> next;
  for (const sn::Channel& c : channels) {
    if (live_.count(c.channel_id) == 0 && wanted(c, settings)) went_live.push_back(c);
    next[c.channel_id] = c;
  }
  live_ = std::move(next);
  return went_live;
}

void LiveTracker::restore(const std::vector<std::string>& channel_ids) {
  live_.clear();
  for (const std::string& id : channel_ids) {
    sn::Channel placeholder;
    placeholder.channel_id = id;
    live_[id] = placeholder;
  }
}

std::vector<std::string> LiveTracker::live_ids() const {
  std::vector<std::string> ids;
  for (const auto& [id, channel] : live_) ids.push_back(id);
  return ids;
}

std::string alert_text(const sn::Channel& channel) {
  std::string text = channel.display_name + " is live";
  if (channel.game_name) text += " playing " + *channel.game_name;
  return text;
}

}  // namespace live_alerts
