#pragma once
// The live-alerts plugin: wires the tracker, settings, state store and notifier to the
// StreamNook plugin role. Degrades with the grant: without notify it only logs, without
// get_followed_live it waits for on_followed_live, without ui:panel it keeps the defaults,
// with nothing granted it still answers the lifecycle.
#include <memory>
#include <mutex>
#include <optional>

#include "notifier.hpp"
#include "rpckit/streamnook/plugin.hpp"
#include "settings.hpp"
#include "state_store.hpp"
#include "tracker.hpp"

namespace live_alerts {

inline constexpr const char* kVersion = "1.0.0";
inline constexpr const char* kTestAction = "live-alerts.test";
inline constexpr const char* kLiveCountSlot = "live-alerts.live-count";

class LiveAlerts {
 public:
  explicit LiveAlerts(rpckit::streamnook::Plugin& plugin);

 private:
  void start(rpckit::streamnook::HostApi& host);
  void on_followed_live(const sn::OnFollowedLiveParams& params);
  void on_panel_change(const sn::OnPanelChangeParams& params);
  nlohmann::json test_alert(const rpckit::JsonValue& args);
  void apply_live(const std::vector<sn::Channel>& channels, bool alert = true);
  void persist();

  rpckit::streamnook::Plugin& plugin_;
  rpckit::streamnook::Logger& log_;
  Settings settings_;
  LiveTracker tracker_;
  std::optional<StateStore> store_;
  std::unique_ptr<Notifier> notifier_;
  // First run without get_followed_live: the first on_followed_live is the baseline.
  bool baseline_pending_ = false;
};

}  // namespace live_alerts
