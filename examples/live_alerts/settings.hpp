#pragma once
// The plugin's settings: what the panel shows, and how panel values map onto Settings.
#include <set>
#include <string>

#include "streamnook_v1/types.hpp"

namespace live_alerts {

namespace sn = ::streamnook::v1;

struct Settings {
  std::set<std::string> channel_ids;  // alert only on these (empty: every followed channel)
  std::set<std::string> games;        // alert only on these game names, lower-cased (empty: any)
  bool quiet = false;                 // log alerts instead of notifying

  friend bool operator==(const Settings&, const Settings&) = default;
};

sn::PanelSchema panel_schema();
// Applies the values the panel holds; keys absent from `values` keep the defaults.
Settings settings_from_panel(const sn::PanelValues& values);

}  // namespace live_alerts
