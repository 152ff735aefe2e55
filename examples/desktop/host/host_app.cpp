#include "host_app.hpp"

#include <nlohmann/json.hpp>

namespace desktop_sample {
namespace dv1 = desktop::v1;

dv1::PingResult HostApp::host_ping(PluginContext&, const dv1::HostPingParams&) {
  std::lock_guard lock(mutex_);
  ++counts_.pings;
  changed_.notify_all();
  return {};
}

dv1::ApprovalResult HostApp::host_request_approval(PluginContext& plugin,
                                                   const dv1::ApprovalRequest& params) {
  dv1::ApprovalResult result;
  result.approved = known_permissions_.contains(params.permission);
  transcript_.host("the user " + std::string(result.approved ? "approves " : "declines ") +
                   params.permission + " for " + plugin.id);
  std::lock_guard lock(mutex_);
  ++counts_.approvals;
  counts_.approved += result.approved ? 1 : 0;
  changed_.notify_all();
  return result;
}

void HostApp::codex_event(PluginContext& plugin, const dv1::CodexEvent& params) {
  // The inner method and params are opaque here: shown, not interpreted (spec section 5).
  nlohmann::json inner = nlohmann::json::object();
  for (const auto& [key, value] : params.params) inner[key] = value.get();
  transcript_.plugin_says(plugin.id, "codex/event " + std::string(params.kind.wire()) + " " +
                                         params.method + " " + inner.dump());
  std::lock_guard lock(mutex_);
  ++counts_.events;
  changed_.notify_all();
}

HostCounts HostApp::counts() const {
  std::lock_guard lock(mutex_);
  return counts_;
}

}  // namespace desktop_sample
