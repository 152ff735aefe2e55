#pragma once
// PluginRunner: one StreamNook plugin inside the host: the generic roles::PluginProcess
// (spawn, supervision, ordered writes, lifecycle messages from sn::Profile) plus what is
// StreamNook's: the spawn from the manifest, the initialize params and the verdict on its
// answer (hooks within the grant, protocol_version_mismatch disables), the capability gates
// on both directions, invoke_action, and the rules the spec puts on the host: the notify rate
// limit, shutting_down after a stop began, get_credential consent, `log` into plugin.log.
#include <atomic>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "rpckit/dispatch/router.hpp"
#include "rpckit/roles/fan_out.hpp"
#include "rpckit/roles/plugin_process.hpp"
#include "rpckit/roles/rate_limit.hpp"
#include "rpckit/streamnook/host.hpp"
#include "consent.hpp"
#include "plugin_log.hpp"
#include "streamnook_v1/dispatch.hpp"

namespace rpckit::streamnook {

class PluginRunner {
 public:
  PluginRunner(HostApplication& app, const HostOptions& options, LoadedManifest manifest,
               sn::Granted granted);
  ~PluginRunner();

  const std::string& id() const { return id_; }
  const sn::Granted& granted() const { return granted_; }
  void start();
  void stop();  // blocks until stopped or disabled; host-method calls get shutting_down
  void revoke_consent(const sn::CredentialKind& kind);
  supervision::State state() const { return process_->state(); }
  std::vector<std::string> hooks() const;

  // Queues an event if the plugin is running, hooked it and its grant allows it; false if
  // dropped.
  bool enqueue_event(const roles::EncodedEvent& event);
  Result<JsonValue> invoke_action(const std::string& action, const JsonValue& args);

 private:
  sn::InitializeParams handshake_params() const;
  roles::HandshakeOutcome judge_handshake(const Result<sn::InitializeResult>& result);
  roles::PluginProcess::Observer observer();

  // Incoming plugin-to-host messages: gate first, then the application (host_methods.cpp).
  nlohmann::json handle(const Incoming& incoming);
  nlohmann::json route(const Incoming& incoming);
  void register_host_methods();
  // get_credential behind the user's consent: answered now, or deferred until the prompt is
  // answered or times out.
  nlohmann::json get_credential(const Incoming& incoming);
  void serve_credential(ConsentBook::Waiting& waiting);

  HostApplication& app_;
  HostOptions options_;
  LoadedManifest manifest_;
  std::string id_;
  sn::Granted granted_;
  nlohmann::json granted_json_;
  PluginContext context_;
  Router<sn::PluginToHost> router_;

  mutable std::mutex mutex_;
  std::vector<std::string> hooks_;  // accepted at the last handshake
  roles::RateLimit notify_limit_;    // under mutex_
  std::atomic<bool> shutting_down_{false};
  PluginLog log_file_;
  std::shared_ptr<ConsentBook> consent_;  // shared with the answers the application holds

  std::unique_ptr<roles::PluginProcess> process_;  // last: its threads use everything above
};

}  // namespace rpckit::streamnook
