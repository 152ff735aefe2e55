// Pings (spec section 2): every 30 s; 3 consecutive misses = unhealthy -> restart. A ping is
// missed when the next one is due and it has no answer; any answer resets the count.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver.hpp"

namespace rpckit::supervision::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class HealthTest : public SupervisorTest {
 protected:
  // bring_up() and remember when running started (the ping cadence counts from there).
  void up() {
    d.bring_up();
    last_timer_ = d.now();
  }
  // Fires the next deadline, checks it is exactly one ping interval after the previous one
  // (answers in between do not move it) and returns what it did.
  std::vector<std::string> next_ping_tick() {
    const auto due = d.sup().next_deadline();
    EXPECT_TRUE(due.has_value());
    if (!due) return {};
    EXPECT_EQ(*due - last_timer_, spec.ping()) << "ping cadence";
    last_timer_ = *due;
    return briefs(d.fire());
  }
  TimePoint last_timer_{};
};
RPCKIT_SUPERVISION_POLICIES(HealthTest);

TEST_P(HealthTest, FirstPingIsOneIntervalAfterRunning) {
  up();
  const TimePoint running = d.now();
  d.advance_to(running + spec.ping() - 1ms);
  EXPECT_THAT(d.tick(), IsEmpty());
  d.advance_to(running + spec.ping());
  EXPECT_THAT(briefs(d.tick()), ElementsAre("health_check"));
  EXPECT_EQ(d.sup().missed_health_checks(), 0) << "a ping just sent is not missed";
  EXPECT_EQ(d.until_deadline(), spec.ping());
}

TEST_P(HealthTest, NoPingDuringTheHandshake) {
  d.start();
  d.spawned();
  // The only timer is the handshake deadline, which is not a ping.
  EXPECT_THAT(briefs(d.fire()), ElementsAre(stopped(StopCause::kHandshakeTimeout), "kill"));
}

TEST_P(HealthTest, AnsweredPingsNeverCount) {
  up();
  int pings = 0;
  for (int i = 0; i < 200; ++i) {
    ASSERT_THAT(next_ping_tick(), ElementsAre("health_check")) << "ping " << i;
    ++pings;
    // Answer at various points inside the interval, including 1 ms before the next ping.
    const Duration delays[] = {0ms, 1ms, spec.ping() / 2, spec.ping() - 1ms};
    const Duration delay = delays[i % 4];
    d.advance(delay);
    EXPECT_THAT(d.check_answered(), IsEmpty());
    EXPECT_EQ(d.sup().missed_health_checks(), 0);
  }
  EXPECT_EQ(pings, 200);
  EXPECT_EQ(d.state(), State::kRunning);
  EXPECT_EQ(d.sup().restarts_in_window(d.now()), 0);
}

TEST_P(HealthTest, RunUntilAnsweringPingsStaysHealthyForAnHour) {
  up();
  Actions out = d.run_for(spec.scale(1h), /*answer_pings=*/true);
  ASSERT_EQ(out.size(), 120u) << "one ping per 30 s for an hour";
  for (const auto& a : out) EXPECT_EQ(a.kind, Action::Kind::kSendHealthCheck);
  EXPECT_EQ(d.state(), State::kRunning);
}

TEST_P(HealthTest, ThreeConsecutiveMissesMakeThePluginUnhealthy) {
  up();
  const TimePoint running = d.now();
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));  // 30 s: ping 1
  EXPECT_EQ(d.sup().missed_health_checks(), 0);
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));  // 60 s: ping 1 missed, ping 2
  EXPECT_EQ(d.sup().missed_health_checks(), 1);
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));  // 90 s: ping 2 missed, ping 3
  EXPECT_EQ(d.sup().missed_health_checks(), 2);

  d.advance(spec.ping() - 1ms);  // 119.999 s: ping 3 not yet missed
  EXPECT_THAT(d.tick(), IsEmpty());
  EXPECT_EQ(d.state(), State::kRunning);
  d.advance(1ms);  // 120 s: third miss
  EXPECT_EQ(d.now() - running, 4 * spec.ping());
  Actions out = d.tick();
  ASSERT_THAT(briefs(out), ElementsAre(stopped(StopCause::kUnhealthy), "kill"));
  EXPECT_THAT(out[0].detail, HasSubstr("3 health checks"));
  EXPECT_EQ(d.state(), State::kTerminating);
  EXPECT_FALSE(d.sup().next_deadline()) << "no more pings to a process being killed";

  out = d.exited(killed_by(9));
  ASSERT_THAT(briefs(out), ElementsAre(restart(spec.backoff(0))));
  EXPECT_EQ(out[0].cause, StopCause::kUnhealthy);

  // The restarted process starts with a clean count.
  up();
  EXPECT_EQ(d.sup().missed_health_checks(), 0);
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));
  EXPECT_THAT(next_ping_tick(), ElementsAre(stopped(StopCause::kUnhealthy), "kill"));
}

