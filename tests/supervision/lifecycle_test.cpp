// Start-up, handshake deadline, stop/shutdown/exit and the events a state ignores
// (spec section 2: initialize within 10 s, shutdown then exit, killed 5 s after exit).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string_view>
#include <utility>

#include "driver.hpp"

namespace rpckit::supervision::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class LifecycleTest : public SupervisorTest {};
RPCKIT_SUPERVISION_POLICIES(LifecycleTest);

// --- start-up -----------------------------------------------------------------------------

TEST_P(LifecycleTest, StartSpawnsThenInitializeThenRunning) {
  EXPECT_EQ(d.state(), State::kIdle);
  EXPECT_FALSE(d.sup().next_deadline());

  EXPECT_THAT(briefs(d.start()), ElementsAre("spawn"));
  EXPECT_EQ(d.state(), State::kLaunching);
  EXPECT_FALSE(d.sup().next_deadline()) << "spawning has no timer of its own";

  d.advance(3ms);
  EXPECT_THAT(briefs(d.spawned()), ElementsAre("handshake"));
  EXPECT_EQ(d.state(), State::kHandshaking);
  EXPECT_EQ(d.until_deadline(), spec.handshake());

  d.advance(spec.handshake() / 2);
  EXPECT_THAT(briefs(d.handshake_ok()), ElementsAre("handshake_done", "running"));
  EXPECT_EQ(d.state(), State::kRunning);
  EXPECT_EQ(d.until_deadline(), spec.ping()) << "first ping one interval after running";
  EXPECT_EQ(d.sup().missed_health_checks(), 0);
  EXPECT_EQ(d.sup().restarts_in_window(d.now()), 0);
}

TEST_P(LifecycleTest, HandshakeTimesOutAtExactlyTheDeadlineNotBefore) {
  ASSERT_THAT(briefs(d.start()), ElementsAre("spawn"));
  ASSERT_THAT(briefs(d.spawned()), ElementsAre("handshake"));
  const TimePoint sent = d.now();

  d.advance_to(sent + spec.handshake() - 1ms);  // 9.999 s (0.099 s scaled)
  EXPECT_THAT(d.tick(), IsEmpty());
  EXPECT_EQ(d.state(), State::kHandshaking);

  d.advance_to(sent + spec.handshake());  // 10 s exactly
  Actions out = d.tick();
  ASSERT_THAT(briefs(out), ElementsAre(stopped(StopCause::kHandshakeTimeout), "kill"));
  EXPECT_THAT(out[0].detail, HasSubstr("handshake"));
  EXPECT_EQ(d.state(), State::kTerminating);
  EXPECT_FALSE(d.sup().next_deadline()) << "waiting for the exit has no timer";

  // Ticking again while the kill is in flight does nothing (no second kill).
  d.advance(1s);
  EXPECT_THAT(d.tick(), IsEmpty());

  out = d.exited(killed_by(9));
  ASSERT_THAT(briefs(out), ElementsAre(restart(spec.backoff(0))));
  EXPECT_EQ(out[0].cause, StopCause::kHandshakeTimeout);
  EXPECT_EQ(d.state(), State::kBackoff);
  EXPECT_EQ(d.until_deadline(), spec.backoff(0));

  // The restart launches at its deadline, not a millisecond before.
  d.advance(spec.backoff(0) - 1ms);
  EXPECT_THAT(d.tick(), IsEmpty());
  d.advance(1ms);
  EXPECT_THAT(briefs(d.tick()), ElementsAre("spawn"));
  EXPECT_EQ(d.state(), State::kLaunching);
}

TEST_P(LifecycleTest, HandshakeAnsweredJustBeforeTheDeadlineIsInTime) {
  d.start();
  d.spawned();
  d.advance(spec.handshake() - 1ms);
  EXPECT_THAT(d.tick(), IsEmpty());
  EXPECT_THAT(briefs(d.handshake_ok()), ElementsAre("handshake_done", "running"));
  // The handshake deadline is gone: the next timer is the first ping, from now.
  EXPECT_EQ(d.until_deadline(), spec.ping());
  d.advance(1ms);
  EXPECT_THAT(d.tick(), IsEmpty());
  EXPECT_EQ(d.state(), State::kRunning);
}

TEST_P(LifecycleTest, FireDrivesTheHandshakeTimeoutToo) {
  d.start();
  d.spawned();
  const TimePoint sent = d.now();
  Actions out = d.fire();
  EXPECT_EQ(d.now() - sent, spec.handshake());
  EXPECT_THAT(briefs(out), ElementsAre(stopped(StopCause::kHandshakeTimeout), "kill"));
}

