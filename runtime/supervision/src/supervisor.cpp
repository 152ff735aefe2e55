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

}  // namespace

Policy Policy::scaled(double factor) const {
  // Rounded, not truncated: 5000 ms * 0.57 is 2849.9999999999995 in double arithmetic.
  // Never below 1 ms: a 0 ms ping interval would make a driver spin on its own deadline.
  auto scale = [factor](Duration d) {
    auto ms = static_cast<Duration::rep>(std::llround(static_cast<double>(d.count()) * factor));
    return Duration{d.count() > 0 ? std::max<Duration::rep>(ms, 1) : ms};
  };
  Policy p = *this;
  p.handshake_timeout = scale(handshake_timeout);
  p.ping_interval = scale(ping_interval);
  for (auto& b : p.restart_backoff) b = scale(b);
  p.restart_window = scale(restart_window);
  p.shutdown_timeout = scale(shutdown_timeout);
  p.exit_grace = scale(exit_grace);
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
    case State::kExiting: return "exiting";
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
    case StopCause::kCrashed: return "crashed";
    case StopCause::kUnhealthy: return "unhealthy";
    case StopCause::kMalformedFrame: return "malformed_frame";
    case StopCause::kOversizedFrame: return "oversized_frame";
    case StopCause::kProtocolVersionMismatch: return "protocol_version_mismatch";
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
    return now - t < policy_.restart_window;
  }));
}

void Supervisor::prune(TimePoint now) {
  while (!restarts_.empty() && now - restarts_.front() >= policy_.restart_window) {
    restarts_.pop_front();
  }
}

std::vector<Action> Supervisor::start(TimePoint now) {
  if (state_ != State::kIdle && state_ != State::kStopped && state_ != State::kDisabled) return {};
  stop_requested_ = false;
  restarts_.clear();  // an explicit start (or re-enable) begins a fresh window
  return launch(now);
}

std::vector<Action> Supervisor::launch(TimePoint) {
  state_ = State::kLaunching;
  deadline_.reset();
  pending_failure_.reset();
  ping_outstanding_ = false;
  missed_pings_ = 0;
  return {act(Kind::kSpawn)};
}

std::vector<Action> Supervisor::spawned(TimePoint now) {
  if (state_ != State::kLaunching) return {};
  process_alive_ = true;
  if (stop_requested_) return fail(now, StopCause::kRequested, "stopped while starting");
  state_ = State::kHandshaking;
  deadline_ = now + policy_.handshake_timeout;
  return {act(Kind::kSendInitialize)};
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
  deadline_ = now + policy_.ping_interval;
  return {act(Kind::kSendInitialized), act(Kind::kRunning)};
}

std::vector<Action> Supervisor::handshake_failed(TimePoint now, std::string detail,
                                                 bool mismatch) {
  if (state_ != State::kHandshaking) return {};
  return fail(now, mismatch ? StopCause::kProtocolVersionMismatch : StopCause::kHandshakeFailed,
              std::move(detail));
}

std::vector<Action> Supervisor::pong(TimePoint) {
  if (state_ != State::kRunning) return {};
  ping_outstanding_ = false;
  missed_pings_ = 0;
  return {};
}

std::vector<Action> Supervisor::frame_error(TimePoint now, bool oversize, std::string detail) {
  if (!process_alive_ || state_ == State::kTerminating) return {};
  return fail(now, oversize ? StopCause::kOversizedFrame : StopCause::kMalformedFrame,
              std::move(detail));
}

// A failure while the process lives: report it, kill, and decide once it has exited.
std::vector<Action> Supervisor::fail(TimePoint, StopCause cause, std::string detail) {
  state_ = State::kTerminating;
  deadline_.reset();
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
        state_ = State::kStopped;
        deadline_.reset();
        // exit_timeout was reported when the kill was decided; a plain stop is reported now.
        if (cause == StopCause::kRequested) return {stopped(cause, status.describe())};
        return {};
      }
      return after_exit(now, cause, std::move(detail));
    }
    case State::kStopping:
    case State::kExiting:
      state_ = State::kStopped;
      deadline_.reset();
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
  if (cause == StopCause::kProtocolVersionMismatch) {
    state_ = State::kDisabled;
    return {Action{Kind::kDisabled, cause, std::move(detail), Duration{0}}};
  }
  prune(now);
  if (static_cast<int>(restarts_.size()) >= policy_.max_restarts_in_window) {
    state_ = State::kDisabled;
    return {Action{Kind::kDisabled, cause,
                   "more than " + std::to_string(policy_.max_restarts_in_window) +
                       " restarts within " +
                       std::to_string(policy_.restart_window.count() / 1000) +
                       " s; last failure: " + std::string(to_string(cause)) +
                       (detail.empty() ? "" : " (" + detail + ")"),
                   Duration{0}}};
  }
  std::size_t step = std::min(restarts_.size(), policy_.restart_backoff.size() - 1);
  Duration delay = policy_.restart_backoff[step];
  restarts_.push_back(now);
  state_ = State::kBackoff;
  deadline_ = now + delay;
  return {Action{Kind::kRestartScheduled, cause, std::move(detail), delay}};
}

std::vector<Action> Supervisor::stop(TimePoint now) {
  stop_requested_ = true;
  switch (state_) {
    case State::kRunning:
      state_ = State::kStopping;
      deadline_ = now + policy_.shutdown_timeout;
      return {act(Kind::kSendShutdown)};
    case State::kHandshaking:
      return fail(now, StopCause::kRequested, "stopped during the handshake");
    case State::kBackoff:
      state_ = State::kStopped;
      deadline_.reset();
      return {stopped(StopCause::kRequested, "pending restart cancelled")};
    case State::kIdle:
      state_ = State::kStopped;
      return {};
    default:  // launching (handled at spawned), terminating, stopping, exiting, stopped
      return {};
  }
}

std::vector<Action> Supervisor::shutdown_done(TimePoint now) {
  if (state_ != State::kStopping) return {};
  state_ = State::kExiting;
  deadline_ = now + policy_.exit_grace;
  return {act(Kind::kSendExit)};
}

std::vector<Action> Supervisor::tick(TimePoint now) {
  if (!deadline_ || now < *deadline_) return {};
  switch (state_) {
    case State::kHandshaking:
      return fail(now, StopCause::kHandshakeTimeout,
                  "no answer to initialize within " +
                      std::to_string(policy_.handshake_timeout.count()) + " ms");
    case State::kRunning:
      if (ping_outstanding_ && ++missed_pings_ >= policy_.ping_max_misses) {
        return fail(now, StopCause::kUnhealthy,
                    std::to_string(missed_pings_) + " pings in a row unanswered");
      }
      ping_outstanding_ = true;
      deadline_ = now + policy_.ping_interval;
      return {act(Kind::kSendPing)};
    case State::kBackoff:
      return launch(now);
    case State::kStopping:  // no answer to shutdown: send exit anyway
      return shutdown_done(now);
    case State::kExiting: {
      std::string detail = "still running " + std::to_string(policy_.exit_grace.count()) +
                           " ms after exit: killed";
      auto out = fail(now, StopCause::kExitTimeout, detail);
      return out;
    }
    default:
      deadline_.reset();
      return {};
  }
}

}  // namespace rpckit::supervision
