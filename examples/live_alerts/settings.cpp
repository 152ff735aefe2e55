#include "settings.hpp"

#include <algorithm>
#include <cctype>

namespace live_alerts {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

sn::PanelSchema panel_schema() {
  sn::ChannelListField channels;
  channels.key = "channels";
  channels.label = "Only these channels";
  channels.description = "Leave empty to hear about every followed channel.";

  sn::StringListField games;
  games.key = "games";
  games.label = "Only these games";
  games.placeholder = "e.g. Just Chatting";

  sn::ToggleField quiet;
  quiet.key = "quiet";
  quiet.label = "Quiet mode";
  quiet.description = "Write alerts to the log instead of showing notifications.";
  quiet.default_ = false;

  sn::PanelSection section;
  section.label = "Alerts";
  section.fields = {{channels}, {games}, {quiet}};
  sn::PanelSchema schema;
  schema.title = "Live alerts";
  schema.sections = {section};
  return schema;
}

Settings settings_from_panel(const sn::PanelValues& values) {
  Settings s;
  if (auto it = values.find("channels"); it != values.end()) {
    if (auto* refs = std::get_if<std::vector<sn::ChannelRef>>(&it->second.value)) {
      for (const auto& ref : *refs) s.channel_ids.insert(ref.channel_id);
    }
  }
  if (auto it = values.find("games"); it != values.end()) {
    if (auto* names = std::get_if<std::vector<std::string>>(&it->second.value)) {
      for (const auto& name : *names) s.games.insert(lower(name));
    }
  }
  if (auto it = values.find("quiet"); it != values.end()) {
    if (auto* quiet = std::get_if<bool>(&it->second.value)) s.quiet = *quiet;
  }
  return s;
}

}  // namespace live_alerts
