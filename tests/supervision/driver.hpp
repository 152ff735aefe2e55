#pragma once
// Fake-time harness for rpckit::supervision::Supervisor.
//
// FakeDriver owns a Supervisor and a TimePoint that only moves when a test moves it. Events are
// fed at the current fake time; fire()/run_until() advance time to next_deadline() and tick,
// exactly as the real driver does, collecting the actions. Actions are compared as short
// strings ("spawn", "stopped(crashed)", "restart(1000ms)", ...) so failures read like a log.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "rpckit/supervision/supervisor.hpp"

namespace rpckit::supervision {
// Readable gtest output for actions and states.
inline std::string_view kind_name(Action::Kind kind) {
  switch (kind) {
    case Action::Kind::kSpawn:
      return "spawn";
    case Action::Kind::kSendHandshake:
      return "handshake";
    case Action::Kind::kSendHandshakeDone:
      return "handshake_done";
    case Action::Kind::kSendHealthCheck:
      return "health_check";
    case Action::Kind::kSendShutdown:
      return "shutdown";
    case Action::Kind::kSendExit:
      return "exit";
    case Action::Kind::kCloseStdin:
      return "close_stdin";
    case Action::Kind::kTerminate:
      return "sigterm";
    case Action::Kind::kKill:
      return "kill";
    case Action::Kind::kStopped:
      return "stopped";
    case Action::Kind::kRestartScheduled:
      return "restart";
    case Action::Kind::kDisabled:
      return "disabled";
    case Action::Kind::kRunning:
      return "running";
  }
  return "?";
}

// "stopped(crashed)", "disabled(handshake_rejected)", "restart(1000ms)", "spawn".
inline std::string brief(const Action& a) {
  std::string out(kind_name(a.kind));
  switch (a.kind) {
    case Action::Kind::kStopped:
    case Action::Kind::kDisabled:
      out += "(" + std::string(to_string(a.cause)) + ")";
      break;
    case Action::Kind::kRestartScheduled:
      out += "(" + std::to_string(a.delay.count()) + "ms)";
      break;
    default:
      break;
  }
  return out;
}

inline void PrintTo(const Action& a, std::ostream* os) {
  *os << brief(a);
  if (!a.detail.empty()) *os << " \"" << a.detail << "\"";
}
inline void PrintTo(State s, std::ostream* os) { *os << to_string(s); }
inline void PrintTo(StopCause c, std::ostream* os) { *os << to_string(c); }
}  // namespace rpckit::supervision

namespace rpckit::supervision::testing {

using namespace std::chrono_literals;
using Actions = std::vector<Action>;

inline std::vector<std::string> briefs(const Actions& actions) {
  std::vector<std::string> out;
  out.reserve(actions.size());
  for (const auto& a : actions) out.push_back(brief(a));
  return out;
}

inline std::string restart(Duration delay) {
  return "restart(" + std::to_string(delay.count()) + "ms)";
}
inline std::string stopped(StopCause cause) {
  return "stopped(" + std::string(to_string(cause)) + ")";
}
inline std::string disabled(StopCause cause) {
  return "disabled(" + std::string(to_string(cause)) + ")";
}

inline ExitStatus exit_code(int code) { return ExitStatus{false, code}; }
inline ExitStatus killed_by(int signal) { return ExitStatus{true, signal}; }

// StreamNook's values (spec section 2), the example protocol of these tests, scaled like
// Policy::scaled.
struct SpecTimes {
  double factor = 1.0;
  Duration scale(Duration d) const {
    return Duration{
        static_cast<Duration::rep>(std::llround(static_cast<double>(d.count()) * factor))};
  }
  Duration handshake() const { return scale(10s); }
  Duration ping() const { return scale(30s); }
  Duration backoff(std::size_t i) const {
    const Duration steps[] = {1s, 5s, 25s};
    return scale(steps[i]);
  }
  Duration window() const { return scale(10min); }
  Duration exit_grace() const { return scale(5s); }
  // Not in the spec: the policy's own bound on waiting for the answer to `shutdown`.
  Duration shutdown() const { return scale(30s); }
};

// StreamNook's lifecycle as its profile states it (built here from the spec's numbers, not
// from the generated profile, so the two are checked against each other elsewhere).
inline Policy spec_policy() {
  Policy p;
  p.handshake_timeout = 10s;
  p.health_check_interval = 30s;
  p.health_check_misses = 3;
  p.restart_backoff = {1s, 5s, 25s};
  p.restart_window = 10min;
  p.max_restarts_in_window = 3;
  p.shutdown_timeout = 30s;
  p.stop = {StopStep{StopStep::Kind::kShutdown}, StopStep{StopStep::Kind::kExit},
            StopStep{StopStep::Kind::kWait, 5s}, StopStep{StopStep::Kind::kKill}};
  return p;
}

class FakeDriver {
 public:
  explicit FakeDriver(Policy policy) : sup_(std::move(policy)) {}

  Supervisor& sup() { return sup_; }
  const Supervisor& sup() const { return sup_; }
  TimePoint now() const { return now_; }
  State state() const { return sup_.state(); }
  std::optional<Duration> until_deadline() const {
    auto d = sup_.next_deadline();
    if (!d) return std::nullopt;
    return std::chrono::duration_cast<Duration>(*d - now_);
  }

