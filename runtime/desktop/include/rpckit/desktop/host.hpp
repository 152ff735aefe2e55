#pragma once
// rpckit::desktop::Host: a host of desktop-plugins v1 (../shared/spec/desktop-plugins-v1.md)
// for one plugin. The wire is the profile's (NDJSON, string ids matched by string form, a
// message without "jsonrpc" taken, an over-long line dropped, non-JSON stdout logged); this
// adds what the spec puts on the host beyond it:
// - health (section 6): healthy when plugin/health answers ok: true or status "ok"; another
//   plugin_id than the one installed is a warning, not a failure;
// - the host methods (section 4): host/ping, host/request_approval (a permission the host does
//   not know is refused with approved: false, never an error, decision 9.12), codex/event
//   notifications handed to the application;
// - the spec's names for what went wrong (section 2, decision 9.10), and the peer's protocol
//   violations in the spec's words (sections 1, 3, decisions 9.8, 9.11), in a SessionOutcome.
//
//   rpckit::desktop::Host host({.installed_id = "acme.sim-tools", .command = {"./plugin"}});
//   if (!host.start()) return fail(host.outcome().failure()->describe());
//   rpckit::CallResult r = host.call("acme/run_model", nlohmann::json{{"model", "m1"}});
//   host.stop();  // plugin/shutdown, stdin closed, 5 s, kill (the profile's stop sequence)
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "desktop_v1/roles.hpp"
#include "rpckit/roles/session_outcome.hpp"
#include "rpckit/roles/spawned_plugin.hpp"

namespace rpckit::desktop {

namespace dv1 = ::desktop::v1;

struct PluginContext {
  std::string id;  // the id the host installed the plugin under
};

// How many of each host message arrived.
struct HostCounts {
  int pings = 0;
  int approvals = 0;
  int approved = 0;
  int events = 0;
};

// The spec's name for why a plugin went down (section 2, decisions 9.9, 9.10): launch_failed,
// health_timeout, unhealthy, crashed, malformed_line, oversized_line, exit_timeout.
std::string failure_name(const roles::StopReason& reason);
// A violation in the spec's words for what the endpoint noticed, or nullopt.
std::optional<std::string> violation_of(const Diagnostic& diagnostic);
// A requested stop that did not end with exit code 0 is a crash (decision 9.10).
std::optional<std::string> stop_violation(const std::string& exit_detail);

class Host : private dv1::HostHandler<PluginContext> {
 public:
  struct Options {
    std::string installed_id = "plugin";
    std::vector<std::string> command{};
    double time_scale = 1.0;
    roles::Transcript* transcript = nullptr;
    // The user's answer to host/request_approval; by default, approved for the permissions in
    // `approved_permissions` and refused for every other (decision 9.12).
    std::function<bool(const std::string& plugin_id, const std::string& permission)> approve{};
    std::set<std::string, std::less<>> approved_permissions{"workspace.read"};
    // codex/event notifications (section 5), for the application's UI.
    std::function<void(const PluginContext&, const dv1::CodexEvent&)> on_event{};
  };

  explicit Host(Options options);
  ~Host() override;
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  // Spawns the plugin and runs plugin/health; true when it is healthy. Otherwise
  // outcome().failure() names why.
  bool start();
  // A plugin-defined request (allowed after a successful health check), or any other; its
  // deadline is the caller's (the spec sets none), 60 s by default, scaled.
  CallResult call(const std::string& method, const std::optional<JsonValue>& params,
                  std::optional<std::chrono::milliseconds> deadline = std::nullopt);
  // The plugin's protocol methods, typed.
  const dv1::PluginClient& client() const { return plugin_->client(); }
  // The profile's stop sequence; what went wrong is in outcome() afterwards.
  void stop();

  roles::SessionOutcome& outcome() { return outcome_; }
  HostCounts counts() const;
  // Waits until `done(counts)` holds, at most `limit`.
  bool wait_for(const std::function<bool(const HostCounts&)>& done, std::chrono::milliseconds limit);
  roles::SpawnedPlugin<dv1::Protocol>& plugin() { return *plugin_; }

 private:
  dv1::PingResult host_ping(PluginContext& plugin, const dv1::HostPingParams& params) override;
  dv1::ApprovalResult host_request_approval(PluginContext& plugin,
                                            const dv1::ApprovalRequest& params) override;
  void codex_event(PluginContext& plugin, const dv1::CodexEvent& params) override;
  void note(const std::string& what) const;

  Options options_;
  PluginContext context_;
  roles::SessionOutcome outcome_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  HostCounts counts_;
  std::optional<std::string> stop_detail_;  // how a requested stop ended ("exit code 0")
  std::unique_ptr<roles::SpawnedPlugin<dv1::Protocol>> plugin_;  // last: its threads use the rest
};

}  // namespace rpckit::desktop
