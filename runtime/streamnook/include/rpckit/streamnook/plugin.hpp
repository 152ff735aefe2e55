#pragma once
// Plugin: the StreamNook plugin role. A plugin's main registers typed handlers for the events
// and actions it supports, then runs:
//
//   rpckit::streamnook::Plugin plugin("1.0.0");
//   plugin.on<sn::messages::OnStreamStart>([&](const sn::OnStreamStartParams& p) { ... });
//   plugin.on_start([&](HostApi& host) { auto live = host.get_followed_live(); ... });
//   return plugin.run();
//
// The runtime owns the lifecycle (through the generic roles::PluginRole, which reads it from
// sn::Profile): it answers initialize (hooks = the events with a handler, or what
// choose_hooks() picks, always kept within granted.events; an unsupported protocol_version
// gets -32600 protocol_version_mismatch), calls on_start after initialized, answers ping, on
// shutdown runs on_shutdown then answers null, returns exit code 0 on exit and on stdin EOF.
// Handlers run one at a time in arrival order on one of the runtime's threads; they may
// call the host and wait. While a handler waits, the runtime answers ping and honours exit at
// once, and holds the events (notifications) that arrive until the handler has returned, so
// an event never runs in the middle of another handler or of on_start. A request that
// arrives meanwhile (invoke_action, shutdown) is handled at once, nested inside the waiting
// handler.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rpckit/endpoint/endpoint.hpp"
#include "rpckit/roles/plugin_role.hpp"
#include "rpckit/streamnook/host_api.hpp"
#include "rpckit/streamnook/logger.hpp"
#include "streamnook_v1/roles.hpp"

namespace rpckit::streamnook {

class Plugin {
 public:
  using ActionHandler = std::function<JsonValue(const JsonValue& args)>;

  explicit Plugin(std::string plugin_version);
  ~Plugin();

  // The handler of an event (a host-to-plugin notification such as OnFollowedLive).
  template <class M, class F>
  Plugin& on(F&& handler) {
    static_assert(M::kFrom == sn::Role::kHost && M::kKind == MessageKind::kNotification,
                  "on<M>: M must be an event (a host-to-plugin notification)");
    handled_events_.emplace_back(M::kMethod);
    role_.router().template on<M>(std::forward<F>(handler));
    return *this;
  }
  // The handler of an invoke_action action id (e.g. "playback.resolve"). Unknown actions get
  // -32601. Throw an RpcError (see make_error) to answer with a typed error.
  Plugin& on_action(std::string action, ActionHandler handler);
  // Picks the hooks from the grant; the runtime drops anything outside granted.events.
  // Default: every granted event that has a handler.
  Plugin& choose_hooks(std::function<std::vector<std::string>(const sn::Granted&)> chooser);
  // Runs after `initialized`: the place for slow start-up work (the handshake must answer
  // within 10 s). Runs as a handler does, so events wait until it returns.
  Plugin& on_start(std::function<void(HostApi&)> hook);
  // Runs when the host sends `shutdown`, before the runtime answers it.
  Plugin& on_shutdown(std::function<void()> hook);

  HostApi& host() { return host_; }
  Logger& log() { return logger_; }

  // Serves the host on stdin/stdout (guarding stdout, see StdoutGuard) until exit or EOF.
  // Returns the process exit code: 0 after `exit` or a clean EOF, 1 on a broken stream.
  int run();
  // The same over any framed connection (tests use in-memory pipes).
  int serve(std::unique_ptr<framing::FrameReader> reader,
            std::unique_ptr<framing::FrameWriter> writer, Endpoint::Options options = {});

 private:
  void register_lifecycle();
  sn::InitializeResult initialize(const sn::InitializeParams& params);

  std::string version_;
  roles::PluginRole<sn::Protocol> role_{&capability_denied_error};
  HostApi host_{role_.caller()};
  Logger logger_{host_};
  std::vector<std::string> handled_events_;
  std::map<std::string, ActionHandler, std::less<>> actions_;
  std::function<std::vector<std::string>(const sn::Granted&)> chooser_;
  std::function<void(HostApi&)> start_hook_;
  std::function<void()> shutdown_hook_;
};

}  // namespace rpckit::streamnook
