#include "live_alerts.hpp"

#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace live_alerts {

namespace msg = sn::messages;

LiveAlerts::LiveAlerts(rpckit::streamnook::Plugin& plugin)
    : plugin_(plugin), log_(plugin.log()) {
  plugin.on<msg::OnFollowedLive>([this](const sn::OnFollowedLiveParams& p) { on_followed_live(p); });
  plugin.on<msg::OnPanelChange>([this](const sn::OnPanelChangeParams& p) { on_panel_change(p); });
  plugin.on_action(kTestAction, [this](const rpckit::JsonValue& args) { return test_alert(args); });
  plugin.on_start([this](rpckit::streamnook::HostApi& host) { start(host); });
  plugin.on_shutdown([this] {
    if (notifier_) notifier_->stop();
    persist();
    log_.info("live alerts stopped");
  });
}

void LiveAlerts::start(rpckit::streamnook::HostApi& host) {
  notifier_ = std::make_unique<Notifier>(host, log_);
  store_.emplace(host.data_dir());
  std::string error;
  std::optional<SavedState> saved = store_->load(&error);
  if (!error.empty()) log_.warning(error);
  if (saved) tracker_.restore(saved->live_channel_ids);

  if (auto registered = host.register_panel(panel_schema()); registered.ok()) {
    if (auto values = host.get_panel_values(); values.ok()) {
      settings_ = settings_from_panel(values->values);
    } else {
      log_.warning("cannot read panel values: " + values.error().describe());
    }
  } else {
    log_.info("no settings panel (" + registered.error().describe() + "); using defaults");
  }

  // Events missed while the plugin was down are not replayed: rebuild from the host.
  if (auto live = host.get_followed_live(); live.ok()) {
    if (saved) {
      apply_live(live->channels);  // alert on what went live since the last run
    } else {
      tracker_.update(live->channels, settings_);  // first run: a baseline, no alerts
      persist();
    }
    log_.info("started; " + std::to_string(tracker_.live().size()) + " followed channels live");
  } else {
    // Without saved state the first event's channels were not seen going live either.
    baseline_pending_ = !saved;
    log_.info("started without get_followed_live (" + live.error().describe() +
              "); waiting for on_followed_live");
  }
}

void LiveAlerts::on_followed_live(const sn::OnFollowedLiveParams& params) {
  apply_live(params.channels, /*alert=*/!std::exchange(baseline_pending_, false));
}

void LiveAlerts::apply_live(const std::vector<sn::Channel>& channels, bool alert) {
  for (const sn::Channel& channel : tracker_.update(channels, settings_)) {
    if (notifier_ && alert) notifier_->alert(alert_text(channel), settings_.quiet);
  }
  plugin_.host().set_status(kLiveCountSlot,
                            rpckit::JsonValue(nlohmann::json(tracker_.live().size())));
  persist();
}

void LiveAlerts::on_panel_change(const sn::OnPanelChangeParams& params) {
  settings_ = settings_from_panel(params.values);
  log_.info("settings changed: " + std::to_string(settings_.channel_ids.size()) +
            " channels, " + std::to_string(settings_.games.size()) + " games, quiet " +
            (settings_.quiet ? "on" : "off"));
}

nlohmann::json LiveAlerts::test_alert(const rpckit::JsonValue& args) {
  std::string text = "Test alert from Live alerts";
  const nlohmann::json& a = args.get();
  if (a.is_object() && a.contains("text") && a["text"].is_string()) text = a["text"];
  if (notifier_) notifier_->alert(text, settings_.quiet);
  return {{"ok", true}};
}

void LiveAlerts::persist() {
  if (!store_) return;
  std::string error;
  if (!store_->save(SavedState{tracker_.live_ids()}, &error)) log_.warning(error);
}

}  // namespace live_alerts
