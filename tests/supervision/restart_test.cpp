// Failures, restart backoff and the crash-loop disable (spec section 2 "Health and restarts",
// section 9.2): restart after 1 s, 5 s, 25 s; more than 3 restarts within 10 minutes disables;
// a protocol version mismatch disables at once and is never restarted.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "driver.hpp"

namespace rpckit::supervision::testing {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

class RestartTest : public SupervisorTest {
 protected:
  // From running: stays healthy (pings answered) until `t`, then the process crashes with
  // exit code 3. Returns what the crash produced.
  Actions crash_at(TimePoint t) {
    EXPECT_EQ(d.state(), State::kRunning);
    Actions during = d.run_until(t, /*answer_pings=*/true);
    for (const auto& a : during) EXPECT_EQ(a.kind, Action::Kind::kSendHealthCheck) << brief(a);
    return d.exited(exit_code(3));
  }
  // Brings the plugin up (from idle, or by firing the backoff timer) and crashes it at once.
  Actions crash_cycle() {
    d.bring_up();
    return d.exited(exit_code(3));
  }
};
RPCKIT_SUPERVISION_POLICIES(RestartTest);

// --- what a failure reports ------------------------------------------------------------------

TEST_P(RestartTest, CrashWhileRunningReportsTheExitCodeAndRestartsAfterOneSecond) {
  d.bring_up();
  d.advance(7s);
  Actions out = d.exited(exit_code(3));
  ASSERT_THAT(briefs(out), ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(0))));
  EXPECT_EQ(out[0].detail, "exit code 3");
  EXPECT_EQ(out[1].cause, StopCause::kCrashed);
  EXPECT_EQ(out[1].delay, spec.backoff(0));
  EXPECT_EQ(d.state(), State::kBackoff);
  EXPECT_EQ(d.until_deadline(), spec.backoff(0));
  EXPECT_EQ(d.sup().restarts_in_window(d.now()), 1);

  const TimePoint crashed = d.now();
  EXPECT_THAT(briefs(d.fire()), ElementsAre("spawn"));
  EXPECT_EQ(d.now() - crashed, spec.backoff(0));
}

TEST_P(RestartTest, CrashBySignalNamesTheSignal) {
  d.bring_up();
  Actions out = d.exited(killed_by(9));
  ASSERT_THAT(briefs(out), ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(0))));
  EXPECT_EQ(out[0].detail, "signal 9 (Killed)");
}

TEST_P(RestartTest, CrashDuringTheHandshakeRestarts) {
  d.start();
  d.spawned();
  d.advance(spec.handshake() / 2);
  Actions out = d.exited(exit_code(1));
  ASSERT_THAT(briefs(out), ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(0))));
  EXPECT_EQ(out[0].detail, "exit code 1");
  // The handshake deadline is gone; the only timer is the restart.
  EXPECT_EQ(d.until_deadline(), spec.backoff(0));
}

TEST_P(RestartTest, CleanExitWhileRunningIsStillAnExitAndRestarts) {
  d.bring_up();
  EXPECT_THAT(briefs(d.exited(exit_code(0))),
              ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(0))));
}

TEST_P(RestartTest, LaunchFailureIsReportedAndRestarted) {
  ASSERT_THAT(briefs(d.start()), ElementsAre("spawn"));
  Actions out = d.launch_failed("execve: No such file or directory");
  ASSERT_THAT(briefs(out),
              ElementsAre(stopped(StopCause::kLaunchFailed), restart(spec.backoff(0))));
  EXPECT_EQ(out[0].detail, "execve: No such file or directory");
  EXPECT_EQ(out[1].cause, StopCause::kLaunchFailed);
  EXPECT_EQ(d.state(), State::kBackoff);
  EXPECT_THAT(briefs(d.fire()), ElementsAre("spawn"));
}

TEST_P(RestartTest, RepeatedLaunchFailuresEndDisabled) {
  ASSERT_THAT(briefs(d.start()), ElementsAre("spawn"));
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_THAT(briefs(d.launch_failed()),
                ElementsAre(stopped(StopCause::kLaunchFailed), restart(spec.backoff(i))));
    ASSERT_THAT(briefs(d.fire()), ElementsAre("spawn"));
  }
  Actions out = d.launch_failed();
  ASSERT_THAT(briefs(out),
              ElementsAre(stopped(StopCause::kLaunchFailed), disabled(StopCause::kLaunchFailed)));
  EXPECT_THAT(out[1].detail, HasSubstr("more than 3 restarts"));
  EXPECT_EQ(d.state(), State::kDisabled);
  EXPECT_FALSE(d.sup().next_deadline());
  EXPECT_THAT(briefs(d.run_for(1h)), IsEmpty()) << "no spawn once disabled";
}

