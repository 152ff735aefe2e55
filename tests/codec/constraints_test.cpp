// The constraint checks generated decoders call: what their messages say.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rpckit/codec/codec.hpp"
#include "scaling.hpp"

namespace rpckit::codec {
namespace {

std::string range_error(double v, std::optional<double> min, std::optional<double> max) {
  DecodePath path("params.volume");
  try {
    check_range(v, min, max, path);
  } catch (const DecodeError& e) {
    return e.what();
  }
  return "";
}

TEST(CheckRange, BoundsReadAsTheSchemaWroteThem) {
  EXPECT_EQ(range_error(9, 0.0, 8.0), "params.volume: expected a number <= 8");
  EXPECT_EQ(range_error(-1, 0.0, 8.0), "params.volume: expected a number >= 0");
  EXPECT_EQ(range_error(0.25, 0.5, std::nullopt), "params.volume: expected a number >= 0.5");
  EXPECT_EQ(range_error(1e300, std::nullopt, 1e20), "params.volume: expected a number <= 1e+20");
  EXPECT_EQ(range_error(4, 0.0, 8.0), "");
}

// uniqueItems on a stranger's list: every repeat is found with the earliest item it repeats,
// in O(n log n) (sorted, neighbours compared), not pairwise: 8x the items take well under
// 64x the time (test_support::grows_linearly).
TEST(Duplicates, GrowNearlyLinearly) {
  const auto items = [](std::size_t n) {
    std::vector<nlohmann::json> out;
    out.reserve(n + 1);
    for (std::size_t i = 0; i < n; ++i) out.emplace_back("x" + std::to_string(i));
    out.emplace_back("x0");
    return out;
  };
  EXPECT_TRUE(test_support::grows_linearly([&](std::size_t n) {
    const std::vector<nlohmann::json> list = items(n);
    const std::vector<Duplicate> found = duplicates(list);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].earlier, 0u);
    EXPECT_EQ(found[0].later, n);
  }, 20000));
}

}  // namespace
}  // namespace rpckit::codec
