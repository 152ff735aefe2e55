#pragma once
// Host: the StreamNook host role. Runs any number of plugins at once, each supervised on its
// own threads (a plugin that hangs, floods or crashes never delays another): spawn with the
// manifest's entry and args in the plugin directory, handshake with the grant, events to the
// plugins that hooked them, host methods through the capability gates to the
// HostApplication, pings, restarts with backoff, graceful shutdown.
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "rpckit/endpoint/typed.hpp"
#include "rpckit/roles/fan_out.hpp"
#include "rpckit/roles/plugin_registry.hpp"
#include "rpckit/streamnook/host_application.hpp"
#include "rpckit/streamnook/manifest.hpp"
#include "rpckit/supervision/supervisor.hpp"
#include "rpckit/values/json_value.hpp"
#include "streamnook_v1/messages.hpp"

namespace rpckit::streamnook {

class PluginRunner;

struct HostOptions {
  std::string host_version = "7.8.6";
  std::filesystem::path data_root;  // each plugin's data_dir is <data_root>/<plugin id>
  std::filesystem::path log_root;   // each plugin's log_dir is <log_root>/<plugin id>
  // Multiplies every protocol timer (handshake, pings, backoff, window, grace, deadlines).
  double time_scale = 1.0;
  // How long a plugin has to answer initialize, when not the protocol's (scaled) deadline: a
  // host that starts plugins under a debugger, an emulator or sanitizers can give them longer
  // without slowing every other timer.
  std::optional<std::chrono::milliseconds> handshake_timeout;
  // Events waiting for a plugin that is slow to read; beyond this they are dropped (and
  // reported) rather than letting one plugin hold memory or delay the others.
  std::size_t max_queued_events = 1024;
};

// The spec's lifecycle policy (protocol constants), scaled.
supervision::Policy protocol_policy(double time_scale = 1.0);

class Host {
 public:
  Host(HostApplication& app, HostOptions options);
  ~Host();  // stop_all()
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  // Registers a plugin. `granted` is intersected with what the manifest requests: a plugin
  // never gains a power it did not ask for. Returns false (and reports why) for a duplicate
  // id, a host older than the manifest's host_min, or a runtime.kind that is not "process"
  // (a "ui" plugin has no process to run).
  bool add_plugin(LoadedManifest manifest, const sn::Granted& granted);
  // The grant actually given (after the intersection).
  std::optional<sn::Granted> granted(const std::string& plugin_id) const;

  void start(const std::string& plugin_id);
  void start_all();
  // Graceful stop (shutdown, exit, kill after the grace period); blocks until stopped.
  void stop(const std::string& plugin_id);
  void stop_all();

  // Sends event M to every plugin that is running, was granted it and hooked it, and returns
  // how many that is. Events for a plugin that is down are dropped, never queued for later.
  template <class M>
  std::size_t emit(const typename M::Params& params) {
    static_assert(M::kFrom == sn::Role::kHost && M::kKind == MessageKind::kNotification,
                  "emit<M>: M must be a host-to-plugin notification");
    return emit_raw(roles::encode_event<M>(params));
  }

  // Sends event M to one plugin, under the same conditions as emit(): what concerns that
  // plugin alone, such as its settings panel being saved (on_panel_change). Whether it was sent.
  template <class M>
  bool emit_to(const std::string& plugin_id, const typename M::Params& params) {
    static_assert(M::kFrom == sn::Role::kHost && M::kKind == MessageKind::kNotification,
                  "emit_to<M>: M must be a host-to-plugin notification");
    return emit_raw_to(plugin_id, roles::encode_event<M>(params));
  }

  // invoke_action to the plugin that declared `action` in [contributes].actions.
  Result<JsonValue> invoke_action(const std::string& plugin_id, const std::string& action,
                                  const JsonValue& args);

  // Takes back the user's consent to hand `kind` to the plugin: its get_credential calls get
  // consent_denied until it is given again (HostApplication::ask_consent asks once per kind).
  void revoke_consent(const std::string& plugin_id, const sn::CredentialKind& kind);

  std::optional<supervision::State> state(const std::string& plugin_id) const;
  std::vector<std::string> plugin_ids() const;
  // The hooks the plugin asked for that the grant allows (empty before the handshake).
  std::vector<std::string> hooks(const std::string& plugin_id) const;

 private:
  std::size_t emit_raw(const roles::EncodedEvent& event);
  bool emit_raw_to(const std::string& plugin_id, const roles::EncodedEvent& event);

  HostApplication& app_;
  HostOptions options_;
  roles::PluginRegistry<PluginRunner> plugins_;
};

}  // namespace rpckit::streamnook