TEST_P(RestartTest, GenericHandshakeFailureKillsThenRestarts) {
  d.start();
  d.spawned();
  Actions out = d.handshake_failed("-32603 internal: boom", /*mismatch=*/false);
  ASSERT_THAT(briefs(out), ElementsAre(stopped(StopCause::kHandshakeFailed), "kill"));
  EXPECT_EQ(out[0].detail, "-32603 internal: boom");
  EXPECT_EQ(d.state(), State::kTerminating);
  EXPECT_FALSE(d.sup().next_deadline()) << "handshake deadline cancelled";
  out = d.exited(killed_by(9));
  ASSERT_THAT(briefs(out), ElementsAre(restart(spec.backoff(0))));
  EXPECT_EQ(out[0].cause, StopCause::kHandshakeFailed);
}

// handshake_failure_exit_wait (Codex: "failed initialize: no shutdown is sent; the host waits
// up to 5 s for exit, then kills"): nothing is sent, and the kill comes only when the wait runs
// out; a process that exits within it is not killed at all.
TEST_P(RestartTest, AnExitWaitAfterAFailedHandshakeKillsOnlyWhenItRunsOut) {
  Policy policy = GetParam().policy();
  policy.handshake_failure_exit_wait = spec.handshake();  // any duration
  const Duration wait = *policy.handshake_failure_exit_wait;
  FakeDriver w(policy);
  w.start();
  w.spawned();
  Actions out = w.handshake_failed("-32603 internal: boom", /*mismatch=*/false);
  ASSERT_THAT(briefs(out), ElementsAre(stopped(StopCause::kHandshakeFailed)));
  EXPECT_EQ(w.state(), State::kTerminating);
  EXPECT_EQ(w.until_deadline(), wait);
  w.advance(wait - 1ms);
  EXPECT_THAT(w.tick(), IsEmpty());
  w.advance(1ms);
  EXPECT_THAT(briefs(w.tick()), ElementsAre("kill"));
  EXPECT_FALSE(w.sup().next_deadline());
  out = w.exited(killed_by(9));
  ASSERT_THAT(briefs(out), ElementsAre(restart(spec.backoff(0))));
  EXPECT_EQ(out[0].cause, StopCause::kHandshakeFailed);

  // Exits by itself within the wait: no kill, the same restart.
  FakeDriver early(policy);
  early.start();
  early.spawned();
  early.handshake_failed("boom", false);
  early.advance(wait / 2);
  out = early.exited(exit_code(1));
  ASSERT_THAT(briefs(out), ElementsAre(restart(spec.backoff(0))));
  EXPECT_THAT(briefs(early.run_for(spec.backoff(0))), ElementsAre("spawn"))
      << "the restart, and no kill after the exit";
}