// --- stop: shutdown, exit, grace, kill ---------------------------------------------------

TEST_P(LifecycleTest, StopWhileRunningSendsShutdownThenExitThenStops) {
  d.bring_up();
  d.advance(2s);
  EXPECT_THAT(briefs(d.stop()), ElementsAre("shutdown"));
  EXPECT_EQ(d.state(), State::kStopping);
  EXPECT_EQ(d.until_deadline(), spec.shutdown());

  d.advance(10ms);
  EXPECT_THAT(briefs(d.shutdown_done()), ElementsAre("exit"));
  EXPECT_EQ(d.state(), State::kStopping);
  EXPECT_EQ(d.until_deadline(), spec.exit_grace());

  d.advance(10ms);
  Actions out = d.exited(exit_code(0));
  ASSERT_THAT(briefs(out), ElementsAre(stopped(StopCause::kRequested)));
  EXPECT_EQ(out[0].detail, "exit code 0");
  EXPECT_EQ(d.state(), State::kStopped);
  EXPECT_FALSE(d.sup().next_deadline());

  // Nothing restarts it, ever.
  d.advance(1h);
  EXPECT_THAT(d.tick(), IsEmpty());
  EXPECT_EQ(d.state(), State::kStopped);
}

TEST_P(LifecycleTest, NoPingsWhileStopping) {
  d.bring_up();
  d.advance(spec.ping() - 1ms);
  ASSERT_THAT(briefs(d.stop()), ElementsAre("shutdown"));
  // The ping that was due 1 ms later is not sent; the only timer is the shutdown deadline.
  EXPECT_THAT(briefs(d.run_for(spec.shutdown() - 1ms)), IsEmpty());
}

TEST_P(LifecycleTest, ExitThatNeverComesIsKilledAtExactlyTheGrace) {
  d.bring_up();
  d.stop();
  d.advance(1s);
  ASSERT_THAT(briefs(d.shutdown_done()), ElementsAre("exit"));
  const TimePoint exit_sent = d.now();

  d.advance_to(exit_sent + spec.exit_grace() - 1ms);
  EXPECT_THAT(d.tick(), IsEmpty());
  EXPECT_EQ(d.state(), State::kStopping);

  d.advance_to(exit_sent + spec.exit_grace());
  Actions out = d.tick();
  ASSERT_THAT(briefs(out), ElementsAre(stopped(StopCause::kExitTimeout), "kill"));
  EXPECT_THAT(out[0].detail, HasSubstr("SIGKILL"));
  EXPECT_EQ(d.state(), State::kTerminating);
  EXPECT_FALSE(d.sup().next_deadline());

  // The kill's exit is expected: no second report, no restart.
  d.advance(5ms);
  EXPECT_THAT(d.exited(killed_by(9)), IsEmpty());
  EXPECT_EQ(d.state(), State::kStopped);
  EXPECT_FALSE(d.sup().next_deadline());
  d.advance(1h);
  EXPECT_THAT(d.tick(), IsEmpty());
}

TEST_P(LifecycleTest, ShutdownWithoutAnswerSendsExitAnywayAfterTheShutdownTimeout) {
  d.bring_up();
  ASSERT_THAT(briefs(d.stop()), ElementsAre("shutdown"));
  const TimePoint shutdown_sent = d.now();

  d.advance_to(shutdown_sent + spec.shutdown() - 1ms);
  EXPECT_THAT(d.tick(), IsEmpty());
  EXPECT_EQ(d.state(), State::kStopping);

  d.advance_to(shutdown_sent + spec.shutdown());
  EXPECT_THAT(briefs(d.tick()), ElementsAre("exit"));
  EXPECT_EQ(d.state(), State::kStopping);
  EXPECT_EQ(d.until_deadline(), spec.exit_grace()) << "grace counts from the exit";

  // A late answer to shutdown changes nothing now.
  EXPECT_THAT(d.shutdown_done(), IsEmpty());
  EXPECT_EQ(d.until_deadline(), spec.exit_grace());

  // And the whole chain ends with the kill.
  Actions out = d.fire();
  EXPECT_THAT(briefs(out), ElementsAre(stopped(StopCause::kExitTimeout), "kill"));
  EXPECT_THAT(d.exited(killed_by(9)), IsEmpty());
  EXPECT_EQ(d.state(), State::kStopped);
}

