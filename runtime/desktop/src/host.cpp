#include "rpckit/desktop/host.hpp"

#include <nlohmann/json.hpp>

namespace rpckit::desktop {

namespace {
using supervision::StopCause;

// Plugin-defined requests have no protocol deadline (section 2); this host's choice.
constexpr std::chrono::milliseconds kCallDeadline{60000};

std::chrono::milliseconds scaled(std::chrono::milliseconds d, double factor) {
  return std::chrono::milliseconds(
      static_cast<std::chrono::milliseconds::rep>(static_cast<double>(d.count()) * factor));
}
}  // namespace

std::string failure_name(const roles::StopReason& reason) {
  switch (reason.cause) {
    case StopCause::kLaunchFailed: return "launch_failed";
    case StopCause::kHandshakeTimeout: return "health_timeout";
    case StopCause::kHandshakeFailed:
    case StopCause::kHandshakeRejected:
    case StopCause::kUnhealthy: return "unhealthy";
    case StopCause::kMalformedFrame: return "malformed_line";
    case StopCause::kOversizedFrame: return "oversized_line";
    case StopCause::kExitTimeout: return "exit_timeout";
    case StopCause::kCrashed:
    case StopCause::kOutputCap:
    case StopCause::kRequested: break;
  }
  return "crashed";
}

std::optional<std::string> violation_of(const Diagnostic& d) {
  switch (d.kind) {
    case Diagnostic::Kind::kParseError:
      return "a line on stdout that is not JSON, logged and discarded (section 3): " + d.detail;
    case Diagnostic::Kind::kOversize:
      return "a line over 16 MiB, discarded (decision 9.8): " + d.detail;
    case Diagnostic::Kind::kLenientEnvelope:
      return "a message without \"jsonrpc\": \"2.0\", processed anyway (decision 9.11)";
    case Diagnostic::Kind::kInvalidRequest:
      return "a message that is neither a valid request nor a response (section 3): " + d.detail;
    case Diagnostic::Kind::kInvalidResponse:
      return "a response that cannot be used (section 1): " + d.detail;
    case Diagnostic::Kind::kUnknownResponseId:
      return "a response to no request of the host (section 1): " + d.detail;
    case Diagnostic::Kind::kNotificationFailed:
    case Diagnostic::Kind::kWriteFailed:
    case Diagnostic::Kind::kObserverFailed:
    case Diagnostic::Kind::kUndeclared:
      break;
  }
  return std::nullopt;
}

std::optional<std::string> stop_violation(const std::string& exit_detail) {
  if (exit_detail == "exit code 0") return std::nullopt;
  return "crashed: after plugin/shutdown the plugin ended with " + exit_detail +
         ", not exit code 0 (decision 9.10)";
}

Host::Host(Options options) : options_(std::move(options)), context_{options_.installed_id} {
  roles::SpawnedPlugin<dv1::Protocol>::Options o;
  o.id = options_.installed_id;
  o.command = options_.command;
  o.time_scale = options_.time_scale;
  o.transcript = options_.transcript;
  o.judge = [this](const Result<dv1::HealthResult>& r) {
    if (!r.ok()) return roles::judge_handshake(r);
    // Healthy <=> ok === true or status === "ok" (section 6); the id is informational.
    bool healthy = r->ok.value_or(false) || r->status.value_or("") == "ok";
    if (r->plugin_id && *r->plugin_id != options_.installed_id) {
      note("warning: the plugin calls itself " + *r->plugin_id + ", installed as " +
           options_.installed_id);
    }
    if (healthy) return roles::HandshakeOutcome{};
    return roles::HandshakeOutcome{roles::HandshakeOutcome::Kind::kRefused,
                                   "plugin/health answered not healthy", true};
  };
  o.shutdown_answered = [this](const std::optional<CallError>& error) {
    // Any success acknowledges shutdown, whatever its result (section 6).
    if (!error || error->kind == CallError::Kind::kRemote ||
        error->kind == CallError::Kind::kInvalidResult) {
      return;
    }
    if (error->kind == CallError::Kind::kTimeout) {
      outcome_.fail("shutdown_timeout", error->describe());
    }
  };
  plugin_ = std::make_unique<roles::SpawnedPlugin<dv1::Protocol>>(std::move(o));
  plugin_->bind(static_cast<dv1::HostHandler<PluginContext>&>(*this), context_);
  plugin_->on_diagnostic([this](const Diagnostic& d) {
    if (auto what = violation_of(d)) outcome_.violation(*what);
  });
  plugin_->on_lifecycle([this](const roles::LifecycleEvent& e) {
    if (e.kind != roles::LifecycleEvent::Kind::kStopped &&
        e.kind != roles::LifecycleEvent::Kind::kDisabled) {
      return;
    }
    if (e.cause == StopCause::kRequested) {
      if (e.kind == roles::LifecycleEvent::Kind::kStopped) {
        if (auto crash = stop_violation(e.detail)) outcome_.fail("crashed", *crash);
      }
      return;
    }
    outcome_.fail(failure_name({e.cause, e.detail}), e.detail);
  });
}

Host::~Host() { stop(); }

bool Host::start() { return plugin_->start(); }

CallResult Host::call(const std::string& method, const std::optional<JsonValue>& params,
                      std::optional<std::chrono::milliseconds> deadline) {
  std::shared_ptr<Endpoint> endpoint = plugin_->endpoint();
  if (!endpoint) {
    return CallError{CallError::Kind::kDisconnected,
                     RpcError(jsonrpc_code::kInternalError, options_.installed_id + " is not running")};
  }
  return endpoint->call(method, params,
                        deadline.value_or(scaled(kCallDeadline, options_.time_scale)));
}

void Host::stop() { plugin_->stop(); }

HostCounts Host::counts() const {
  std::lock_guard lock(mutex_);
  return counts_;
}

bool Host::wait_for(const std::function<bool(const HostCounts&)>& done,
                    std::chrono::milliseconds limit) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, limit, [&] { return done(counts_); });
}

void Host::note(const std::string& what) const {
  if (options_.transcript) options_.transcript->host(what);
}

dv1::PingResult Host::host_ping(PluginContext&, const dv1::HostPingParams&) {
  std::lock_guard lock(mutex_);
  ++counts_.pings;
  changed_.notify_all();
  return {};
}

dv1::ApprovalResult Host::host_request_approval(PluginContext& plugin,
                                                const dv1::ApprovalRequest& params) {
  dv1::ApprovalResult result;
  result.approved = options_.approve ? options_.approve(plugin.id, params.permission)
                                     : options_.approved_permissions.contains(params.permission);
  note("the user " + std::string(result.approved ? "approves " : "declines ") +
       params.permission + " for " + plugin.id);
  std::lock_guard lock(mutex_);
  ++counts_.approvals;
  counts_.approved += result.approved ? 1 : 0;
  changed_.notify_all();
  return result;
}

void Host::codex_event(PluginContext& plugin, const dv1::CodexEvent& params) {
  // The inner method and params are opaque here: handed on, not interpreted (section 5).
  if (options_.on_event) options_.on_event(plugin, params);
  std::lock_guard lock(mutex_);
  ++counts_.events;
  changed_.notify_all();
}

}  // namespace rpckit::desktop
