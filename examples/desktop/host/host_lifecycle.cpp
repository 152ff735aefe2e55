#include "host_lifecycle.hpp"

#include <nlohmann/json.hpp>

#include "desktop_v1/roles.hpp"
#include "rpckit/roles/host_role.hpp"

namespace desktop_sample {
namespace dv1 = desktop::v1;
using rpckit::roles::LifecycleEvent;
using rpckit::supervision::StopCause;

std::optional<Failure> failure_of(const LifecycleEvent& event) {
  if (event.kind != LifecycleEvent::Kind::kStopped &&
      event.kind != LifecycleEvent::Kind::kDisabled) {
    return std::nullopt;
  }
  switch (event.cause) {
    case StopCause::kLaunchFailed:
      return Failure{"launch_failed", event.detail};
    case StopCause::kHandshakeTimeout:
      return Failure{"health_timeout", event.detail};
    case StopCause::kHandshakeFailed:
      return Failure{"unhealthy", event.detail};
    case StopCause::kCrashed:
      return Failure{"crashed", event.detail};
    case StopCause::kUnhealthy:
      return Failure{"unhealthy", event.detail};
    case StopCause::kMalformedFrame:
      return Failure{"malformed_frame", event.detail};
    case StopCause::kOversizedFrame:
      return Failure{"oversized_line", event.detail};
    case StopCause::kHandshakeRejected:
      return Failure{"unhealthy", event.detail};
    case StopCause::kOutputCap:
      return Failure{"crashed", event.detail};
    case StopCause::kExitTimeout:
      return Failure{"exit_timeout", event.detail};
    case StopCause::kRequested:
      // Exit code 0 after the shutdown; anything else is a crash (decision 9.10).
      if (event.kind == LifecycleEvent::Kind::kStopped && event.detail != "exit code 0") {
        return Failure{"crashed", "after plugin/shutdown: " + event.detail};
      }
      return std::nullopt;
  }
  return std::nullopt;
}

void LifecycleLog::record(const LifecycleEvent& event) {
  std::optional<Failure> failure = failure_of(event);
  std::lock_guard lock(mutex_);
  if (event.kind == LifecycleEvent::Kind::kRunning) running_ = true;
  if (event.kind == LifecycleEvent::Kind::kStopped ||
      event.kind == LifecycleEvent::Kind::kDisabled) {
    down_ = true;
  }
  if (failure && !failure_) failure_ = std::move(failure);
  changed_.notify_all();
}

void LifecycleLog::fail(std::string kind, std::string detail) {
  std::lock_guard lock(mutex_);
  if (!failure_) failure_ = Failure{std::move(kind), std::move(detail)};
  changed_.notify_all();
}

bool LifecycleLog::wait_running(std::chrono::milliseconds limit) {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, limit, [&] { return running_ || down_; });
  return running_ && !down_;
}

std::optional<Failure> LifecycleLog::failure() const {
  std::lock_guard lock(mutex_);
  return failure_;
}

rpckit::roles::PluginProcess::Lifecycle desktop_lifecycle(std::string installed_id,
                                                          rpckit_examples::Transcript& transcript,
                                                          LifecycleLog& log) {
  auto life = rpckit::roles::host_lifecycle<dv1::Protocol>(
      [] { return dv1::PluginHealthParams{}; },
      [installed_id, &transcript](const rpckit::Result<dv1::HealthResult>& r) {
        if (!r.ok()) return rpckit::roles::judge_handshake(r);
        // Healthy <=> ok === true or status === "ok" (spec section 6).
        bool healthy = r->ok.value_or(false) || r->status.value_or("") == "ok";
        if (r->plugin_id && *r->plugin_id != installed_id) {
          transcript.host("warning: the plugin calls itself " + *r->plugin_id + ", installed as " +
                          installed_id);
        }
        if (healthy) return rpckit::roles::HandshakeOutcome{};
        return rpckit::roles::HandshakeOutcome{rpckit::roles::HandshakeOutcome::Kind::kRefused,
                                               "plugin/health answered not healthy", true};
      });
  // Any success answer acknowledges shutdown, whatever its result (spec section 6); so the
  // raw call, not the typed one, which would refuse a result it cannot decode.
  life.shutdown = [&log](rpckit::Endpoint& endpoint, rpckit::supervision::Duration deadline,
                         rpckit::roles::PluginProcess::Done done) {
    endpoint.call_async(
        dv1::messages::PluginShutdown::kMethod, nlohmann::json::object(),
        [&log, done = std::move(done)](const rpckit::CallResult& r) {
          if (!r.ok() && r.error().kind == rpckit::CallError::Kind::kTimeout) {
            log.fail("shutdown_timeout", r.error().describe());
          } else if (!r.ok() && r.error().kind != rpckit::CallError::Kind::kRemote) {
            log.fail("crashed", "plugin/shutdown unanswered: " + r.error().describe());
          }
          done();
        },
        deadline);
  };
  return life;
}

}  // namespace desktop_sample