// handshake_failure_stops (MCP: a refused initialize ends as any stdio session does, by
// closing stdin, SIGTERM, then SIGKILL): the stop sequence without its protocol steps
// (shutdown, exit), and at the exit the failure's restart, with no exit_timeout reported.
TEST_P(RestartTest, AStopSequenceAfterAFailedHandshakeSendsNothingOfTheProtocol) {
  Policy policy = GetParam().policy();
  policy.handshake_failure_stops = true;
  policy.stop = {
      StopStep{StopStep::Kind::kShutdown},   StopStep{StopStep::Kind::kExit},
      StopStep{StopStep::Kind::kCloseStdin}, StopStep{StopStep::Kind::kWait, Duration{2000}},
      StopStep{StopStep::Kind::kSigterm},    StopStep{StopStep::Kind::kWait, Duration{2000}},
      StopStep{StopStep::Kind::kKill}};
  FakeDriver w(policy);
  w.start();
  w.spawned();
  Actions out = w.handshake_failed("-32602 unsupported protocol version", /*mismatch=*/false);
  ASSERT_THAT(briefs(out), ElementsAre(stopped(StopCause::kHandshakeFailed), "close_stdin"));
  EXPECT_EQ(w.state(), State::kStopping);
  EXPECT_EQ(w.until_deadline(), Duration{2000});
  w.advance(Duration{2000});
  EXPECT_THAT(briefs(w.tick()), ElementsAre("sigterm")) << "no exit_timeout: the refusal was told";
  w.advance(Duration{2000});
  EXPECT_THAT(briefs(w.tick()), ElementsAre("kill"));
  out = w.exited(killed_by(9));
  ASSERT_THAT(briefs(out), ElementsAre(restart(spec.backoff(0))));
  EXPECT_EQ(out[0].cause, StopCause::kHandshakeFailed);

  // Exits at stdin's end, as an MCP server does: no signal, the same restart.
  FakeDriver early(policy);
  early.start();
  early.spawned();
  early.handshake_failed("boom", false);
  early.advance(Duration{100});
  out = early.exited(exit_code(0));
  ASSERT_THAT(briefs(out), ElementsAre(restart(spec.backoff(0))));
  EXPECT_THAT(briefs(early.run_for(spec.backoff(0))), ElementsAre("spawn"));

  // Refused for good: disabled once it has exited; a stop() meanwhile leaves it stopped.
  FakeDriver rejected(policy);
  rejected.start();
  rejected.spawned();
  out = rejected.handshake_failed("speaks 2", /*mismatch=*/true);
  ASSERT_THAT(briefs(out), ElementsAre(stopped(StopCause::kHandshakeRejected), "close_stdin"));
  out = rejected.exited(exit_code(0));
  ASSERT_THAT(briefs(out), ElementsAre(disabled(StopCause::kHandshakeRejected)));
  FakeDriver stopped_meanwhile(policy);
  stopped_meanwhile.start();
  stopped_meanwhile.spawned();
  stopped_meanwhile.handshake_failed("boom", false);
  EXPECT_THAT(briefs(stopped_meanwhile.stop()), IsEmpty()) << "already stopping";
  EXPECT_THAT(briefs(stopped_meanwhile.exited(exit_code(0))), IsEmpty());
  EXPECT_EQ(stopped_meanwhile.state(), State::kStopped);
}

TEST_P(RestartTest, ProtocolVersionMismatchDisablesAndIsNeverRestarted) {
  d.start();
  d.spawned();
  Actions out = d.handshake_failed("protocol_version_mismatch: speaks 2", /*mismatch=*/true);
  ASSERT_THAT(briefs(out), ElementsAre(stopped(StopCause::kHandshakeRejected), "kill"));
  EXPECT_EQ(d.state(), State::kTerminating);

  out = d.exited(exit_code(0));
  ASSERT_THAT(briefs(out), ElementsAre(disabled(StopCause::kHandshakeRejected)));
  EXPECT_EQ(out[0].detail, "protocol_version_mismatch: speaks 2");
  EXPECT_EQ(d.state(), State::kDisabled);
  EXPECT_FALSE(d.sup().next_deadline());
  EXPECT_EQ(d.sup().restarts_in_window(d.now()), 0) << "not a restart";
  EXPECT_THAT(briefs(d.run_for(1h)), IsEmpty());
}

TEST_P(RestartTest, ProtocolVersionMismatchAfterARestartStillDisables) {
  d.bring_up();
  ASSERT_THAT(briefs(d.exited(exit_code(3))),
              ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(0))));
  d.fire();
  d.spawned();
  d.handshake_failed("mismatch", true);
  EXPECT_THAT(briefs(d.exited(killed_by(9))),
              ElementsAre(disabled(StopCause::kHandshakeRejected)));
  EXPECT_EQ(d.state(), State::kDisabled);
}

TEST_P(RestartTest, MalformedFrameKillsAndRestarts) {
  d.bring_up();
  Actions out = d.frame_error(/*oversize=*/false, "header line without ':'");
  ASSERT_THAT(briefs(out), ElementsAre(stopped(StopCause::kMalformedFrame), "kill"));
  EXPECT_EQ(out[0].detail, "header line without ':'");
  EXPECT_EQ(d.state(), State::kTerminating);
  EXPECT_FALSE(d.sup().next_deadline()) << "no pings to a process being killed";
  out = d.exited(killed_by(9));
  ASSERT_THAT(briefs(out), ElementsAre(restart(spec.backoff(0))));
  EXPECT_EQ(out[0].cause, StopCause::kMalformedFrame);
}

TEST_P(RestartTest, OversizedFrameKillsAndRestarts) {
  d.bring_up();
  Actions out = d.frame_error(/*oversize=*/true, "Content-Length 4194305 > 4194304");
  ASSERT_THAT(briefs(out), ElementsAre(stopped(StopCause::kOversizedFrame), "kill"));
  EXPECT_EQ(out[0].detail, "Content-Length 4194305 > 4194304");
  out = d.exited(killed_by(9));
  ASSERT_THAT(briefs(out), ElementsAre(restart(spec.backoff(0))));
  EXPECT_EQ(out[0].cause, StopCause::kOversizedFrame);
}

