#include "demo_app.hpp"

#include <algorithm>
#include <cmath>

#include "rpckit/streamnook/errors.hpp"
#include "streamnook_v1/constants.hpp"

namespace demo {

using rpckit::streamnook::LifecycleEvent;
using rpckit::streamnook::spec_error;
using rpckit::streamnook::PluginContext;

sn::Channel demo_channel(const std::string& id, const std::string& login,
                         const std::string& name, const std::string& game, std::int64_t viewers) {
  sn::Channel c;
  c.channel_id = id;
  c.login = login;
  c.display_name = name;
  c.game_id = "g-" + id;
  c.game_name = game;
  c.started_at = "2026-11-20T18:00:00Z";
  c.viewer_count = viewers;
  return c;
}

DemoApplication::DemoApplication(Transcript& transcript) : transcript_(transcript) {}

void DemoApplication::set_live(std::vector<sn::Channel> channels) {
  std::lock_guard lock(mutex_);
  live_ = std::move(channels);
}

std::vector<sn::Channel> DemoApplication::live() const {
  std::lock_guard lock(mutex_);
  return live_;
}

int DemoApplication::notifications() const {
  std::lock_guard lock(mutex_);
  return notifications_;
}

bool DemoApplication::wait_for(const std::string& plugin_id, LifecycleEvent::Kind kind,
                               std::chrono::milliseconds timeout) {
  return wait_for_any(plugin_id, {kind}, timeout).has_value();
}

std::optional<LifecycleEvent::Kind> DemoApplication::wait_for_any(
    const std::string& plugin_id, const std::vector<LifecycleEvent::Kind>& kinds,
    std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  std::optional<LifecycleEvent::Kind> found;
  changed_.wait_for(lock, timeout, [&] {
    for (LifecycleEvent::Kind kind : seen_[plugin_id]) {
      if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) {
        found = kind;
        return true;
      }
    }
    return false;
  });
  return found;
}

sn::GetFollowedLiveResult DemoApplication::get_followed_live(const PluginContext&,
                                                             const sn::GetFollowedLiveParams&) {
  return {live()};
}

sn::SetUpstreamResult DemoApplication::set_upstream(const PluginContext& plugin,
                                                    const sn::SetUpstreamParams& params) {
  if (params.stream_id != "relay-1") {
    throw spec_error(sn::ErrorCode::kUnknownStream,
                     "no relay session \"" + params.stream_id + "\"");
  }
  transcript_.plugin_says(plugin.plugin_id, "upstream of relay-1 is now " + params.playlist_url);
  return {};
}

sn::Credential DemoApplication::get_credential(const PluginContext&,
                                               const sn::GetCredentialParams& params) {
  sn::Credential c;
  c.kind = params.kind;
  c.token = "demo-token-not-real";
  c.client_id = "demo-client";
  c.user_id = "1000";
  c.device_id = nullptr;
  c.expires_at = "2026-12-31T23:59:59Z";
  return c;
}

// The host role has already applied the spec's rate limit (burst 3, then 1 per 10 s).
sn::NotifyResult DemoApplication::notify(const PluginContext&, const sn::NotifyParams& params) {
  {
    std::lock_guard lock(mutex_);
    ++notifications_;
  }
  transcript_.host("NOTIFICATION [" + std::string(params.level_or_default().wire()) + "] " +
                   params.message);
  return {};
}

void DemoApplication::log(const PluginContext& plugin, const sn::LogParams& params) {
  transcript_.plugin_says(plugin.plugin_id,
                          "log [" + std::string(params.level_or_default().wire()) + "] " +
                              params.message);
}

sn::RegisterPanelResult DemoApplication::register_panel(const PluginContext& plugin,
                                                        const sn::RegisterPanelParams& params) {
  std::size_t fields = 0;
  for (const auto& s : params.schema.sections) fields += s.fields.size();
  transcript_.plugin_says(plugin.plugin_id, "registered panel \"" + params.schema.title +
                                                "\" with " + std::to_string(fields) + " fields");
  std::lock_guard lock(mutex_);
  panel_schemas_[plugin.plugin_id] = params.schema;
  return {};
}

std::optional<sn::PanelSchema> DemoApplication::registered_panel(const std::string& plugin_id) const {
  std::lock_guard lock(mutex_);
  auto it = panel_schemas_.find(plugin_id);
  if (it == panel_schemas_.end()) return std::nullopt;
  return it->second;
}

sn::GetPanelValuesResult DemoApplication::get_panel_values(const PluginContext& plugin,
                                                           const sn::GetPanelValuesParams&) {
  std::lock_guard lock(mutex_);
  return {panels_[plugin.plugin_id]};
}

void DemoApplication::save_panel(const std::string& plugin_id, sn::PanelValues values) {
  std::lock_guard lock(mutex_);
  panels_[plugin_id] = std::move(values);
}

void DemoApplication::set_status(const PluginContext& plugin, const sn::SetStatusParams& params) {
  transcript_.plugin_says(plugin.plugin_id,
                          "status " + params.slot + " = " + params.value.dump());
}

void DemoApplication::on_lifecycle(const LifecycleEvent& event) {
  std::string detail = event.detail;
  if (event.kind == LifecycleEvent::Kind::kRestartScheduled) {
    detail = "in " + std::to_string(event.delay.count()) + " ms" +
             (detail.empty() ? "" : " after " + detail);
  }
  bool has_cause = event.kind == LifecycleEvent::Kind::kStopped ||
                   event.kind == LifecycleEvent::Kind::kRestartScheduled ||
                   event.kind == LifecycleEvent::Kind::kDisabled;
  transcript_.lifecycle(event.plugin_id, rpckit::streamnook::to_string(event.kind),
                        has_cause ? rpckit::supervision::to_string(event.cause) : "", detail);
  std::lock_guard lock(mutex_);
  seen_[event.plugin_id].push_back(event.kind);
  changed_.notify_all();
}

void DemoApplication::ask_consent(const PluginContext& plugin, const sn::CredentialKind& kind,
                                  ConsentAnswer answer) {
  transcript_.host("CONSENT " + plugin.plugin_id + " asks for the " + std::string(kind.wire()) +
                   " credential: the demo user says yes");
  answer(true);
}

void DemoApplication::tell_user(std::string_view plugin_id, std::string_view message) {
  transcript_.host("NOTICE plugin " + std::string(plugin_id) + " " + std::string(message));
}

void DemoApplication::on_report(std::string_view plugin_id, std::string_view what) {
  transcript_.plugin_says(plugin_id, what);
}

void DemoApplication::on_frame(std::string_view plugin_id, bool outgoing, std::string_view body) {
  transcript_.frame(plugin_id, outgoing, body);
}

}  // namespace demo
