// Property test: random event sequences (fixed seeds, thousands of steps) against a model of
// the world the supervisor drives (is a process alive, was a spawn requested, which requests
// are unanswered). Whatever happens:
//   - no spawn while a process is alive or a spawn is still unresolved;
//   - never two spawns without an exit or a launch failure in between;
//   - no spawn from a timer after stop() or a disable (only start() launches again);
//   - no message and no kill to a process that is not alive, or that was already killed;
//   - after stop(), nothing is initialized or pinged again until start();
//   - a protocol_version_mismatch is never followed by a restart;
//   - after tick(now), next_deadline() is never in the past (nor now: that would spin);
//   - the state agrees with the world (alive/launching/no process) and with the timers;
//   - an event that cannot apply (spawned without a spawn, pong without a ping, exited with
//     no process, ...) changes nothing.
// The run also counts what it reached, and fails if it did not reach every state, action
// and stop cause: a random walk that never disables or never times out proves nothing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "driver.hpp"

namespace rpckit::supervision::testing {
namespace {

struct World {
  bool spawn_pending = false;    // kSpawn emitted, neither spawned nor launch_failed yet
  bool alive = false;            // spawned and not yet exited
  bool spawn_since_end = false;  // a kSpawn with no exit/launch_failed since
  bool init_pending = false;     // initialize sent, not answered
  int pings_unanswered = 0;
  bool shutdown_pending = false;
  bool killed = false;           // kKill sent to the current process
  bool timer_may_spawn = false;  // false after stop()/disable until start() launches
  bool user_stopped = false;     // stop() called, no start() that launched since
  bool mismatch = false;         // this process was stopped for protocol_version_mismatch
};

enum class Event {
  kAdvanceAndTick,
  kJumpToDeadline,
  kJustBeforeDeadline,
  kStart,
  kStop,
  kSpawned,
  kLaunchFailed,
  kHandshakeOk,
  kHandshakeFailed,
  kPong,
  kFrameError,
  kExited,
  kShutdownDone,
  kOutputCapped,
  kDisable,
};

class PropertyRun {
 public:
  PropertyRun(Policy policy, std::uint32_t seed)
      : policy_(policy), d_(std::move(policy)), rng_(seed) {}

  void run(int steps) {
    seen_states_.insert(d_.state());
    for (step_ = 0; step_ < steps; ++step_) {
      one_step();
      if (::testing::Test::HasFatalFailure()) return;
      check_consistency();
      if (::testing::Test::HasFatalFailure()) return;
      seen_states_.insert(d_.state());
    }
  }

  const std::set<State>& states() const { return seen_states_; }
  const std::set<Action::Kind>& kinds() const { return seen_kinds_; }
  const std::set<StopCause>& causes() const { return seen_causes_; }
  int spawns() const { return spawns_; }
  int disables() const { return disables_; }

 private:
  std::uint32_t pick(std::uint32_t n) { return static_cast<std::uint32_t>(rng_() % n); }
  bool chance(std::uint32_t percent) { return pick(100) < percent; }
  Duration fraction_of(Duration d, std::uint32_t max_percent) {
    return Duration{d.count() * static_cast<Duration::rep>(pick(max_percent + 1)) / 100};
  }

  Event choose() {
    // Weights favour a plugin that mostly behaves, so that long runs (window sliding) and
    // timeouts both happen. A killed process exits soon.
    struct Weighted {
      Event event;
      std::uint32_t weight;
    };
    const std::array<Weighted, 15> table = {{
        {Event::kAdvanceAndTick, 30},
        {Event::kJumpToDeadline, 18},
        {Event::kJustBeforeDeadline, 3},
        {Event::kStart, 3},
        {Event::kStop, 2},
        {Event::kSpawned, 10},
        {Event::kLaunchFailed, 2},
        {Event::kHandshakeOk, 10},
        {Event::kHandshakeFailed, 1},
        {Event::kPong, 14},
        {Event::kFrameError, 1},
        {Event::kExited, world_.killed ? 40u : 2u},
        {Event::kShutdownDone, 5},
        {Event::kOutputCapped, 1},
        {Event::kDisable, 1},
    }};
    std::uint32_t total = 0;
    for (const auto& w : table) total += w.weight;
    std::uint32_t r = pick(total);
    for (const auto& w : table) {
      if (r < w.weight) return w.event;
      r -= w.weight;
    }
    return Event::kAdvanceAndTick;
  }