  // Moves fake time without ticking (an event that happens "later").
  void advance(Duration d) { now_ += d; }
  void advance_to(TimePoint t) { now_ = t; }

  // Events, at the current fake time.
  Actions start() { return sup_.start(now_); }
  Actions spawned() { return sup_.spawned(now_); }
  Actions launch_failed(std::string detail = "execve: No such file or directory") {
    return sup_.launch_failed(now_, std::move(detail));
  }
  Actions handshake_ok() { return sup_.handshake_ok(now_); }
  Actions handshake_failed(std::string detail, bool permanent) {
    return sup_.handshake_failed(now_, std::move(detail), permanent);
  }
  Actions check_answered() { return sup_.health_check_answered(now_); }
  Actions frame_error(bool oversize, std::string detail = "bad frame") {
    return sup_.frame_error(now_, oversize, std::move(detail));
  }
  Actions exited(ExitStatus status = ExitStatus{true, 9}) { return sup_.exited(now_, status); }
  Actions stop() { return sup_.stop(now_); }
  Actions shutdown_done() { return sup_.shutdown_done(now_); }
  Actions output_capped(std::string detail = "over the cap") {
    return sup_.output_capped(now_, std::move(detail));
  }
  Actions disable(std::string detail = "disabled by the application") {
    return sup_.disable(now_, std::move(detail));
  }
  Actions tick() { return sup_.tick(now_); }

  // Advances to next_deadline() and ticks. A missing deadline fails the test.
  Actions fire() {
    auto d = sup_.next_deadline();
    EXPECT_TRUE(d.has_value()) << "fire() with no deadline, state " << to_string(sup_.state());
    if (!d) return {};
    EXPECT_GE(*d, now_) << "deadline in the past";
    now_ = std::max(now_, *d);
    return sup_.tick(now_);
  }

  // Fires every deadline up to and including `t` (in order), then sets the time to `t`.
  // With answer_pings, every ping is answered (pong) at the instant it is sent.
  Actions run_until(TimePoint t, bool answer_pings = false) {
    Actions all;
    for (int guard = 0; guard < 1'000'000; ++guard) {
      auto d = sup_.next_deadline();
      if (!d || *d > t) break;
      now_ = std::max(now_, *d);
      Actions out = sup_.tick(now_);
      if (sup_.next_deadline() && *sup_.next_deadline() <= now_) {
        ADD_FAILURE() << "tick() at a due deadline left it due, state " << to_string(sup_.state());
        return all;
      }
      for (const auto& a : out) {
        all.push_back(a);
        if (answer_pings && a.kind == Action::Kind::kSendHealthCheck) {
          sup_.health_check_answered(now_);
        }
      }
    }
    now_ = std::max(now_, t);
    return all;
  }
  Actions run_for(Duration d, bool answer_pings = false) {
    return run_until(now_ + d, answer_pings);
  }

  // From idle/stopped/disabled/backoff: launch (firing the backoff timer if needed), spawn
  // and complete the handshake. Fails the test if any step does not go as expected.
  void bring_up() {
    Actions out = sup_.state() == State::kBackoff ? fire() : start();
    ASSERT_EQ(briefs(out), std::vector<std::string>{"spawn"});
    ASSERT_EQ(briefs(spawned()), std::vector<std::string>{"handshake"});
    ASSERT_EQ(briefs(handshake_ok()), (std::vector<std::string>{"handshake_done", "running"}));
    ASSERT_EQ(sup_.state(), State::kRunning);
  }

 private:
  Supervisor sup_;
  // Any fixed origin works; an hour in keeps "before the first event" representable.
  TimePoint now_ = TimePoint{} + std::chrono::hours(1);
};

// The two policies every rule is checked with: the spec's, and the same one 100x faster.
struct PolicyCase {
  const char* name;
  double factor;
  // A stop sequence with every kind of step (close stdin and SIGTERM too), as loaf RPC's.
  bool every_step = false;
  Policy policy() const {
    Policy p = spec_policy();
    if (every_step) {
      p.stop = {StopStep{StopStep::Kind::kShutdown}, StopStep{StopStep::Kind::kExit},
                StopStep{StopStep::Kind::kCloseStdin}, StopStep{StopStep::Kind::kWait, 5s},
                StopStep{StopStep::Kind::kSigterm},    StopStep{StopStep::Kind::kWait, 5s},
                StopStep{StopStep::Kind::kKill}};
    }
    return factor == 1.0 ? p : p.scaled(factor);
  }
  SpecTimes spec() const { return SpecTimes{factor}; }
};

inline void PrintTo(const PolicyCase& c, std::ostream* os) { *os << c.name; }

inline std::string policy_case_name(const ::testing::TestParamInfo<PolicyCase>& info) {
  return info.param.name;
}

class SupervisorTest : public ::testing::TestWithParam<PolicyCase> {
 protected:
  SpecTimes spec = GetParam().spec();
  FakeDriver d{GetParam().policy()};
};

#define RPCKIT_SUPERVISION_POLICIES(suite)                                         \
  INSTANTIATE_TEST_SUITE_P(                                                        \
      Policies, suite,                                                             \
      ::testing::Values(PolicyCase{"spec", 1.0}, PolicyCase{"scaled_0_01", 0.01}), \
      policy_case_name)

}  // namespace rpckit::supervision::testing
