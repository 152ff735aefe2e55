#pragma once
// LiveTracker: the set of live followed channels, and which updates deserve an alert.
// Pure logic (no I/O), so the tests can drive it directly.
#include <map>
#include <string>
#include <vector>

#include "settings.hpp"

namespace live_alerts {

class LiveTracker {
 public:
  // Replaces the live set with `channels` (the full set, as on_followed_live carries it) and
  // returns the channels that were not live before and pass the filters.
  std::vector<sn::Channel> update(const std::vector<sn::Channel>& channels,
                                  const Settings& settings);

  const std::map<std::string, sn::Channel>& live() const { return live_; }
  // Seeds the live set from persisted ids (the last state before a restart).
  void restore(const std::vector<std::string>& channel_ids);
  std::vector<std::string> live_ids() const;

  static bool wanted(const sn::Channel& channel, const Settings& settings);

 private:
  std::map<std::string, sn::Channel> live_;  // by channel_id
};

std::string alert_text(const sn::Channel& channel);

}  // namespace live_alerts