TEST_P(LifecycleTest, PluginExitingBeforeAnsweringShutdownIsARequestedStop) {
  d.bring_up();
  d.stop();
  d.advance(5ms);
  Actions out = d.exited(exit_code(0));
  EXPECT_THAT(briefs(out), ElementsAre(stopped(StopCause::kRequested)));
  EXPECT_EQ(d.state(), State::kStopped);
  EXPECT_FALSE(d.sup().next_deadline());
  EXPECT_THAT(d.shutdown_done(), IsEmpty());
}

TEST_P(LifecycleTest, StopDuringTheHandshakeKillsAndNeverRestarts) {
  d.start();
  d.spawned();
  d.advance(spec.handshake() / 2);
  EXPECT_THAT(briefs(d.stop()), ElementsAre("kill"));
  EXPECT_EQ(d.state(), State::kTerminating);
  EXPECT_FALSE(d.sup().next_deadline()) << "the handshake deadline is cancelled";

  // A late initialize answer is ignored.
  EXPECT_THAT(d.handshake_ok(), IsEmpty());
  EXPECT_EQ(d.state(), State::kTerminating);

  d.advance(1ms);
  Actions out = d.exited(killed_by(9));
  ASSERT_THAT(briefs(out), ElementsAre(stopped(StopCause::kRequested)));
  EXPECT_EQ(out[0].detail, "signal 9 (Killed)");
  EXPECT_EQ(d.state(), State::kStopped);
  EXPECT_FALSE(d.sup().next_deadline());
  d.advance(1h);
  EXPECT_THAT(d.tick(), IsEmpty());
}

TEST_P(LifecycleTest, StopWhileLaunchingKillsOnceSpawned) {
  d.start();
  EXPECT_THAT(d.stop(), IsEmpty()) << "nothing to kill yet";
  EXPECT_EQ(d.state(), State::kLaunching);
  EXPECT_THAT(briefs(d.spawned()), ElementsAre("kill")) << "no initialize to a stopped plugin";
  EXPECT_EQ(d.state(), State::kTerminating);
  EXPECT_THAT(briefs(d.exited(killed_by(9))), ElementsAre(stopped(StopCause::kRequested)));
  EXPECT_EQ(d.state(), State::kStopped);
  EXPECT_FALSE(d.sup().next_deadline());
}

TEST_P(LifecycleTest, StopWhileLaunchingThenLaunchFailureDoesNotRestart) {
  d.start();
  d.stop();
  Actions out = d.launch_failed("execve: Permission denied");
  EXPECT_THAT(briefs(out), ElementsAre(stopped(StopCause::kLaunchFailed)));
  EXPECT_EQ(d.state(), State::kStopped);
  EXPECT_FALSE(d.sup().next_deadline());
}

TEST_P(LifecycleTest, StopWhileIdleIsAQuietStop) {
  EXPECT_THAT(d.stop(), IsEmpty());
  EXPECT_EQ(d.state(), State::kStopped);
  EXPECT_THAT(briefs(d.start()), ElementsAre("spawn"));
}

TEST_P(LifecycleTest, StartAfterARequestedStopRunsAgain) {
  d.bring_up();
  d.stop();
  d.shutdown_done();
  d.exited(exit_code(0));
  ASSERT_EQ(d.state(), State::kStopped);
  d.advance(1s);
  d.bring_up();
  EXPECT_EQ(d.until_deadline(), spec.ping());
  // A failure after the restart is a normal first failure.
  EXPECT_THAT(briefs(d.exited(exit_code(1))),
              ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(0))));
}

// --- events that do not apply are ignored --------------------------------------------------

// Feeds one event and checks it is a no-op: no action, same state, same deadline.
#define EXPECT_IGNORED(call)                                      \
  do {                                                            \
    const State before_state = d.state();                         \
    const auto before_deadline = d.sup().next_deadline();         \
    EXPECT_THAT(briefs(call), IsEmpty()) << #call;                \
    EXPECT_EQ(d.state(), before_state) << #call;                  \
    EXPECT_EQ(d.sup().next_deadline(), before_deadline) << #call; \
  } while (false)

TEST_P(LifecycleTest, EventsThatDoNotApplyWhileIdleAreIgnored) {
  EXPECT_IGNORED(d.spawned());
  EXPECT_IGNORED(d.launch_failed());
  EXPECT_IGNORED(d.handshake_ok());
  EXPECT_IGNORED(d.handshake_failed("x", false));
  EXPECT_IGNORED(d.handshake_failed("x", true));
  EXPECT_IGNORED(d.check_answered());
  EXPECT_IGNORED(d.frame_error(false));
  EXPECT_IGNORED(d.frame_error(true));
  EXPECT_IGNORED(d.exited(exit_code(1)));
  EXPECT_IGNORED(d.shutdown_done());
  EXPECT_IGNORED(d.tick());
  EXPECT_EQ(d.state(), State::kIdle);
}

