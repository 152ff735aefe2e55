#pragma once
// PluginSession: the protocol-agnostic half of the plugin role (the process a host spawns),
// driven by what a generated Profile says. PluginRole<Protocol> (plugin_role.hpp) fills it
// in from the traits; a protocol layer or an application adds only its own handlers.
//
// What it does for every protocol:
// - serves the host on stdin/stdout with the profile's framing and limits, with stdout
//   guarded (StdoutGuard), until the exit message, stdin EOF or a broken stream;
// - answers the health check itself, runs the shutdown hook before answering shutdown, and
//   closes on exit (or once the shutdown answer is written, when the profile stops on it);
//   the handshake goes to the route, and its grant (the profile's grant member) is handed to
//   the Caller the plugin sends through; until the handshake-done message arrives, that Caller
//   sends only what the profile lets the plugin send early (before_handshake_done);
// - runs handlers one at a time in arrival order. The endpoint keeps dispatching while a
//   handler waits on the host (pings are answered, nested requests cannot deadlock), so the
//   notifications that arrive meanwhile are held, bounded, and run once that handler has
//   returned: an event never runs in the middle of another handler;
// - reports what it cannot answer (a notification's failure, a dropped event) on stderr.
#include <atomic>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "rpckit/descriptors/profile.hpp"
#include "rpckit/endpoint/endpoint.hpp"
#include "rpckit/framing/framing.hpp"
#include "rpckit/roles/caller.hpp"
#include "rpckit/roles/connection_rules.hpp"
#include "rpckit/values/json_value.hpp"

namespace rpckit::roles {

// The lifecycle messages by method name (empty: the protocol has none), and the answers the
// session gives itself.
struct PluginLifecycle {
  std::string handshake;
  std::string handshake_done;
  std::string health_check;
  std::string shutdown;
  std::string exit;
  JsonValue health_check_result;  // encoded default result
  void (*health_check_params)(const LazyJson&) = nullptr;  // throws -32602 for bad params
  JsonValue shutdown_result;
  // The route answers shutdown (its answer depends on the params, or it has work to do
  // first) instead of shutdown_result; the session still applies after_shutdown to it.
  bool shutdown_by_route = false;
  std::string grant_member;  // the handshake params member that holds the grant
  // The handshake result member where the plugin declares its own capabilities (MCP's
  // "capabilities"): its sender-capability gates are checked against it. Empty: none.
  std::string declared_member;
  // Throws the RpcError a received message gets when the plugin's own declarations (the
  // declared_member of its handshake answer) do not allow it (profile gate_on_receipt;
  // roles::refuse_undeclared). nullptr: nothing is refused by them.
  void (*refuse_undeclared)(std::string_view method, const LazyJson& params,
                            const nlohmann::json& own) = nullptr;
  // What the plugin may send before handshake_done has arrived (MCP: ping and logging).
  EarlyMessages before_handshake_done;
  // What the session does once its shutdown answer is written: carry on, end (the exit
  // message of a protocol without one), or read and drop every later frame.
  AfterShutdown after_shutdown = AfterShutdown::kServe;
  bool stops_on_sigterm = false;  // SIGTERM (and SIGINT) end the session as stdin EOF does
  bool stops_on_stdin_eof = false;  // the end of stdin is a normal stop (nothing is reported)
};

struct PluginSettings {
  ConnectionRules connection;
  PluginLifecycle lifecycle;
};

class PluginSession {
 public:
  // Answers one message (a request's result; null for a notification) or throws an RpcError.
  // `params` is the wire text (decoded straight into a typed struct by a Router), absent when
  // the message has none.
  using Route = std::function<JsonValue(const std::string& method, const LazyJson& params)>;

  PluginSession(PluginSettings settings, Route route, Caller& host);
  PluginSession(const PluginSession&) = delete;
  PluginSession& operator=(const PluginSession&) = delete;

  // Runs after the handshake-done message was handled, on the thread running handlers
  // (events wait).
  void on_ready(std::function<void()> hook) { ready_hook_ = std::move(hook); }
  // Runs when shutdown arrives, before it is answered (every earlier message is handled).
  void on_shutdown(std::function<void()> hook) { shutdown_hook_ = std::move(hook); }
  // Runs, on a thread of its own, when SIGTERM or SIGINT stops a session whose profile stops
  // on it, before reading ends (e.g. to tell the peer why), with the signal that came.
  void on_signal(std::function<void(int signal)> hook) { signal_hook_ = std::move(hook); }

  // Serves on stdin/stdout (ignoring SIGPIPE process-wide: framing::ignore_sigpipe). Returns
  // the process exit code: 0 after exit or a clean EOF, 1 on a broken stream.
  int run();
  // The same over any framed connection (tests use in-memory pipes).
  int serve(std::unique_ptr<framing::FrameReader> reader,
            std::unique_ptr<framing::FrameWriter> writer, Endpoint::Options options = {});

  // Dispatcher thread only: whether the handshake has been answered successfully.
  bool handshaken() const { return handshaken_; }

 private:
  struct HeldEvent {
    std::string method;
    std::optional<std::string> params;  // JSON text, validated by the endpoint
  };
  static constexpr std::size_t kMaxHeldEvents = 4096;
  static constexpr std::size_t kMaxHeldBytes = std::size_t{16} << 20U;

  JsonValue dispatch(const Incoming& incoming);
  JsonValue run_one(const std::string& method, const LazyJson& params);
  void run_held_events();
  // Ends the session as the exit message does: nothing held runs after it.
  void end_session();
  void hold(const Incoming& incoming);  // or drop it, reported, past the bounds

  PluginSettings settings_;
  Route route_;
  Caller& host_;
  std::function<void()> ready_hook_;
  std::function<void()> shutdown_hook_;
  std::function<void(int signal)> signal_hook_;
  Endpoint* endpoint_ = nullptr;
  bool exit_requested_ = false;
  bool ignoring_input_ = false;  // dispatcher thread: shutdown answered, input dropped
  std::atomic<bool> stopped_by_signal_{false};
  bool handshaken_ = false;
  // Dispatcher thread only: what the plugin declared of itself in its handshake answer.
  std::optional<JsonValue> own_declared_;
  // Dispatcher thread only: handlers running (more than 1 when the endpoint dispatches a
  // message while a handler waits in a host call), and the events held meanwhile.
  int handler_depth_ = 0;
  std::deque<HeldEvent> held_events_;
  std::size_t held_bytes_ = 0;
};

}  // namespace rpckit::roles
