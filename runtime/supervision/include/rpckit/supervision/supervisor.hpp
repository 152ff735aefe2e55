#pragma once
// Supervisor: a plugin's lifecycle policy as a pure state machine. It does no I/O and reads
// no clock: the driver feeds it what happened (with the time), executes the actions it
// returns, and calls tick() at next_deadline(). Tests drive it with fake time.
//
//   idle --start--> launching --spawned--> handshaking --handshake_ok--> running
//     running: ping every ping_interval; ping_max_misses misses in a row -> unhealthy
//     any failure -> backoff (1 s, 5 s, 25 s by restarts in the window) -> launching
//                 -> disabled when it would be restart number max_restarts_in_window + 1
//                    within restart_window, or on protocol_version_mismatch
//     stop(): running -> stopping (shutdown sent) -> exiting (exit sent) -> stopped,
//             killed after exit_grace (exit_timeout); a pending restart is cancelled.
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rpckit::supervision {

using Clock = std::chrono::steady_clock;
using TimePoint = Clock::time_point;
using Duration = std::chrono::milliseconds;

struct Policy {
  Duration handshake_timeout{10000};
  Duration ping_interval{30000};
  int ping_max_misses = 3;
  std::vector<Duration> restart_backoff{Duration{1000}, Duration{5000}, Duration{25000}};
  Duration restart_window{600000};
  int max_restarts_in_window = 3;
  Duration shutdown_timeout{30000};  // waiting for the answer to `shutdown`
  Duration exit_grace{5000};

  // Every duration multiplied by `factor` (demos and tests run the same policy faster).
  Policy scaled(double factor) const;
};

enum class State {
  kIdle,
  kLaunching,    // spawn requested
  kHandshaking,  // process up, initialize sent
  kRunning,      // initialized sent; pings flow
  kBackoff,      // waiting to restart after a failure
  kStopping,     // shutdown sent, waiting for its answer
  kExiting,      // exit sent, waiting for the process to end
  kTerminating,  // killed after a failure (or a stop mid-start), waiting for it to end
  kStopped,      // stopped on request
  kDisabled,     // gave up: crash loop or protocol version mismatch
};

enum class StopCause {
  kLaunchFailed,
  kHandshakeFailed,
  kHandshakeTimeout,
  kCrashed,  // the process ended on its own (exit status or signal in the detail)
  kUnhealthy,  // missed pings
  kMalformedFrame,
  kOversizedFrame,
  kProtocolVersionMismatch,
  kExitTimeout,  // did not exit within the grace period after `exit`: killed
  kRequested,    // stopped on request, cleanly
};

std::string_view to_string(State state);
std::string_view to_string(StopCause cause);  // "launch_failed", "crashed", ...

struct Action {
  enum class Kind {
    kSpawn,          // start the process
    kSendInitialize, // the handshake request (the driver reports handshake_ok/failed)
    kSendInitialized,
    kSendPing,       // the driver reports pong, or nothing (a miss is the supervisor's call)
    kSendShutdown,   // the driver reports shutdown_done (answered, failed or timed out)
    kSendExit,
    kKill,           // SIGKILL; the driver still reports the exit
    kStopped,        // a stop happened: `cause`, `detail`
    kRestartScheduled,  // `delay` until the next launch
    kDisabled,       // no more restarts: `cause`, `detail`
    kRunning,        // handshake complete, events may flow
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
  // `mismatch` = the plugin answered protocol_version_mismatch (disable, never restart).
  std::vector<Action> handshake_failed(TimePoint now, std::string detail, bool mismatch);
  std::vector<Action> pong(TimePoint now);
  std::vector<Action> frame_error(TimePoint now, bool oversize, std::string detail);
  std::vector<Action> exited(TimePoint now, ExitStatus status);
  std::vector<Action> stop(TimePoint now);
  std::vector<Action> shutdown_done(TimePoint now);
  // Fires whatever deadline has passed.
  std::vector<Action> tick(TimePoint now);

  std::optional<TimePoint> next_deadline() const { return deadline_; }
  State state() const { return state_; }
  int restarts_in_window(TimePoint now) const;
  int missed_pings() const { return missed_pings_; }

 private:
  std::vector<Action> fail(TimePoint now, StopCause cause, std::string detail);
  std::vector<Action> after_exit(TimePoint now, StopCause cause, std::string detail);
  std::vector<Action> launch(TimePoint now);
  void prune(TimePoint now);

  Policy policy_;
  State state_ = State::kIdle;
  std::optional<TimePoint> deadline_;
  bool process_alive_ = false;
  bool ping_outstanding_ = false;
  int missed_pings_ = 0;
  // Why the process is being terminated; acted on (restart, disable, stop) once it exits.
  std::optional<std::pair<StopCause, std::string>> pending_failure_;
  bool stop_requested_ = false;  // no restart after the current process ends
  std::deque<TimePoint> restarts_;  // restart times inside the window
};

}  // namespace rpckit::supervision
