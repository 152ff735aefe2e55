#include "rpckit/loaf/client.hpp"

#include "rpckit/version.hpp"

namespace rpckit::loaf {

namespace {
using supervision::StopCause;

std::chrono::milliseconds scaled(std::chrono::milliseconds d, double factor) {
  return std::chrono::milliseconds(
      static_cast<std::chrono::milliseconds::rep>(static_cast<double>(d.count()) * factor));
}
}  // namespace

Client::Client(Options options) : options_(std::move(options)) {
  if (options_.client_version.empty()) options_.client_version = RPCKIT_VERSION_STRING;
  roles::SpawnedPlugin<lv1::Protocol>::Options o;
  o.id = "loaf";
  o.command = options_.command;
  o.time_scale = options_.time_scale;
  o.transcript = options_.transcript;
  // The profile's timers and stop sequence; the wait for shutdown's answer is the client's.
  o.policy = roles::lifecycle_policy<lv1::Protocol>(options_.time_scale);
  o.policy->shutdown_timeout = scaled(options_.shutdown_deadline, options_.time_scale);
  o.handshake_params = [this] {
    return handshake_params(options_.client_name, options_.client_version, options_.strict);
  };
  o.judge = [this](const Result<lv1::RpcHandshakeResult>& r) {
    roles::HandshakeOutcome verdict = judge_handshake(r);
    if (verdict.kind == roles::HandshakeOutcome::Kind::kRefused && options_.transcript) {
      options_.transcript->host(verdict.detail);
    }
    return verdict;
  };
  o.shutdown_answered = [this](const std::optional<CallError>& e) { on_shutdown_answered(e); };
  plugin_ = std::make_unique<roles::SpawnedPlugin<lv1::Protocol>>(std::move(o));
  plugin_->bind(static_cast<lv1::ClientHandler<ServerContext>&>(*this), context_);
  plugin_->on_diagnostic([this](const Diagnostic& d) {
    if (auto what = violation_of(d)) violation(*what);
  });
  plugin_->on_lifecycle([this](const roles::LifecycleEvent& e) { on_lifecycle(e); });
}

Client::~Client() { stop(); }

bool Client::start() {
  if (plugin_->start()) return true;
  // The role wakes start() before its observers run: the verdict is recorded here too (the
  // observer's, later, is not the first and changes nothing).
  if (auto down = plugin_->stop_reason()) {
    outcome_.fail(failure_name(*down), down->detail);
  } else {
    outcome_.fail("handshake_timeout", "the server neither answered rpc.handshake nor ended");
  }
  return false;
}

std::optional<lv1::RpcHandshakeResult> Client::handshake() const {
  return plugin_->handshake_result();
}

CallResult Client::call(const std::string& method, const std::optional<JsonValue>& params,
                        std::optional<std::chrono::milliseconds> deadline) {
  std::shared_ptr<Endpoint> endpoint = plugin_->endpoint();
  if (!endpoint) return not_running();
  return endpoint->call(method, params, deadline);
}

void Client::stop() { plugin_->stop(); }

CallError Client::not_running() const {
  return CallError{CallError::Kind::kDisconnected,
                   RpcError(jsonrpc_code::kInternalError, "the loaf server is not running")};
}

void Client::violation(const std::string& what) {
  outcome_.violation(what);
  if (options_.transcript) options_.transcript->host("violation: " + what);
}

CallError Client::invalid_result(std::string_view method, const CallError& error) {
  violation("a result of " + std::string(method) + " that is not the spec's (section 4): " +
            error.error.message());
  return CallError{CallError::Kind::kLocal, error.error};
}

void Client::event(ServerContext&, const lv1::EventParams& params) {
  Event e = decode_event(params);
  if (e.malformed) {
    violation("an event " + e.type + " whose payload is not the spec's (section 5): " +
              *e.malformed);
  }
  if (options_.on_event) options_.on_event(e);
}

void Client::on_shutdown_answered(const std::optional<CallError>& error) {
  if (!error) return;  // {accepted: true}, as decoded
  switch (error->kind) {
    case CallError::Kind::kTimeout:
      outcome_.fail("shutdown_timeout",
                    "system.shutdown unanswered within the client's wait (decision 8.6: the "
                    "client waits for its response): " + error->describe());
      return;
    case CallError::Kind::kRemote:
      violation("system.shutdown answered with an error, not {accepted: true} (section 2): " +
                error->describe());
      return;
    case CallError::Kind::kInvalidResult:
      violation(
          "system.shutdown answered with a result that is not {accepted: true} (section "
          "2): " +
          error->describe());
      return;
    case CallError::Kind::kDisconnected:
      violation("the server ended without answering system.shutdown (section 2: it answers, "
                "and ends only after stdin closes)");
      return;
    case CallError::Kind::kSendFailed:
    case CallError::Kind::kLocal:
    case CallError::Kind::kCancelled:
      return;
  }
}

void Client::on_lifecycle(const roles::LifecycleEvent& e) {
  using Kind = roles::LifecycleEvent::Kind;
  if (e.kind == Kind::kRunning) ran_ = true;
  if (e.kind != Kind::kStopped && e.kind != Kind::kDisabled) return;
  if (e.cause == StopCause::kRequested) {
    // The stop sequence ran to the server's exit: was it a normal one? (A server stopped
    // before its handshake was answered is killed, not asked.)
    if (e.kind == Kind::kStopped && ran_) {
      if (auto bad = stop_violation(e.detail)) outcome_.fail("exit_status", *bad);
    }
    return;
  }
  if (e.cause == StopCause::kExitTimeout) {
    outcome_.fail("exit_timeout",
                  "the server did not end once its stdin closed (section 2; decision 8.6: it "
                  "exits promptly): " + e.detail);
    return;
  }
  outcome_.fail(failure_name({e.cause, e.detail}), e.detail);
}

}  // namespace rpckit::loaf