TEST_P(RestartTest, FrameErrorDuringTheHandshakeKillsAndRestarts) {
  d.start();
  d.spawned();
  EXPECT_THAT(briefs(d.frame_error(true)),
              ElementsAre(stopped(StopCause::kOversizedFrame), "kill"));
  EXPECT_FALSE(d.sup().next_deadline()) << "handshake deadline cancelled";
  EXPECT_THAT(briefs(d.exited(killed_by(9))), ElementsAre(restart(spec.backoff(0))));
}

// --- backoff and the crash-loop window -------------------------------------------------------

TEST_P(RestartTest, BackoffIsOneFiveTwentyFiveSecondsThenTheFourthFailureDisables) {
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_THAT(briefs(crash_cycle()),
                ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(i))))
        << "failure " << i + 1;
    EXPECT_EQ(d.sup().restarts_in_window(d.now()), static_cast<int>(i) + 1);
    // The relaunch happens exactly `delay` after the failure.
    d.advance(spec.backoff(i) - 1ms);
    ASSERT_THAT(d.tick(), IsEmpty());
    d.advance(1ms);
    EXPECT_EQ(d.sup().next_deadline(), d.now());
  }
  // The backoff timer is due now; bring_up() fires it.
  d.bring_up();
  d.advance(1s);
  Actions out = d.exited(exit_code(3));
  ASSERT_THAT(briefs(out),
              ElementsAre(stopped(StopCause::kCrashed), disabled(StopCause::kCrashed)));
  EXPECT_EQ(out[0].detail, "exit code 3");
  EXPECT_THAT(out[1].detail, HasSubstr("more than 3 restarts within"));
  EXPECT_THAT(out[1].detail, HasSubstr("crashed"));
  EXPECT_EQ(d.state(), State::kDisabled);
  EXPECT_FALSE(d.sup().next_deadline());

  // Disabled means disabled: no timer, no spawn, no reaction to stray events.
  EXPECT_THAT(briefs(d.run_for(1h)), IsEmpty());
  EXPECT_THAT(d.spawned(), IsEmpty());
  EXPECT_THAT(d.exited(exit_code(3)), IsEmpty());
  EXPECT_EQ(d.state(), State::kDisabled);
}

TEST_P(RestartTest, EveryKindOfFailureCountsTowardsTheSameWindow) {
  // 1: handshake timeout.
  d.start();
  d.spawned();
  ASSERT_THAT(briefs(d.fire()), ElementsAre(stopped(StopCause::kHandshakeTimeout), "kill"));
  ASSERT_THAT(briefs(d.exited()), ElementsAre(restart(spec.backoff(0))));
  // 2: launch failure.
  ASSERT_THAT(briefs(d.fire()), ElementsAre("spawn"));
  ASSERT_THAT(briefs(d.launch_failed()),
              ElementsAre(stopped(StopCause::kLaunchFailed), restart(spec.backoff(1))));
  // 3: oversized frame.
  d.bring_up();
  ASSERT_THAT(briefs(d.frame_error(true)),
              ElementsAre(stopped(StopCause::kOversizedFrame), "kill"));
  ASSERT_THAT(briefs(d.exited()), ElementsAre(restart(spec.backoff(2))));
  // 4: generic handshake failure -> more than 3 restarts: disabled.
  ASSERT_THAT(briefs(d.fire()), ElementsAre("spawn"));
  d.spawned();
  ASSERT_THAT(briefs(d.handshake_failed("no", false)),
              ElementsAre(stopped(StopCause::kHandshakeFailed), "kill"));
  EXPECT_THAT(briefs(d.exited()), ElementsAre(disabled(StopCause::kHandshakeFailed)));
  EXPECT_EQ(d.state(), State::kDisabled);
}