TEST_P(HealthTest, TwoMissesThenAPongResetTheCount) {
  up();
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));  // 30 s
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));  // 60 s, miss 1
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));  // 90 s, miss 2
  ASSERT_EQ(d.sup().missed_health_checks(), 2);
  d.advance(spec.ping() / 3);
  EXPECT_THAT(d.check_answered(), IsEmpty());  // ping 3 answered in time
  EXPECT_EQ(d.sup().missed_health_checks(), 0);

  // Three fresh misses are needed again: 120 s ping, 150 s miss 1, 180 s miss 2, 210 s miss 3.
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));
  EXPECT_EQ(d.sup().missed_health_checks(), 0);
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));
  EXPECT_EQ(d.sup().missed_health_checks(), 1);
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));
  EXPECT_EQ(d.sup().missed_health_checks(), 2);
  EXPECT_THAT(next_ping_tick(), ElementsAre(stopped(StopCause::kUnhealthy), "kill"));
}

TEST_P(HealthTest, APingAnsweredLateResetsTheMisses) {
  up();
  const TimePoint running = d.now();
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));  // 30 s: ping 1
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));  // 60 s: ping 1 missed, ping 2 sent
  ASSERT_EQ(d.sup().missed_health_checks(), 1);

  d.advance(1ms);  // the answer to ping 1 arrives after ping 2 was sent
  EXPECT_THAT(d.check_answered(), IsEmpty());
  EXPECT_EQ(d.sup().missed_health_checks(), 0) << "a late answer proves the plugin alive";

  // Without the reset, 120 s would be the third miss. With it, nothing until the plugin
  // leaves three more pings unanswered.
  Actions out = d.run_until(running + 5 * spec.ping());  // through 150 s
  EXPECT_THAT(briefs(out), ElementsAre("health_check", "health_check", "health_check"));
  EXPECT_EQ(d.state(), State::kRunning);
  out = d.run_until(running + 6 * spec.ping());  // 180 s
  EXPECT_THAT(briefs(out), ElementsAre(stopped(StopCause::kUnhealthy), "kill"));
}

TEST_P(HealthTest, ExtraPongsDoNotBankCredit) {
  up();
  for (int i = 0; i < 10; ++i) EXPECT_THAT(d.check_answered(), IsEmpty());  // nothing was asked
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));
  EXPECT_THAT(next_ping_tick(), ElementsAre("health_check"));
  EXPECT_THAT(next_ping_tick(), ElementsAre(stopped(StopCause::kUnhealthy), "kill"));
}

TEST_P(HealthTest, AnUnhealthyRestartCountsTowardsTheCrashLoop) {
  for (std::size_t i = 0; i < 3; ++i) {
    up();
    ASSERT_THAT(briefs(d.run_for(4 * spec.ping())),
                ElementsAre("health_check", "health_check", "health_check", stopped(StopCause::kUnhealthy), "kill"));
    ASSERT_THAT(briefs(d.exited(killed_by(9))), ElementsAre(restart(spec.backoff(i))));
  }
  up();
  ASSERT_THAT(briefs(d.run_for(4 * spec.ping())),
              ElementsAre("health_check", "health_check", "health_check", stopped(StopCause::kUnhealthy), "kill"));
  EXPECT_THAT(briefs(d.exited(killed_by(9))), ElementsAre(disabled(StopCause::kUnhealthy)));
  EXPECT_EQ(d.state(), State::kDisabled);
}

}  // namespace
}  // namespace rpckit::supervision::testing
