// RateLimit, the token bucket behind a protocol's rate-limited host methods, on a clock the
// test moves by hand.
#include <gtest/gtest.h>

#include "rpckit/roles/rate_limit.hpp"

namespace {

using namespace std::chrono_literals;
using rpckit::roles::RateLimit;
using rpckit::supervision::TimePoint;

const TimePoint t0{};

TEST(RateLimit, ABurstPassesThenTheNextWaitsAWholeRefill) {
  RateLimit limit(3, 10000ms);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(limit.take(t0), std::nullopt) << i;
  EXPECT_EQ(limit.take(t0), 10000);
  EXPECT_EQ(limit.take(t0), 10000) << "a refused call takes nothing";
}

TEST(RateLimit, RetryAfterIsTheTimeLeftUntilTheNextToken) {
  RateLimit limit(3, 10000ms);
  for (int i = 0; i < 3; ++i) (void)limit.take(t0);
  EXPECT_EQ(limit.take(t0 + 2500ms), 7500);
  EXPECT_EQ(limit.take(t0 + 9999ms), 1);
  EXPECT_EQ(limit.take(t0 + 10000ms), std::nullopt);  // one token earned, taken
  EXPECT_EQ(limit.take(t0 + 10000ms), 10000);
  EXPECT_EQ(limit.take(t0 + 10000ms + 1us), 10000) << "rounded up to whole milliseconds";
}

TEST(RateLimit, IdleTimeRefillsUpToTheBurstAndNoMore) {
  RateLimit limit(3, 10000ms);
  for (int i = 0; i < 3; ++i) (void)limit.take(t0);
  TimePoint later = t0 + 24h;
  for (int i = 0; i < 3; ++i) EXPECT_EQ(limit.take(later), std::nullopt) << i;
  EXPECT_EQ(limit.take(later), 10000);
}

TEST(RateLimit, AClockThatGoesBackNeitherEarnsNorBreaks) {
  RateLimit limit(1, 1000ms);
  EXPECT_EQ(limit.take(t0 + 5000ms), std::nullopt);
  EXPECT_EQ(limit.take(t0), 1000);
  EXPECT_EQ(limit.take(t0 + 6000ms), std::nullopt);
}

TEST(RateLimit, AZeroRefillNeverLimits) {
  RateLimit limit(1, 0ms);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(limit.take(t0 + std::chrono::milliseconds(i)), std::nullopt);
}

}  // namespace