TEST_P(LifecycleTest, EventsThatDoNotApplyWhileLaunchingAreIgnored) {
  d.start();
  EXPECT_IGNORED(d.start());
  EXPECT_IGNORED(d.handshake_ok());
  EXPECT_IGNORED(d.handshake_failed("x", true));
  EXPECT_IGNORED(d.check_answered());
  EXPECT_IGNORED(d.frame_error(false));
  EXPECT_IGNORED(d.exited(exit_code(1)));
  EXPECT_IGNORED(d.shutdown_done());
  d.advance(1h);
  EXPECT_IGNORED(d.tick());
  EXPECT_EQ(d.state(), State::kLaunching);
}

TEST_P(LifecycleTest, EventsThatDoNotApplyWhileHandshakingAreIgnored) {
  d.start();
  d.spawned();
  EXPECT_IGNORED(d.start());
  EXPECT_IGNORED(d.spawned());
  EXPECT_IGNORED(d.launch_failed());
  EXPECT_IGNORED(d.check_answered());
  EXPECT_IGNORED(d.shutdown_done());
  EXPECT_EQ(d.sup().missed_health_checks(), 0);
}

TEST_P(LifecycleTest, EventsThatDoNotApplyWhileRunningAreIgnored) {
  d.bring_up();
  EXPECT_IGNORED(d.start());
  EXPECT_IGNORED(d.spawned());
  EXPECT_IGNORED(d.launch_failed());
  EXPECT_IGNORED(d.handshake_ok());  // handshake_ok twice
  EXPECT_IGNORED(d.handshake_failed("late", false));
  EXPECT_IGNORED(d.handshake_failed("late", true));
  EXPECT_IGNORED(d.shutdown_done());  // no shutdown was sent
  EXPECT_IGNORED(d.check_answered());           // no ping was sent
  EXPECT_EQ(d.state(), State::kRunning);
}

TEST_P(LifecycleTest, EventsAfterAKillAreIgnoredUntilTheExit) {
  d.bring_up();
  ASSERT_THAT(briefs(d.frame_error(false)),
              ElementsAre(stopped(StopCause::kMalformedFrame), "kill"));
  EXPECT_IGNORED(d.frame_error(false));  // frame_error after kill: no second kill
  EXPECT_IGNORED(d.frame_error(true));
  EXPECT_IGNORED(d.check_answered());
  EXPECT_IGNORED(d.handshake_ok());
  EXPECT_IGNORED(d.shutdown_done());
  EXPECT_IGNORED(d.start());
  EXPECT_IGNORED(d.spawned());
  d.advance(1h);
  EXPECT_IGNORED(d.tick());
  EXPECT_THAT(briefs(d.exited(killed_by(9))), ElementsAre(restart(spec.backoff(0))));
}

TEST_P(LifecycleTest, EventsThatDoNotApplyWhileStoppedAreIgnored) {
  d.bring_up();
  d.stop();
  d.shutdown_done();
  d.exited(exit_code(0));
  ASSERT_EQ(d.state(), State::kStopped);
  EXPECT_IGNORED(d.check_answered());                // pong while stopped
  EXPECT_IGNORED(d.exited(exit_code(0)));  // exited twice
  EXPECT_IGNORED(d.exited(killed_by(9)));
  EXPECT_IGNORED(d.spawned());
  EXPECT_IGNORED(d.launch_failed());
  EXPECT_IGNORED(d.handshake_ok());
  EXPECT_IGNORED(d.frame_error(true));
  EXPECT_IGNORED(d.shutdown_done());
  EXPECT_IGNORED(d.stop());
  d.advance(1h);
  EXPECT_IGNORED(d.tick());
}

TEST_P(LifecycleTest, ExitedTwiceAfterACrashIsReportedOnce) {
  d.bring_up();
  Actions first = d.exited(exit_code(3));
  EXPECT_THAT(briefs(first), ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(0))));
  EXPECT_IGNORED(d.exited(exit_code(3)));
  EXPECT_EQ(d.sup().restarts_in_window(d.now()), 1) << "counted once";
}

TEST_P(LifecycleTest, TickBeforeAnyDeadlineDoesNothing) {
  d.bring_up();
  const auto deadline = d.sup().next_deadline();
  d.advance(spec.ping() - 1ms);
  EXPECT_IGNORED(d.tick());
  EXPECT_EQ(d.sup().next_deadline(), deadline);
}

