// Generated lines wrapped at 100 columns (emit/wrap.hpp): where a line breaks, and that a
// literal cut into adjacent literals still holds the same characters.
#include <gtest/gtest.h>

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

#include "emit/wrap.hpp"

namespace rpckit::gen::test {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The characters of the literals on `lines` ("..." or R"d(...)d"), joined as C++ joins them.
std::string literal_text(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) {
    std::size_t raw = line.find("R\"d(");
    if (raw != std::string::npos) {
      out += line.substr(raw + 4, line.find(")d\"", raw) - raw - 4);
      continue;
    }
    std::size_t open = line.find('"');
    std::size_t close = line.rfind('"');
    if (open != std::string::npos && close > open) out += line.substr(open + 1, close - open - 1);
  }
  return out;
}

TEST(Wrap, ShortLinesCommentsAndDirectivesStayAsTheyAre) {
  const std::string text = "  int a = f(b, c);\n"
                           "// " + std::string(120, 'x') + "\n"
                           "#include \"" + std::string(120, 'y') + "\"\n";
  EXPECT_EQ(wrap_lines(text, 100), text);
}

TEST(Wrap, ACallBreaksAfterACommaAlignedAfterItsBracket) {
  const std::string line = "void check_name(const std::optional<std::vector<std::string>>& value, "
                           "rpckit::codec::DecodePath& path) {\n";
  EXPECT_EQ(wrap_lines(line, 80),
            "void check_name(const std::optional<std::vector<std::string>>& value,\n"
            "                rpckit::codec::DecodePath& path) {\n");
}

TEST(Wrap, AnAssignmentBreaksAfterTheEqualsSignFourMore) {
  EXPECT_EQ(wrap_lines("  static constexpr rpckit::ParamsPresence kParamsPresence = "
                       "rpckit::ParamsPresence::kOptionalSendEmpty;\n",
                       100),
            "  static constexpr rpckit::ParamsPresence kParamsPresence =\n"
            "      rpckit::ParamsPresence::kOptionalSendEmpty;\n");
}

TEST(Wrap, ALongRawLiteralBecomesAdjacentLiteralsWithTheSameText) {
  std::string pattern;
  for (int i = 0; i < 30; ++i) pattern += "(a|[0-9]\\x{2028})";
  std::vector<std::string> lines = lines_of(wrap_lines("      R\"d(" + pattern + ")d\",\n", 100));
  ASSERT_GT(lines.size(), 1u);
  for (const std::string& line : lines) {
    EXPECT_LE(line.size(), 100u) << line;
    EXPECT_EQ(line.rfind("      R\"d(", 0), 0u) << line;  // each piece aligned with the first
  }
  EXPECT_EQ(literal_text(lines), pattern);
  EXPECT_EQ(lines.back().back(), ',');
}

TEST(Wrap, AnOrdinaryLiteralIsNotCutInsideAnEscapeNorACharacter) {
  std::string text;
  for (int i = 0; i < 40; ++i) text += "\\x41\\n\\\"\xC3\xA9";  // \x41 \n \" and a 2-byte é
  std::vector<std::string> lines = lines_of(wrap_lines("  f(\"" + text + "\");\n", 60));
  ASSERT_GT(lines.size(), 2u);
  for (const std::string& line : lines) {
    EXPECT_LE(line.size(), 60u) << line;
    std::size_t close = line.rfind('"');
    if (close == std::string::npos) continue;  // "  f(": the call, broken before its literal
    EXPECT_NE(line[close - 1], '\\') << line;  // no piece ends halfway through an escape
    EXPECT_NE(static_cast<unsigned char>(line[close - 1]), 0xC3) << line;
  }
  EXPECT_EQ(literal_text(lines), text);
}

TEST(Wrap, ARawLiteralOverSeveralLinesIsLeftAsItIs) {
  const std::string text = "  f(R\"d(first line\n" + std::string(120, 'z') + ", a, b\n)d\");\n";
  EXPECT_EQ(wrap_lines(text, 100), text);
}

}  // namespace
}  // namespace rpckit::gen::test