TEST_P(RestartTest, TheWindowSlidesOldFailuresDropOut) {
  const TimePoint t0 = d.now();
  d.bring_up();
  // Failures at 0, 4 min, 8 min: three restarts in the window (1 s, 5 s, 25 s).
  ASSERT_THAT(briefs(crash_at(t0)),
              ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(0))));
  d.bring_up();
  ASSERT_THAT(briefs(crash_at(t0 + spec.scale(4min))),
              ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(1))));
  d.bring_up();
  ASSERT_THAT(briefs(crash_at(t0 + spec.scale(8min))),
              ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(2))));
  d.bring_up();
  // 10 min + 1 s: the failure at 0 has left the window; two remain -> restart, not disabled.
  const TimePoint fourth = t0 + spec.window() + spec.scale(1s);
  EXPECT_EQ(d.sup().restarts_in_window(fourth), 2);
  ASSERT_THAT(briefs(crash_at(fourth)),
              ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(2))));
  EXPECT_EQ(d.sup().restarts_in_window(d.now()), 3);
  d.bring_up();
  // 12 min: 4 min, 8 min and 10 min 1 s are all within 10 minutes -> the 4th: disabled.
  EXPECT_THAT(briefs(crash_at(t0 + spec.scale(12min))),
              ElementsAre(stopped(StopCause::kCrashed), disabled(StopCause::kCrashed)));
  EXPECT_EQ(d.state(), State::kDisabled);
}

TEST_P(RestartTest, FailuresSpacedOutKeepRestartingForever) {
  // One failure every 3.5 minutes: at most three fall within any 10 minutes.
  const TimePoint t0 = d.now();
  d.bring_up();
  std::vector<Duration> delays;
  for (int i = 0; i < 25; ++i) {
    Actions out = crash_at(t0 + i * spec.scale(210s));
    ASSERT_EQ(out.size(), 2u) << "failure " << i;
    ASSERT_EQ(out[1].kind, Action::Kind::kRestartScheduled)
        << "failure " << i << ": " << brief(out[1]);
    delays.push_back(out[1].delay);
    d.bring_up();
  }
  // 1 s, 5 s, then 25 s for as long as two earlier failures are in the window.
  EXPECT_EQ(delays[0], spec.backoff(0));
  EXPECT_EQ(delays[1], spec.backoff(1));
  for (std::size_t i = 2; i < delays.size(); ++i) EXPECT_EQ(delays[i], spec.backoff(2)) << i;
  EXPECT_EQ(d.state(), State::kRunning);
}

TEST_P(RestartTest, WindowBoundaryAFailureExactlyTenMinutesLaterHasLeftIt) {
  // Failures at 0, 1 min, 2 min; a fourth 1 ms before 10 min disables ...
  for (const Duration fourth : {spec.window() - 1ms, spec.window()}) {
    FakeDriver run{GetParam().policy()};
    const TimePoint t0 = run.now();
    run.bring_up();
    for (int i = 0; i < 3; ++i) {
      run.run_until(t0 + i * spec.scale(1min), true);
      ASSERT_EQ(run.exited(exit_code(3)).size(), 2u);
      run.bring_up();
    }
    run.run_until(t0 + fourth, true);
    Actions out = run.exited(exit_code(3));
    ASSERT_EQ(out.size(), 2u);
    if (fourth < spec.window()) {
      EXPECT_EQ(brief(out[1]), disabled(StopCause::kCrashed)) << "... one at exactly 10 min";
    } else {
      EXPECT_EQ(brief(out[1]), restart(spec.backoff(2))) << "does not count the one at 0";
    }
  }
}

TEST_P(RestartTest, BackoffGoesBackToOneSecondAfterAHealthyPeriod) {
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_THAT(briefs(crash_cycle()),
                ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(i))));
  }
  d.bring_up();
  // Eleven minutes of healthy running after three restarts...
  Actions out = crash_at(d.now() + spec.scale(11min));
  // ... and the next failure is a first failure again.
  EXPECT_THAT(briefs(out), ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(0))));
  EXPECT_EQ(d.sup().restarts_in_window(d.now()), 1);
  EXPECT_THAT(briefs(crash_cycle()),
              ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(1))));
}

TEST_P(RestartTest, AShorterHealthyPeriodDoesNotForgiveTheCrashLoop) {
  // The counterpart of the test above: 9 minutes are not enough.
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_THAT(briefs(crash_cycle()),
                ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(i))));
  }
  d.bring_up();
  EXPECT_THAT(briefs(crash_at(d.now() + spec.scale(9min))),
              ElementsAre(stopped(StopCause::kCrashed), disabled(StopCause::kCrashed)));
}