#undef EXPECT_IGNORED

// --- names, exit statuses, policy values -------------------------------------------------

TEST(SupervisionNames, EveryStopCauseHasTheSpecName) {
  const std::pair<StopCause, std::string_view> names[] = {
      {StopCause::kLaunchFailed, "launch_failed"},
      {StopCause::kHandshakeFailed, "handshake_failed"},
      {StopCause::kHandshakeTimeout, "handshake_timeout"},
      {StopCause::kCrashed, "crashed"},
      {StopCause::kUnhealthy, "unhealthy"},
      {StopCause::kMalformedFrame, "malformed_frame"},
      {StopCause::kOversizedFrame, "oversized_frame"},
      {StopCause::kHandshakeRejected, "handshake_rejected"},
      {StopCause::kExitTimeout, "exit_timeout"},
      {StopCause::kRequested, "requested"},
  };
  for (const auto& [cause, name] : names) EXPECT_EQ(to_string(cause), name);
  // protocol_version_mismatch is also the data.name of the -32600 answer (section 9.2).
  EXPECT_EQ(to_string(StopCause::kHandshakeRejected), "handshake_rejected");
}

TEST(SupervisionNames, EveryStateHasADistinctName) {
  const State states[] = {
      State::kIdle,     State::kLaunching,   State::kHandshaking, State::kRunning,
      State::kBackoff,  State::kStopping,    State::kTerminating, State::kStopped,
      State::kDisabled};
  std::set<std::string_view> seen;
  for (State s : states) {
    EXPECT_FALSE(to_string(s).empty());
    EXPECT_TRUE(seen.insert(to_string(s)).second) << to_string(s);
  }
  EXPECT_EQ(to_string(State::kDisabled), "disabled");
  EXPECT_EQ(to_string(State::kRunning), "running");
}

TEST(SupervisionExitStatus, DescribesCodesAndSignals) {
  EXPECT_EQ(exit_code(3).describe(), "exit code 3");
  EXPECT_EQ(exit_code(0).describe(), "exit code 0");
  EXPECT_EQ(killed_by(9).describe(), "signal 9 (Killed)");
  EXPECT_THAT(killed_by(15).describe(), HasSubstr("signal 15 ("));
}

TEST(SupervisionPolicy, DefaultsAreNoTimerAndNoRestart) {
  // The runtime has no protocol's values: a profile states every timer (lifecycle_policy).
  const Policy p;
  EXPECT_FALSE(p.handshake_timeout);
  EXPECT_FALSE(p.health_check_interval);
  EXPECT_EQ(p.health_check_misses, 0);
  EXPECT_TRUE(p.restart_backoff.empty());
  EXPECT_FALSE(p.restart_window);
  EXPECT_EQ(p.max_restarts_in_window, 0);
  EXPECT_FALSE(p.shutdown_timeout);
  EXPECT_TRUE(p.stop.empty());
}

TEST(SupervisionPolicy, ScaledMultipliesEveryDurationAndNoCount) {
  const Policy p = spec_policy().scaled(0.01);
  EXPECT_EQ(p.handshake_timeout, 100ms);
  EXPECT_EQ(p.health_check_interval, 300ms);
  EXPECT_EQ(p.health_check_misses, 3);
  EXPECT_THAT(p.restart_backoff, ElementsAre(10ms, 50ms, 250ms));
  EXPECT_EQ(p.restart_window, 6s);
  EXPECT_EQ(p.max_restarts_in_window, 3);
  EXPECT_EQ(p.stop.at(2).wait, 50ms);
  EXPECT_EQ(p.shutdown_timeout, 300ms);
  EXPECT_EQ(spec_policy().scaled(1.0).restart_window, 10min);
  EXPECT_FALSE(Policy{}.scaled(0.5).handshake_timeout) << "none stays none";
}

TEST(SupervisionPolicy, ScaledRoundsInsteadOfTruncatingFloatingPointError) {
  // 5000 * 0.57 == 2849.9999999999995 and 25000 * 0.29 == 7249.999999999999 in double.
  const Policy p = spec_policy().scaled(0.57);
  EXPECT_EQ(p.handshake_timeout, 5700ms);
  EXPECT_EQ(p.stop.at(2).wait, 2850ms);
  EXPECT_EQ(p.restart_window, 342000ms);
  EXPECT_EQ(spec_policy().scaled(0.29).restart_backoff[2], 7250ms);
}

}  // namespace
}  // namespace rpckit::supervision::testing
