#pragma once
// Supervisor: a plugin's lifecycle policy as a pure state machine. It does no I/O and reads
// no clock: the driver feeds it what happened (with the time), executes the actions it
// returns, and calls tick() at next_deadline(). Tests drive it with fake time.
//
//   idle --start--> launching --spawned--> handshaking --handshake_ok--> running
//     running: a health check every health_check_interval; health_check_misses unanswered in
//              a row -> unhealthy
//     any failure -> the process is killed; then backoff (restart_backoff by restarts in the
//                 window) -> launching, or disabled when it would be restart number
//                 max_restarts_in_window + 1 within restart_window, or on a rejected handshake
//     stop(): running -> stopping: the profile's stop sequence, step by step (shutdown and its
//             answer, exit, close stdin, SIGTERM, waits for the exit, a kill) until the process
//             has exited -> stopped; a pending restart is cancelled.
//     a refused handshake: killed, or given handshake_failure_exit_wait to exit on its own, or
//             (handshake_failure_stops) stopping by the sequence's steps that send nothing;
//             then restarted or disabled as after any failure.
//
// Every timer is the profile's (rpckit::roles::lifecycle_policy): a timer it does not set is
// none here, never another protocol's value.
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rpckit/descriptors/profile.hpp"

namespace rpckit::supervision {

using Clock = std::chrono::steady_clock;
using TimePoint = Clock::time_point;
using Duration = std::chrono::milliseconds;

struct Policy {
  std::optional<Duration> handshake_timeout;      // none: the handshake may take any time
  // After a refused handshake, how long the process may take to exit on its own before it is
  // killed (nothing is sent to it); none: killed at once.
  std::optional<Duration> handshake_failure_exit_wait;
  // After a refused handshake, the stop sequence instead, its steps that send nothing of the
  // protocol (close stdin, SIGTERM, the waits, the kill); then restarted or disabled as any
  // failure is.
  bool handshake_failure_stops = false;
  std::optional<Duration> health_check_interval;  // none: no health checks
  int health_check_misses = 0;                    // unanswered checks in a row: unhealthy
  std::vector<Duration> restart_backoff;          // the delay before restart 1, 2, ... (last repeats)
  std::optional<Duration> restart_window;         // in which restarts are counted
  int max_restarts_in_window = 0;                 // 0: a lost process is never restarted
  std::optional<Duration> shutdown_timeout;       // waiting for shutdown's answer; none: until exit
  std::vector<StopStep> stop;                     // the stop sequence; empty: a kill

  // Every duration multiplied by `factor` (demos and tests run the same policy faster).
  Policy scaled(double factor) const;
};

enum class State {
  kIdle,
  kLaunching,    // spawn requested
  kHandshaking,  // process up, the handshake sent
  kRunning,      // handshake done; health checks flow
  kBackoff,      // waiting to restart after a failure
  kStopping,     // the stop sequence runs, until the process has exited
  kTerminating,  // killed after a failure (or a stop mid-start), waiting for it to end
  kStopped,      // stopped on request, or lost and not restarted
  kDisabled,     // gave up: too many restarts, or a handshake rejected for good
};

enum class StopCause {
  kLaunchFailed,
  kHandshakeFailed,    // refused (it is restarted)
  kHandshakeTimeout,
  kHandshakeRejected,  // refused for good (e.g. a protocol version mismatch): disabled
  kCrashed,            // the process ended on its own (exit status or signal in the detail)
  kUnhealthy,          // health checks unanswered
  kMalformedFrame,
  kOversizedFrame,
  kOutputCap,          // wrote more than the profile's output cap
  kExitTimeout,        // did not exit within a wait of the stop sequence: signalled or killed
  kRequested,          // stopped on request, cleanly
};

std::string_view to_string(State state);
std::string_view to_string(StopCause cause);  // "launch_failed", "crashed", ...

struct Action {
  enum class Kind {
    kSpawn,              // start the process
    kSendHandshake,      // the driver reports handshake_ok/failed
    kSendHandshakeDone,  // the handshake-done notification, if the protocol has one
    kSendHealthCheck,    // the driver reports the answer; a miss is the supervisor's call
    kSendShutdown,       // the driver reports shutdown_done (answered, failed or timed out)
    kSendExit,           // the exit notification
    kCloseStdin,
    kTerminate,          // SIGTERM
    kKill,               // SIGKILL; the driver still reports the exit
    kStopped,            // a stop happened: `cause`, `detail`
    kRestartScheduled,   // `delay` until the next launch
    kDisabled,           // no more restarts: `cause`, `detail`
    kRunning,            // handshake complete, events may flow
  };
  Kind kind;
  StopCause cause = StopCause::kRequested;
  std::string detail;
  Duration delay{0};
};

struct ExitStatus {
  bool signaled = false;
  int code = 0;  // exit code, or the signal number when signaled
  std::string describe() const;  // "exit code 3" / "signal 9 (Killed)"
};

class Supervisor {
 public:
  explicit Supervisor(Policy policy);

