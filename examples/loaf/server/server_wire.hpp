#pragma once
// How loaf-server meets the wire, on top of rpckit::roles::PluginSession (the generic plugin
// half), for what the spec asks beyond it:
// - system.ping and system.shutdown go to the handler (the time, the reason, state.changed),
//   not to the session's built-in answers;
// - every error carries the spec's data ({reason: ...}; method / field where it names them),
//   the ones the endpoint makes itself (-32700, -32600) included;
// - params of "ignored" methods are never looked at;
// - input is also split on a lone CR; after system.shutdown every line is read and dropped;
//   a signal stops reading as a closed stdin would.
#include <atomic>
#include <mutex>

#include "loaf_v1/roles.hpp"
#include "rpckit/framing/interruptible_fd_source.hpp"
#include "rpckit/roles/plugin_session.hpp"

namespace loaf_server {

// The plugin settings of loaf's profile, with ping and shutdown left to the handler.
rpckit::roles::PluginSettings plugin_settings();

// The route through `router` (which must outlive it), answering with loaf's error data.
rpckit::roles::PluginSession::Route loaf_route(
    const rpckit::Router<loaf::v1::ClientToServer>& router);

class ServerWire {
 public:
  // Serves `session` on stdin/stdout until EOF or stop_reading(); returns the exit code.
  int serve(rpckit::roles::PluginSession& session);
  void ignore_input() { ignoring_ = true; }
  // Any thread: ends the session as a closed stdin does.
  void stop_reading();

 private:
  class Reader;
  class Writer;
  std::atomic<bool> ignoring_{false};
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  rpckit::framing::InterruptibleFdSource* source_ = nullptr;  // while serving
};

}  // namespace loaf_server