  std::string context() const {
    std::ostringstream os;
    os << "step " << step_ << ", state " << to_string(d_.state()) << "; recent:";
    for (const auto& line : trace_) os << "\n  " << line;
    return os.str();
  }
  void note(std::string line) {
    trace_.push_back(std::move(line));
    if (trace_.size() > 25) trace_.pop_front();
  }

  // An event the world says cannot happen now must change nothing.
  template <typename Call>
  void expect_ignored(const char* what, Call&& call) {
    const State before = d_.state();
    const auto deadline = d_.sup().next_deadline();
    const int missed = d_.sup().missed_health_checks();
    Actions out = call();
    note(std::string("(noise) ") + what);
    ASSERT_TRUE(out.empty()) << what << " produced " << brief(out.front()) << "\n" << context();
    ASSERT_EQ(d_.state(), before) << what << "\n" << context();
    ASSERT_EQ(d_.sup().next_deadline(), deadline) << what << "\n" << context();
    ASSERT_EQ(d_.sup().missed_health_checks(), missed) << what << "\n" << context();
  }

  void process_ended() {
    world_.alive = false;
    world_.spawn_since_end = false;
    world_.init_pending = false;
    world_.pings_unanswered = 0;
    world_.shutdown_pending = false;
    world_.killed = false;
  }

  void one_step() {
    const Event e = choose();
    switch (e) {
      case Event::kAdvanceAndTick: {
        const std::uint32_t kind = pick(20);
        Duration dt = kind < 8    ? fraction_of(policy_.restart_backoff.front(), 100)
                      : kind < 18 ? fraction_of(*policy_.health_check_interval, 150)
                      : kind < 19 ? fraction_of(*policy_.restart_window, 60)
                                  : *policy_.restart_window + 1ms;  // everything slides out
        d_.advance(dt);
        tick("advance " + std::to_string(dt.count()) + "ms");
        return;
      }
      case Event::kJumpToDeadline:
        if (auto due = d_.sup().next_deadline()) d_.advance_to(std::max(*due, d_.now()));
        tick("jump to deadline");
        return;
      case Event::kJustBeforeDeadline: {
        auto due = d_.sup().next_deadline();
        if (!due || *due - d_.now() < 1ms) return;
        d_.advance_to(*due - 1ms);
        expect_ignored("tick 1 ms before the deadline", [&] { return d_.tick(); });
        return;
      }
      case Event::kStart: {
        const bool can_start = d_.state() == State::kIdle || d_.state() == State::kStopped ||
                               d_.state() == State::kDisabled;
        Actions out = d_.start();
        note("start");
        if (can_start) {
          ASSERT_EQ(briefs(out), std::vector<std::string>{"spawn"}) << context();
          ASSERT_EQ(d_.sup().restarts_in_window(d_.now()), 0) << "fresh window\n" << context();
          world_.timer_may_spawn = true;
          world_.user_stopped = false;
        } else {
          ASSERT_TRUE(out.empty()) << "start in " << to_string(d_.state()) << "\n" << context();
        }
        apply(out, /*from_timer=*/false);
        return;
      }
      case Event::kStop: {
        Actions out = d_.stop();
        note("stop");
        world_.timer_may_spawn = false;
        world_.user_stopped = true;
        apply(out, false);
        return;
      }
      case Event::kSpawned:
        if (!world_.spawn_pending) {
          expect_ignored("spawned", [&] { return d_.spawned(); });
          return;
        }
        world_.spawn_pending = false;
        world_.alive = true;
        note("spawned");
        apply(d_.spawned(), false);
        return;
      case Event::kLaunchFailed:
        if (!world_.spawn_pending) {
          expect_ignored("launch_failed", [&] { return d_.launch_failed("noise"); });
          return;
        }
        world_.spawn_pending = false;
        world_.spawn_since_end = false;
        note("launch_failed");
        apply(d_.launch_failed("ENOENT"), false);
        return;
      case Event::kHandshakeOk:
        if (!world_.alive || !world_.init_pending) {
          expect_ignored("handshake_ok", [&] { return d_.handshake_ok(); });
          return;
        }
        world_.init_pending = false;
        note("handshake_ok");
        apply(d_.handshake_ok(), false);
        return;
      case Event::kHandshakeFailed: {
        const bool mismatch = chance(25);
        if (!world_.alive || !world_.init_pending) {
          expect_ignored("handshake_failed", [&] { return d_.handshake_failed("x", mismatch); });
          return;
        }
        world_.init_pending = false;
        note(mismatch ? "handshake_failed(mismatch)" : "handshake_failed");
        apply(d_.handshake_failed("refused", mismatch), false);
        return;
      }
      case Event::kPong:
        if (!world_.alive || world_.pings_unanswered == 0) {
          expect_ignored("pong", [&] { return d_.check_answered(); });
          return;
        }
        --world_.pings_unanswered;
        note("pong");
        apply(d_.check_answered(), false);
        return;
      case Event::kFrameError: {
        const bool oversize = chance(50);
        if (!world_.alive) {
          expect_ignored("frame_error", [&] { return d_.frame_error(oversize); });
          return;
        }
        note(oversize ? "frame_error(oversize)" : "frame_error(malformed)");
        apply(d_.frame_error(oversize), false);
        return;
      }
      case Event::kExited: {
        const ExitStatus status =
            world_.killed ? killed_by(9) : exit_code(static_cast<int>(pick(4)));
        if (!world_.alive) {
          expect_ignored("exited", [&] { return d_.exited(status); });
          return;
        }
        process_ended();
        note("exited " + status.describe());
        apply(d_.exited(status), false);
        return;
      }
      case Event::kOutputCapped:
        if (!world_.alive) {
          expect_ignored("output_capped", [&] { return d_.output_capped(); });
          return;
        }
        note("output_capped");
        apply(d_.output_capped(), false);
        return;
      case Event::kDisable: {
        Actions out = d_.disable();
        note("disable");
        world_.timer_may_spawn = false;
        world_.user_stopped = true;
        apply(out, false);
        return;
      }
      case Event::kShutdownDone:
        if (!world_.alive || !world_.shutdown_pending) {
          expect_ignored("shutdown_done", [&] { return d_.shutdown_done(); });
          return;
        }
        world_.shutdown_pending = false;
        note("shutdown_done");
        apply(d_.shutdown_done(), false);
        return;
    }
  }

