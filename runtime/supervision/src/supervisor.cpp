#include "rpckit/supervision/supervisor.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace rpckit::supervision {
namespace {

using Kind = Action::Kind;

Action act(Kind kind) { return Action{kind, StopCause::kRequested, {}, Duration{0}}; }
Action stopped(StopCause cause, std::string detail) {
  return Action{Kind::kStopped, cause, std::move(detail), Duration{0}};
}

std::string ms(Duration d) { return std::to_string(d.count()) + " ms"; }

std::string_view step_name(StopStep::Kind kind) {
  switch (kind) {
    case StopStep::Kind::kShutdown: return "shutdown";
    case StopStep::Kind::kExit: return "exit";
    case StopStep::Kind::kCloseStdin: return "closing stdin";
    case StopStep::Kind::kSigterm: return "SIGTERM";
    case StopStep::Kind::kWait: return "waiting";
    case StopStep::Kind::kKill: return "SIGKILL";
  }
  return "";
}

}  // namespace

Policy Policy::scaled(double factor) const {
  // Rounded, not truncated: 5000 ms * 0.57 is 2849.9999999999995 in double arithmetic.
  // Never below 1 ms: a 0 ms health-check interval would make a driver spin on its deadline.
  auto scale = [factor](Duration d) {
    auto ms = static_cast<Duration::rep>(std::llround(static_cast<double>(d.count()) * factor));
    return Duration{d.count() > 0 ? std::max<Duration::rep>(ms, 1) : ms};
  };
  auto scale_optional = [&](std::optional<Duration> d) {
    return d ? std::optional<Duration>(scale(*d)) : std::nullopt;
  };
  Policy p = *this;
  p.handshake_timeout = scale_optional(handshake_timeout);
  p.handshake_failure_exit_wait = scale_optional(handshake_failure_exit_wait);
  p.health_check_interval = scale_optional(health_check_interval);
  for (auto& b : p.restart_backoff) b = scale(b);
  p.restart_window = scale_optional(restart_window);
  p.shutdown_timeout = scale_optional(shutdown_timeout);
  for (auto& step : p.stop) step.wait = scale(step.wait);
  return p;
}

std::string_view to_string(State state) {
  switch (state) {
    case State::kIdle: return "idle";
    case State::kLaunching: return "launching";
    case State::kHandshaking: return "handshaking";
    case State::kRunning: return "running";
    case State::kBackoff: return "backoff";
    case State::kStopping: return "stopping";
    case State::kTerminating: return "terminating";
    case State::kStopped: return "stopped";
    case State::kDisabled: return "disabled";
  }
  return "";
}

std::string_view to_string(StopCause cause) {
  switch (cause) {
    case StopCause::kLaunchFailed: return "launch_failed";
    case StopCause::kHandshakeFailed: return "handshake_failed";
    case StopCause::kHandshakeTimeout: return "handshake_timeout";
    case StopCause::kHandshakeRejected: return "handshake_rejected";
    case StopCause::kCrashed: return "crashed";
    case StopCause::kUnhealthy: return "unhealthy";
    case StopCause::kMalformedFrame: return "malformed_frame";
    case StopCause::kOversizedFrame: return "oversized_frame";
    case StopCause::kOutputCap: return "output_cap";
    case StopCause::kExitTimeout: return "exit_timeout";
    case StopCause::kRequested: return "requested";
  }
  return "";
}

std::string ExitStatus::describe() const {
  if (!signaled) return "exit code " + std::to_string(code);
  const char* name = ::strsignal(code);
  return "signal " + std::to_string(code) + (name ? std::string(" (") + name + ")" : "");
}

Supervisor::Supervisor(Policy policy) : policy_(std::move(policy)) {}

int Supervisor::restarts_in_window(TimePoint now) const {
  return static_cast<int>(std::count_if(restarts_.begin(), restarts_.end(), [&](TimePoint t) {
    return !policy_.restart_window || now - t < *policy_.restart_window;
  }));
}

void Supervisor::prune(TimePoint now) {
  if (!policy_.restart_window) return;  // no window: every restart counts
  while (!restarts_.empty() && now - restarts_.front() >= *policy_.restart_window) {
    restarts_.pop_front();
  }
}

