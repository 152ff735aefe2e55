#pragma once
// rpckit::loaf::Client: a client of loaf RPC 1.0.0 (../shared/spec/loaf-rpc-v1.md) for one
// server process. The wire is the profile's (NDJSON split on LF, CRLF or a lone CR, unique
// integer ids, non-JSON stdout lines logged and skipped (8.8), lines over 64 MiB dropped (8.7),
// the stop sequence of 8.6); this adds what the spec puts on a client beyond it:
// - the handshake (decision 8.1): rpc.handshake first, with client_name, client_version and
//   protocol_version "1.0.0" (strict optional), waited for up to 30 s; its verdict: a server
//   of another major version (section 7) or one that refuses the version is
//   unsupported_protocol_version, another error handshake_refused;
// - the stop (decision 8.6): system.shutdown, its answer, stdin closed, 5 s, SIGTERM, 5 s,
//   SIGKILL; a server still running 5 s after its stdin closed is exit_timeout, an exit
//   status other than 0 is a violation (section 2);
// - events (section 5): each `event` decoded by type and handed to the application, an
//   unknown type passed on untyped (section 7), a payload not of its type's shape a violation;
// - history paging (8.10, history.hpp) and errors without data tolerated (8.11,
//   error_reason());
// - what went wrong in the spec's words, in a SessionOutcome: the first failure (its kind one
//   of launch_failed, handshake_timeout, handshake_refused, unsupported_protocol_version,
//   server_exited, shutdown_timeout, exit_timeout, exit_status) and every violation.
//
//   rpckit::loaf::Client client({.command = {"loaf", "rpc"},
//                                .on_event = [](const rpckit::loaf::Event& e) { ... }});
//   if (!client.start()) return fail(client.outcome().failure()->describe());
//   auto session = client.call<loaf::v1::messages::SessionCreate>({});
//   client.stop();  // the stop sequence; client.outcome() has the verdict
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loaf_v1/roles.hpp"
#include "rpckit/loaf/events.hpp"
#include "rpckit/endpoint/typed.hpp"
#include "rpckit/loaf/history.hpp"
#include "rpckit/roles/session_outcome.hpp"
#include "rpckit/roles/spawned_plugin.hpp"

namespace rpckit::loaf {

struct ServerContext {};  // the one server a Client talks to

// The failure kind of why the server went down before the client stopped it (see above).
std::string failure_name(const roles::StopReason& reason);
// A violation in the spec's words for what the connection noticed, or nullopt.
std::optional<std::string> violation_of(const Diagnostic& diagnostic);
// How the stop sequence ended (the supervisor's detail: "exit code 0", "killed by signal 9"),
// as a violation, or nullopt for exit status 0 (section 2).
std::optional<std::string> stop_violation(const std::string& exit_detail);

// data.reason of an error, when the server sent one (8.11: it may not).
std::optional<std::string> error_reason(const RpcError& error);

// The handshake params of decision 8.1.
lv1::RpcHandshakeParams handshake_params(const std::string& client_name,
                                         const std::string& client_version, bool strict);
// The verdict on the handshake's answer (decision 8.1, section 2); the profile's version check
// has already refused another major version (section 7).
roles::HandshakeOutcome judge_handshake(const Result<lv1::RpcHandshakeResult>& answer);

class Client : private lv1::ClientHandler<ServerContext> {
 public:
  struct Options {
    std::vector<std::string> command{};  // the server's executable and arguments ("loaf rpc")
    std::string client_name = "rpckit-loaf-client";
    std::string client_version{};  // default: rpckit's version
    bool strict = false;  // ask the server to refuse another protocol version (section 2)
    // Multiplies every timer: the profile's (30 s handshake, 5 s + 5 s stop) and the client's.
    double time_scale = 1.0;
    // How long the stop waits for system.shutdown's answer (8.9: the client's choice).
    std::chrono::milliseconds shutdown_deadline{30000};
    roles::Transcript* transcript = nullptr;
    // Every event, in arrival order, on the connection's thread (keep it short; calls to the
    // server from it are allowed).
    std::function<void(const Event&)> on_event{};
  };

  explicit Client(Options options);
  ~Client() override;
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Spawns the server and runs the handshake; true when it was accepted. Otherwise
  // outcome().failure() names why.
  bool start();
  // The handshake's answer, once accepted.
  std::optional<lv1::RpcHandshakeResult> handshake() const;

  // A typed call. A result that does not have the spec's shape is recorded as a violation and
  // fails the call as CallError::Kind::kLocal (kRemote is kept for the server's own errors).
  // No deadline by default (8.9: the spec sets none; pick one per call).
  template <class M>
  Result<typename M::Result> call(const typename M::Params& params,
                                  std::optional<std::chrono::milliseconds> deadline = std::nullopt) {
    std::shared_ptr<Endpoint> endpoint = plugin_->endpoint();
    if (!endpoint) return not_running();
    CallResult raw = endpoint->call_encoded(M::kMethod, encode_params_text<M>(params),
                                            deadline ? deadline : descriptor_deadline<M>());
    Result<typename M::Result> typed = decode_result<M>(raw);
    if (raw.ok() && !typed.ok()) return invalid_result(M::kMethod, typed.error());
    return typed;
  }
  // Any method, untyped (no params member when `params` is nullopt).
  CallResult call(const std::string& method, const std::optional<JsonValue>& params,
                  std::optional<std::chrono::milliseconds> deadline = std::nullopt);
  // The generated client (typed, nothing recorded).
  const lv1::ServerClient& server() const { return plugin_->client(); }
  // Every saved session (history.list paged as decision 8.10 says).
  Result<std::vector<lv1::ChatSessionSummary>> list_history(
      const HistoryPaging& paging = {}) const {
    return loaf::list_history(server(), paging);
  }

  // The stop sequence of decision 8.6; blocks until the server has exited.
  void stop();

  roles::SessionOutcome& outcome() { return outcome_; }
  roles::SpawnedPlugin<lv1::Protocol>& plugin() { return *plugin_; }

 private:
  void event(ServerContext& server, const lv1::EventParams& params) override;
  void on_lifecycle(const roles::LifecycleEvent& e);
  void on_shutdown_answered(const std::optional<CallError>& error);
  CallError invalid_result(std::string_view method, const CallError& error);
  void violation(const std::string& what);
  CallError not_running() const;

  Options options_;
  ServerContext context_;
  roles::SessionOutcome outcome_;
  bool ran_ = false;  // the control thread's: the handshake was accepted
  std::unique_ptr<roles::SpawnedPlugin<lv1::Protocol>> plugin_;  // last: its threads use the rest
};

}  // namespace rpckit::loaf