TEST_P(RestartTest, BackoffStepFollowsTheFailuresStillInTheWindow) {
  // Two quick failures (1 s, 5 s), then 6 minutes of health: both still count -> 25 s.
  ASSERT_THAT(briefs(crash_cycle()), Contains(restart(spec.backoff(0))));
  ASSERT_THAT(briefs(crash_cycle()), Contains(restart(spec.backoff(1))));
  d.bring_up();
  EXPECT_THAT(briefs(crash_at(d.now() + spec.scale(6min))), Contains(restart(spec.backoff(2))));
  // 5 more minutes: the first two have left, only the 6-minute one remains -> 5 s.
  d.bring_up();
  EXPECT_THAT(briefs(crash_at(d.now() + spec.scale(5min))), Contains(restart(spec.backoff(1))));
}

// --- stop and start around restarts ----------------------------------------------------------

TEST_P(RestartTest, StopWhileARestartIsPendingCancelsIt) {
  d.bring_up();
  ASSERT_THAT(briefs(d.exited(exit_code(3))), Contains(restart(spec.backoff(0))));
  const TimePoint restart_due = *d.sup().next_deadline();

  d.advance(spec.backoff(0) / 2);
  Actions out = d.stop();
  ASSERT_THAT(briefs(out), ElementsAre(stopped(StopCause::kRequested)));
  EXPECT_EQ(out[0].detail, "pending restart cancelled");
  EXPECT_EQ(d.state(), State::kStopped);
  EXPECT_FALSE(d.sup().next_deadline());

  // The old deadline passes: no spawn.
  d.advance_to(restart_due);
  EXPECT_THAT(d.tick(), IsEmpty());
  d.advance(1h);
  EXPECT_THAT(d.tick(), IsEmpty());
  EXPECT_EQ(d.state(), State::kStopped);
}

TEST_P(RestartTest, StopWhileAFailedProcessIsBeingKilledDoesNotRestart) {
  d.bring_up();
  ASSERT_THAT(briefs(d.frame_error(false)),
              ElementsAre(stopped(StopCause::kMalformedFrame), "kill"));
  EXPECT_THAT(d.stop(), IsEmpty()) << "already being killed";
  Actions out = d.exited(killed_by(9));
  EXPECT_THAT(briefs(out), Not(Contains(restart(spec.backoff(0)))));
  EXPECT_EQ(d.state(), State::kStopped);
  EXPECT_FALSE(d.sup().next_deadline());
  EXPECT_THAT(briefs(d.run_for(1h)), IsEmpty());
}

TEST_P(RestartTest, StartIsIgnoredWhileARestartIsPending) {
  d.bring_up();
  d.exited(exit_code(3));
  const auto due = d.sup().next_deadline();
  EXPECT_THAT(d.start(), IsEmpty()) << "the restart timer owns the next spawn";
  EXPECT_EQ(d.sup().next_deadline(), due);
  EXPECT_THAT(briefs(d.fire()), ElementsAre("spawn"));
}

TEST_P(RestartTest, StartAfterDisabledReEnablesWithAFreshWindow) {
  for (std::size_t i = 0; i < 3; ++i) crash_cycle();
  ASSERT_THAT(briefs(crash_cycle()),
              ElementsAre(stopped(StopCause::kCrashed), disabled(StopCause::kCrashed)));
  ASSERT_EQ(d.state(), State::kDisabled);

  d.advance(1s);  // well inside the old window
  EXPECT_THAT(briefs(d.start()), ElementsAre("spawn"));
  EXPECT_EQ(d.sup().restarts_in_window(d.now()), 0);
  d.spawned();
  d.handshake_ok();
  // A fresh window: the full 1 s / 5 s / 25 s sequence again before the next disable.
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_THAT(briefs(d.exited(exit_code(3))),
                ElementsAre(stopped(StopCause::kCrashed), restart(spec.backoff(i))));
    d.bring_up();
  }
  EXPECT_THAT(briefs(d.exited(exit_code(3))),
              ElementsAre(stopped(StopCause::kCrashed), disabled(StopCause::kCrashed)));
}

TEST_P(RestartTest, StartAfterAMismatchDisableTriesAgain) {
  d.start();
  d.spawned();
  d.handshake_failed("mismatch", true);
  d.exited(exit_code(0));
  ASSERT_EQ(d.state(), State::kDisabled);
  EXPECT_THAT(briefs(d.start()), ElementsAre("spawn"));
  EXPECT_THAT(briefs(d.spawned()), ElementsAre("handshake"));
  EXPECT_THAT(briefs(d.handshake_ok()), ElementsAre("handshake_done", "running"));
}

}  // namespace
}  // namespace rpckit::supervision::testing