std::vector<Action> Supervisor::start(TimePoint now) {
  if (state_ != State::kIdle && state_ != State::kStopped && state_ != State::kDisabled) return {};
  stop_requested_ = false;
  disable_requested_ = false;
  restarts_.clear();  // an explicit start (or re-enable) begins a fresh window
  return launch(now);
}

std::vector<Action> Supervisor::launch(TimePoint) {
  state_ = State::kLaunching;
  deadline_.reset();
  pending_failure_.reset();
  check_outstanding_ = false;
  missed_checks_ = 0;
  return {act(Kind::kSpawn)};
}

std::vector<Action> Supervisor::spawned(TimePoint now) {
  if (state_ != State::kLaunching) return {};
  process_alive_ = true;
  if (stop_requested_) return fail(now, StopCause::kRequested, "stopped while starting");
  if (disable_requested_) return fail(now, StopCause::kRequested, "disabled while starting");
  state_ = State::kHandshaking;
  deadline_.reset();
  if (policy_.handshake_timeout) deadline_ = now + *policy_.handshake_timeout;
  return {act(Kind::kSendHandshake)};
}

std::vector<Action> Supervisor::launch_failed(TimePoint now, std::string detail) {
  if (state_ != State::kLaunching) return {};
  process_alive_ = false;
  std::vector<Action> out = {stopped(StopCause::kLaunchFailed, detail)};
  auto rest = after_exit(now, StopCause::kLaunchFailed, std::move(detail));
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

std::vector<Action> Supervisor::handshake_ok(TimePoint now) {
  if (state_ != State::kHandshaking) return {};
  state_ = State::kRunning;
  deadline_.reset();
  if (policy_.health_check_interval) deadline_ = now + *policy_.health_check_interval;
  return {act(Kind::kSendHandshakeDone), act(Kind::kRunning)};
}

std::vector<Action> Supervisor::handshake_failed(TimePoint now, std::string detail,
                                                 bool permanent) {
  if (state_ != State::kHandshaking) return {};
  const StopCause cause = permanent ? StopCause::kHandshakeRejected : StopCause::kHandshakeFailed;
  if (policy_.handshake_failure_stops) {
    pending_failure_ = {cause, detail};
    std::vector<Action> out = {stopped(cause, std::move(detail))};
    auto rest = begin_stop(now, /*after_failure=*/true);
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
  }
  if (!policy_.handshake_failure_exit_wait) return fail(now, cause, std::move(detail));
  // Given the time to exit on its own; killed when it runs out (tick).
  state_ = State::kTerminating;
  pending_failure_ = {cause, detail};
  deadline_ = now + *policy_.handshake_failure_exit_wait;
  return {stopped(cause, std::move(detail))};
}

std::vector<Action> Supervisor::health_check_answered(TimePoint) {
  if (state_ != State::kRunning) return {};
  check_outstanding_ = false;
  missed_checks_ = 0;
  return {};
}

std::vector<Action> Supervisor::frame_error(TimePoint now, bool oversize, std::string detail) {
  if (!process_alive_ || state_ == State::kTerminating) return {};
  return fail(now, oversize ? StopCause::kOversizedFrame : StopCause::kMalformedFrame,
              std::move(detail));
}

std::vector<Action> Supervisor::output_capped(TimePoint now, std::string detail) {
  if (!process_alive_ || state_ == State::kTerminating) return {};
  return fail(now, StopCause::kOutputCap, std::move(detail));
}

// A failure while the process lives: report it, kill, and decide once it has exited.
std::vector<Action> Supervisor::fail(TimePoint, StopCause cause, std::string detail) {
  state_ = State::kTerminating;
  deadline_.reset();
  failure_stop_ = false;
  pending_failure_ = {cause, detail};
  std::vector<Action> out;
  if (cause != StopCause::kRequested) out.push_back(stopped(cause, std::move(detail)));
  out.push_back(act(Kind::kKill));
  return out;
}

std::vector<Action> Supervisor::exited(TimePoint now, ExitStatus status) {
  if (!process_alive_) return {};
  process_alive_ = false;
  switch (state_) {
    case State::kTerminating: {
      auto [cause, detail] = pending_failure_.value_or(std::pair{StopCause::kCrashed, std::string()});
      if (cause == StopCause::kRequested || cause == StopCause::kExitTimeout) {
        state_ = disable_requested_ ? State::kDisabled : State::kStopped;
        deadline_.reset();
        if (disable_requested_) {
          return {Action{Kind::kDisabled, StopCause::kRequested, detail, Duration{0}}};
        }
        // exit_timeout was reported when a wait of the stop sequence ran out.
        if (cause == StopCause::kRequested) return {stopped(cause, status.describe())};
        return {};
      }
      return after_exit(now, cause, std::move(detail));
    }
    case State::kStopping:
      if (failure_stop_) {  // stopped after a refused handshake: restarted or disabled
        failure_stop_ = false;
        auto [cause, detail] = *pending_failure_;
        return after_exit(now, cause, std::move(detail));
      }
      state_ = State::kStopped;
      deadline_.reset();
      // exit_timeout was reported when a wait ran out; a clean stop is reported now.
      if (waited_out_) return {};
      return {stopped(StopCause::kRequested, status.describe())};
    default: {  // it ended on its own
      std::string detail = status.describe();
      std::vector<Action> out = {stopped(StopCause::kCrashed, detail)};
      auto rest = after_exit(now, StopCause::kCrashed, std::move(detail));
      out.insert(out.end(), rest.begin(), rest.end());
      return out;
    }
  }
}

// The process is gone after a failure: restart with backoff, or give up.
std::vector<Action> Supervisor::after_exit(TimePoint now, StopCause cause, std::string detail) {
  deadline_.reset();
  if (stop_requested_) {
    state_ = State::kStopped;
    return {};
  }
  if (cause == StopCause::kHandshakeRejected || disable_requested_) {
    state_ = State::kDisabled;
    return {Action{Kind::kDisabled, cause, std::move(detail), Duration{0}}};
  }
  if (policy_.max_restarts_in_window <= 0) {
    state_ = State::kStopped;  // the protocol restarts nothing: it stays down
    return {};
  }
  prune(now);
  if (static_cast<int>(restarts_.size()) >= policy_.max_restarts_in_window) {
    state_ = State::kDisabled;
    std::string within =
        policy_.restart_window ? " within " + std::to_string(policy_.restart_window->count() / 1000) + " s"
                               : "";
    return {Action{Kind::kDisabled, cause,
                   "more than " + std::to_string(policy_.max_restarts_in_window) + " restarts" +
                       within + "; last failure: " + std::string(to_string(cause)) +
                       (detail.empty() ? "" : " (" + detail + ")"),
                   Duration{0}}};
  }
  Duration delay{0};
  if (!policy_.restart_backoff.empty()) {
    std::size_t step = std::min(restarts_.size(), policy_.restart_backoff.size() - 1);
    delay = policy_.restart_backoff[step];
  }
  restarts_.push_back(now);
  state_ = State::kBackoff;
  deadline_ = now + delay;
  return {Action{Kind::kRestartScheduled, cause, std::move(detail), delay}};
}

std::vector<Action> Supervisor::stop(TimePoint now) {
  stop_requested_ = true;
  switch (state_) {
    case State::kRunning:
      return begin_stop(now, /*after_failure=*/false);
    case State::kHandshaking:
      return fail(now, StopCause::kRequested, "stopped during the handshake");
    case State::kBackoff:
      state_ = State::kStopped;
      deadline_.reset();
      return {stopped(StopCause::kRequested, "pending restart cancelled")};
    case State::kIdle:
      state_ = State::kStopped;
      return {};
    default:  // launching (handled at spawned), terminating, stopping, stopped, disabled
      return {};
  }
}

std::vector<Action> Supervisor::disable(TimePoint now, std::string detail) {
  disable_requested_ = true;
  switch (state_) {
    case State::kLaunching:  // acted on once spawned() or launch_failed() comes
      return {};
    case State::kHandshaking:
    case State::kRunning:
    case State::kStopping:
      return fail(now, StopCause::kRequested, std::move(detail));
    case State::kTerminating:
      return {};  // disabled once it has exited
    default:
      state_ = State::kDisabled;
      deadline_.reset();
      return {Action{Kind::kDisabled, StopCause::kRequested, std::move(detail), Duration{0}}};
  }
}

std::vector<Action> Supervisor::begin_stop(TimePoint now, bool after_failure) {
  state_ = State::kStopping;
  step_ = 0;
  waited_out_ = false;
  failure_stop_ = after_failure;
  return run_stop(now);  // which resets the deadline first
}

std::vector<Action> Supervisor::run_stop(TimePoint now) {
  std::vector<Action> out;
  deadline_.reset();
  // The last resort: killed, and stopped once it has exited (as exit_timeout when a wait of
  // the sequence ran out first, reported then).
  auto kill = [&] {
    state_ = State::kTerminating;
    // After a refused handshake the failure stays the reason (acted on at the exit).
    if (!failure_stop_) {
      pending_failure_ = {waited_out_ ? StopCause::kExitTimeout : StopCause::kRequested, ""};
    }
    failure_stop_ = false;
    out.push_back(act(Kind::kKill));
  };
  if (policy_.stop.empty()) {
    kill();
    return out;
  }
  while (step_ < policy_.stop.size()) {
    const StopStep& step = policy_.stop[step_++];
    // After a refused handshake there is no session to end: no shutdown, no exit.
    if (failure_stop_ &&
        (step.kind == StopStep::Kind::kShutdown || step.kind == StopStep::Kind::kExit)) {
      continue;
    }
    switch (step.kind) {
      case StopStep::Kind::kShutdown:
        out.push_back(act(Kind::kSendShutdown));
        if (policy_.shutdown_timeout) deadline_ = now + *policy_.shutdown_timeout;
        --step_;  // stays here until shutdown_done() or the deadline
        return out;
      case StopStep::Kind::kExit: out.push_back(act(Kind::kSendExit)); break;
      case StopStep::Kind::kCloseStdin: out.push_back(act(Kind::kCloseStdin)); break;
      case StopStep::Kind::kSigterm: out.push_back(act(Kind::kTerminate)); break;
      case StopStep::Kind::kKill: kill(); return out;
      case StopStep::Kind::kWait:
        deadline_ = now + step.wait;
        return out;
    }
  }
  return out;  // a sequence without a kill: the process ends by itself, or never
}

std::vector<Action> Supervisor::shutdown_done(TimePoint now) {
  if (state_ != State::kStopping || step_ >= policy_.stop.size() ||
      policy_.stop[step_].kind != StopStep::Kind::kShutdown) {
    return {};
  }
  ++step_;
  return run_stop(now);
}

std::vector<Action> Supervisor::tick(TimePoint now) {
  if (!deadline_ || now < *deadline_) return {};
  switch (state_) {
    case State::kHandshaking:
      return fail(now, StopCause::kHandshakeTimeout,
                  "no answer to the handshake within " + ms(*policy_.handshake_timeout));
    case State::kRunning:
      if (check_outstanding_ && ++missed_checks_ >= policy_.health_check_misses) {
        return fail(now, StopCause::kUnhealthy,
                    std::to_string(missed_checks_) + " health checks in a row unanswered");
      }
      check_outstanding_ = true;
      deadline_ = now + *policy_.health_check_interval;
      return {act(Kind::kSendHealthCheck)};
    case State::kBackoff:
      return launch(now);
    case State::kTerminating:  // a refused handshake's exit wait ran out
      deadline_.reset();
      return {act(Kind::kKill)};
    case State::kStopping: {
      const StopStep& step = policy_.stop[step_ > 0 ? step_ - 1 : 0];
      if (!failure_stop_ && step_ < policy_.stop.size() &&
          policy_.stop[step_].kind == StopStep::Kind::kShutdown) {
        return shutdown_done(now);  // no answer to shutdown: on with the sequence
      }
      // A wait ran out: the process did not exit in time (after a refused handshake, the
      // refusal was the report).
      std::vector<Action> out;
      if (!waited_out_ && !failure_stop_) {
        waited_out_ = true;
        std::string after = step_ >= 2 ? std::string(step_name(policy_.stop[step_ - 2].kind))
                                       : std::string("the stop began");
        std::string next = step_ < policy_.stop.size()
                               ? std::string(step_name(policy_.stop[step_].kind))
                               : std::string("left running");
        out.push_back(stopped(StopCause::kExitTimeout,
                              "still running " + ms(step.wait) + " after " + after + ": " + next));
      }
      auto rest = run_stop(now);
      out.insert(out.end(), rest.begin(), rest.end());
      return out;
    }
    default:
      deadline_.reset();
      return {};
  }
}

}  // namespace rpckit::supervision