  void tick(const std::string& what) {
    const auto due = d_.sup().next_deadline();
    const bool due_now = due && *due <= d_.now();
    Actions out = d_.tick();
    note(what + " -> tick");
    if (!due_now) {
      ASSERT_TRUE(out.empty()) << "tick before any deadline acted\n" << context();
    }
    const auto next = d_.sup().next_deadline();
    ASSERT_TRUE(!next || *next > d_.now())
        << "next_deadline() " << (*next - d_.now()).count() << " ns from now after tick\n"
        << context();
    apply(out, /*from_timer=*/true);
  }

  void apply(const Actions& out, bool from_timer) {
    for (const Action& a : out) {
      note("  -> " + brief(a));
      seen_kinds_.insert(a.kind);
      switch (a.kind) {
        case Action::Kind::kSpawn:
          ASSERT_FALSE(world_.alive) << "spawn while a process is alive\n" << context();
          ASSERT_FALSE(world_.spawn_pending) << "spawn while a spawn is unresolved\n" << context();
          ASSERT_FALSE(world_.spawn_since_end) << "two spawns without an exit or launch failure\n"
                                               << context();
          if (from_timer) {
            ASSERT_TRUE(world_.timer_may_spawn) << "restart after stop() or disable\n" << context();
          }
          world_.spawn_pending = true;
          world_.spawn_since_end = true;
          world_.mismatch = false;
          ++spawns_;
          break;
        case Action::Kind::kSendHandshake:
        case Action::Kind::kSendHandshakeDone:
        case Action::Kind::kRunning:
        case Action::Kind::kSendHealthCheck:
        case Action::Kind::kSendShutdown:
        case Action::Kind::kSendExit:
        case Action::Kind::kCloseStdin:
        case Action::Kind::kTerminate:
        case Action::Kind::kKill:
          ASSERT_TRUE(world_.alive) << brief(a) << " with no process\n" << context();
          ASSERT_FALSE(world_.killed) << brief(a) << " after kill\n" << context();
          if (a.kind == Action::Kind::kSendHandshake || a.kind == Action::Kind::kSendHandshakeDone ||
              a.kind == Action::Kind::kRunning || a.kind == Action::Kind::kSendHealthCheck) {
            ASSERT_FALSE(world_.user_stopped) << brief(a) << " after stop()\n" << context();
          }
          if (a.kind == Action::Kind::kSendHandshake) world_.init_pending = true;
          if (a.kind == Action::Kind::kSendHealthCheck) ++world_.pings_unanswered;
          if (a.kind == Action::Kind::kSendShutdown) world_.shutdown_pending = true;
          if (a.kind == Action::Kind::kKill) world_.killed = true;
          break;
        case Action::Kind::kRestartScheduled: {
          ASSERT_FALSE(world_.alive) << "restart scheduled while alive\n" << context();
          ASSERT_FALSE(world_.mismatch) << "restart after a version mismatch\n" << context();
          const auto& steps = policy_.restart_backoff;
          ASSERT_NE(std::find(steps.begin(), steps.end(), a.delay), steps.end())
              << "delay " << a.delay.count() << "ms\n"
              << context();
          seen_causes_.insert(a.cause);
          break;
        }
        case Action::Kind::kDisabled:
          ASSERT_FALSE(world_.alive) << "disabled while alive\n" << context();
          world_.timer_may_spawn = false;
          seen_causes_.insert(a.cause);
          ++disables_;
          break;
        case Action::Kind::kStopped:
          if (a.cause == StopCause::kHandshakeRejected) world_.mismatch = true;
          seen_causes_.insert(a.cause);
          break;
      }
    }
  }