  std::vector<Action> start(TimePoint now);
  std::vector<Action> spawned(TimePoint now);
  std::vector<Action> launch_failed(TimePoint now, std::string detail);
  std::vector<Action> handshake_ok(TimePoint now);
  // `permanent`: the peer refused for good (disable, never restart).
  std::vector<Action> handshake_failed(TimePoint now, std::string detail, bool permanent);
  std::vector<Action> health_check_answered(TimePoint now);
  std::vector<Action> frame_error(TimePoint now, bool oversize, std::string detail);
  std::vector<Action> output_capped(TimePoint now, std::string detail);
  std::vector<Action> exited(TimePoint now, ExitStatus status);
  std::vector<Action> stop(TimePoint now);
  // Gives up on the plugin now (a failure the application counts, e.g. failed initializations
  // in a window): it is killed if it runs, and disabled until start() again.
  std::vector<Action> disable(TimePoint now, std::string detail);
  std::vector<Action> shutdown_done(TimePoint now);
  // Fires whatever deadline has passed.
  std::vector<Action> tick(TimePoint now);

  std::optional<TimePoint> next_deadline() const { return deadline_; }
  State state() const { return state_; }
  int restarts_in_window(TimePoint now) const;
  int missed_health_checks() const { return missed_checks_; }

 private:
  std::vector<Action> fail(TimePoint now, StopCause cause, std::string detail);
  std::vector<Action> after_exit(TimePoint now, StopCause cause, std::string detail);
  std::vector<Action> launch(TimePoint now);
  // Enters the stop sequence at its first step (`after_failure`: a refused handshake's, whose
  // protocol steps are skipped and whose exit is the failure's), and runs it.
  std::vector<Action> begin_stop(TimePoint now, bool after_failure);
  // Runs the stop sequence from step_ until a step waits (or the sequence ends).
  std::vector<Action> run_stop(TimePoint now);
  void prune(TimePoint now);

  Policy policy_;
  State state_ = State::kIdle;
  std::optional<TimePoint> deadline_;
  bool process_alive_ = false;
  bool check_outstanding_ = false;
  int missed_checks_ = 0;
  std::size_t step_ = 0;  // the stop sequence's next step
  bool waited_out_ = false;  // a wait of the stop sequence ran out (reported as exit_timeout)
  // The stop sequence runs after a refused handshake (pending_failure_ says why): its protocol
  // steps are skipped, and the exit is a failure's.
  bool failure_stop_ = false;
  // Why the process is being terminated; acted on (restart, disable, stop) once it exits.
  std::optional<std::pair<StopCause, std::string>> pending_failure_;
  bool stop_requested_ = false;  // no restart after the current process ends
  bool disable_requested_ = false;
  std::deque<TimePoint> restarts_;  // restart times inside the window
};

}  // namespace rpckit::supervision
