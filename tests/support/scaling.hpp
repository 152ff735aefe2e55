// "Linear time" proven by a relative fact, not a duration: the same work at n and at 8n, timed
// in one process, must scale by less than 32x (linear work scales by about 8x, quadratic by
// 64x). The two sizes alternate and each keeps its best of `rounds`, so a stall of a loaded
// machine slows one timing, not the verdict.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <functional>

#include <gtest/gtest.h>

namespace test_support {

inline ::testing::AssertionResult grows_linearly(const std::function<void(std::size_t)>& run,
                                                 std::size_t n, int rounds = 3) {
  using Clock = std::chrono::steady_clock;
  Clock::duration small = Clock::duration::max();
  Clock::duration large = Clock::duration::max();
  for (int i = 0; i < rounds; ++i) {
    const auto start = Clock::now();
    run(n);
    const auto middle = Clock::now();
    run(8 * n);
    small = std::min(small, middle - start);
    large = std::min(large, Clock::now() - middle);
  }
  const double ratio = static_cast<double>(large.count()) /
                       static_cast<double>(std::max<Clock::rep>(small.count(), 1));
  const auto ms = [](Clock::duration d) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  };
  auto result = ratio < 32 ? ::testing::AssertionSuccess() : ::testing::AssertionFailure();
  return result << n << " took " << ms(small) << " ms, " << 8 * n << " took " << ms(large)
                << " ms: " << ratio << "x for 8x the input (linear: about 8x, quadratic: 64x)";
}

}  // namespace test_support