  void check_consistency() {
    const State s = d_.state();
    const auto deadline = d_.sup().next_deadline();
    switch (s) {
      case State::kIdle:
      case State::kStopped:
      case State::kDisabled:
        ASSERT_FALSE(deadline) << context();
        [[fallthrough]];
      case State::kBackoff:
        ASSERT_FALSE(world_.alive) << context();
        ASSERT_FALSE(world_.spawn_pending) << context();
        if (s == State::kBackoff) {
          ASSERT_TRUE(deadline) << context();
        }
        break;
      case State::kLaunching:
        ASSERT_TRUE(world_.spawn_pending) << context();
        ASSERT_FALSE(world_.alive) << context();
        ASSERT_FALSE(deadline) << context();
        break;
      case State::kHandshaking:
      case State::kRunning:
      case State::kStopping:
        ASSERT_TRUE(world_.alive) << context();
        ASSERT_FALSE(world_.killed) << context();
        ASSERT_TRUE(deadline) << context();
        break;
      case State::kTerminating:
        ASSERT_TRUE(world_.alive) << context();
        ASSERT_TRUE(world_.killed) << "terminating without a kill\n" << context();
        ASSERT_FALSE(deadline) << context();
        break;
    }
    if (s == State::kRunning) {
      ASSERT_LT(d_.sup().missed_health_checks(), policy_.health_check_misses) << context();
    }
    ASSERT_LE(d_.sup().restarts_in_window(d_.now()), policy_.max_restarts_in_window) << context();
  }

  Policy policy_;
  FakeDriver d_;
  std::mt19937 rng_;  // its output sequence is fixed by the standard; `% n` keeps it portable
  World world_;
  int step_ = 0;
  std::deque<std::string> trace_;
  std::set<State> seen_states_;
  std::set<Action::Kind> seen_kinds_;
  std::set<StopCause> seen_causes_;
  int spawns_ = 0;
  int disables_ = 0;
};

class PropertyTest : public ::testing::TestWithParam<PolicyCase> {};
INSTANTIATE_TEST_SUITE_P(Policies, PropertyTest,
                         ::testing::Values(PolicyCase{"spec", 1.0},
                                           PolicyCase{"scaled_0_01", 0.01},
                                           PolicyCase{"every_step", 1.0, true}),
                         policy_case_name);

TEST_P(PropertyTest, RandomEventSequencesKeepTheInvariants) {
  constexpr int kSteps = 20000;
  for (const std::uint32_t seed : {20240601u, 7u, 424242u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    PropertyRun run(GetParam().policy(), seed);
    run.run(kSteps);
    if (HasFatalFailure()) return;

    // Not vacuous: the walk reached every state, action and cause, many times over (the
    // spec's stop sequence has no close_stdin or SIGTERM step; every_step's has all).
    const bool every_step = GetParam().every_step;
    EXPECT_EQ(run.states().size(), 9u) << "states reached: " << run.states().size();
    EXPECT_EQ(run.kinds().size(), every_step ? 13u : 11u)
        << "action kinds reached: " << run.kinds().size();
    for (StopCause c :
         {StopCause::kLaunchFailed, StopCause::kHandshakeFailed, StopCause::kHandshakeTimeout,
          StopCause::kCrashed, StopCause::kUnhealthy, StopCause::kMalformedFrame,
          StopCause::kOversizedFrame, StopCause::kOutputCap, StopCause::kHandshakeRejected,
          StopCause::kExitTimeout, StopCause::kRequested}) {
      EXPECT_TRUE(run.causes().count(c)) << "never saw " << to_string(c);
    }
    EXPECT_GT(run.spawns(), 200);
    EXPECT_GT(run.disables(), 10);
  }
}

}  // namespace
}  // namespace rpckit::supervision::testing
