// rpckit::codec::Pattern: RE2 underneath, linear in the input whatever the pattern.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "rpckit/codec/codec.hpp"
#include "rpckit/codec/pattern.hpp"

namespace rpckit::codec {
namespace {

TEST(Pattern, SearchesUnanchoredUnlessThePatternAnchors) {
  Pattern anywhere("b+", "b+");
  EXPECT_TRUE(anywhere.search("abbbc"));
  EXPECT_FALSE(anywhere.search("ac"));
  Pattern whole("^b+$", "^b+$");
  EXPECT_FALSE(whole.search("abbbc"));
  EXPECT_TRUE(whole.search("bbb"));
  EXPECT_FALSE(whole.search("bbb\n")) << "$ is the end of the text, as in ECMAScript";
  EXPECT_EQ(whole.source(), "^b+$");
}

TEST(Pattern, MatchesCodePointsNotBytes) {
  Pattern one("^.$", "^.$");
  EXPECT_TRUE(one.search("\xC3\xA9"));
  EXPECT_TRUE(one.search("\xF0\x9F\x98\x80"));
}

TEST(Pattern, InvalidPatternThrows) { EXPECT_THROW(Pattern("(", "("), std::invalid_argument); }

// The crash that opened the hostile-input issue: std::regex recursed once per character of a
// 30 KB playlist_url and overflowed the stack. RE2 takes a 4 MiB string in its stride.
TEST(Pattern, MegabyteInputsAreMatchedWithoutRecursion) {
  Pattern url(R"(^https?://[^\t\n\x{0B}\f\r ]+([/?#][^\t\n\x{0B}\f\r ]*)?$)",
              R"(^https?://[^\s/?#]+([/?#]\S*)?$)");
  std::string long_url = "http://a/" + std::string(4 << 20, 'b');
  EXPECT_TRUE(url.search(long_url));
  long_url.back() = ' ';
  EXPECT_FALSE(url.search(long_url));
  // A pattern that backtracks exponentially in a backtracking engine.
  Pattern evil("^(a+)+$", "^(a+)+$");
  EXPECT_FALSE(evil.search(std::string(100000, 'a') + "!"));
}

TEST(Pattern, CheckPatternNamesTheSchemaSource) {
  Pattern p("^[a-z]+$", "^[a-z]+$");
  DecodePath path("params");
  path.push_key("name");
  try {
    check_pattern("ABC", p, path);
    FAIL() << "no DecodeError";
  } catch (const DecodeError& e) {
    EXPECT_STREQ(e.what(), "params.name: expected a string matching ^[a-z]+$");
  }
  EXPECT_NO_THROW(check_not_pattern("ABC", p, path));
}

}  // namespace
}  // namespace rpckit::codec
