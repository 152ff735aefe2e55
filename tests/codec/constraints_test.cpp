// The constraint checks generated decoders call: what their messages say.
#include <gtest/gtest.h>

#include "rpckit/codec/codec.hpp"

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

}  // namespace
}  // namespace rpckit::codec
