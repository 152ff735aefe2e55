// ECMAScript -> RE2 pattern translation (rpckit/codec/ecmascript_pattern.hpp): the spelling of each construct,
// every refusal with its offset, and a differential test against JavaScript itself (node,
// with the `u` flag as ajv compiles schema patterns) over every pattern in schema/ and a set
// of tricky ones, on inputs chosen where the two engines differ by default.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "rpckit/codec/ecmascript_pattern.hpp"
#include "rpckit/codec/pattern.hpp"
#include "support.hpp"

namespace rpckit::gen::test {
namespace {

using codec::ecmascript_to_re2;
using codec::PatternError;
using codec::re2_error;

using ::testing::HasSubstr;

std::string re2_of(const std::string& ecmascript) {
  auto out = ecmascript_to_re2(ecmascript);
  if (auto* e = std::get_if<PatternError>(&out)) {
    ADD_FAILURE() << ecmascript << ": refused at " << e->offset << ": " << e->reason;
    return "";
  }
  return std::get<std::string>(out);
}

constexpr const char* kSpace =
    "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}"
    "\\x{3000}\\x{FEFF}";

TEST(PatternTranslation, SpellsEachConstructForRe2) {
  const std::string space = kSpace;
  struct Case {
    std::string ecmascript, re2;
  };
  const std::vector<Case> cases = {
      {"^[a-z0-9_]{1,40}$", "^[a-z0-9_]{1,40}$"},
      {R"(\s)", "[" + space + "]"},
      {R"(\S+)", "[^" + space + "]+"},
      {R"([\s,])", "[" + space + ",]"},
      {R"([^\s])", "[^" + space + "]"},
      {R"([\S])", "[^" + space + "]"},
      {R"([^\S])", "[" + space + "]"},
      {".", "[^\\n\\r\\x{2028}\\x{2029}]"},
      {R"(\.)", R"(\.)"},
      {R"(\d\D\w\W\b\B)", R"(\d\D\w\W\b\B)"},
      {R"([\b])", R"([\x{8}])"},
      {R"(\v\0\t)", R"(\x{B}\x{0}\t)"},
      {R"(\x41\u00e9\u{1F600})", R"(\x{41}\x{E9}\x{1F600})"},
      {R"(\ud83d\ude00)", R"(\x{1F600})"},
      {R"(\cJ)", R"(\x{A})"},
      {R"(\/\[\]\{\}\(\)\|\^\$\*\+\?)", R"(/\[\]\{\}\(\)\|\^\$\*\+\?)"},
      {"[[]", R"([\[])"},
      {"[a^]", R"([a\^])"},
      {R"([\-a])", R"([\-a])"},
      {"[]", R"([^\x{0}-\x{10FFFF}])"},
      {"[^]", R"([\x{0}-\x{10FFFF}])"},
      {"(?:ab)+", "(?:ab)+"},
      {"(?<year>[0-9]{4})", "(?P<year>[0-9]{4})"},
      {"a{2}b{3,}c{0,1000}?", "a{2}b{3,}c{0,1000}?"},
      {"\xC3\xA9+", "\xC3\xA9+"},
  };
  for (const Case& c : cases) EXPECT_EQ(re2_of(c.ecmascript), c.re2) << c.ecmascript;
}

TEST(PatternTranslation, RefusesWhatCannotRunInLinearTimeOrIsInvalidUnderTheUFlag) {
  struct Case {
    std::string ecmascript;
    std::size_t offset;
    std::string reason;
  };
  const std::vector<Case> cases = {
      {R"((a)\1)", 3, "backreferences cannot run in linear time"},
      {R"((?<n>a)\k<n>)", 7, "named backreferences (\\k<name>) cannot run in linear time"},
      {"a(?=b)", 1, "lookahead cannot run in linear time"},
      {"a(?!b)", 1, "lookahead cannot run in linear time"},
      {"(?<=a)b", 0, "lookbehind cannot run in linear time"},
      {"(?<!a)b", 0, "lookbehind cannot run in linear time"},
      {R"(\p{L})", 0, "Unicode property escapes (\\p{...}) are not supported; list the ranges"},
      {R"(\P{L})", 0, "Unicode property escapes (\\p{...}) are not supported; list the ranges"},
      {R"([a\S])", 0, "\\S inside a character class with other items"},
      {R"(\ud800)", 0, "a lone surrogate cannot occur in UTF-8 text"},
      {R"(\u{D800})", 0, "a lone surrogate cannot occur in UTF-8 text"},
      {R"(\u{110000})", 0, "\\u{...} beyond U+10FFFF"},
      {"a{1001}", 1, "repetition counts over 1000 are not supported"},
      {"a{2,1}", 1, "a lone '{' is a syntax error under the u flag"},
      {"{", 0, "a lone '{' is a syntax error under the u flag"},
      {"a{,3}", 1, "a lone '{' is a syntax error under the u flag"},
      {"}", 0, "a lone '}' is a syntax error under the u flag"},
      {"]", 0, "a lone ']' is a syntax error under the u flag"},
      {"[a", 0, "unterminated character class"},
      {R"(\a)", 0, "\\a is not a valid escape under the u flag"},
      {R"(\-)", 0, "\\- outside a character class is a syntax error under the u flag"},
      {R"([\B])", 1, "\\B inside a character class"},
      {R"(\00)", 0, "\\0 followed by a digit (a legacy octal escape)"},
      {R"(\x4)", 0, "\\x needs two hex digits"},
      {R"(\u12)", 0, "\\u needs four hex digits"},
      {R"(\u{12)", 0, "\\u{ needs hex digits and a '}'"},
      {R"(\c1)", 0, "\\c needs a letter"},
      {"(?<name", 0, "unterminated group name"},
      {"(?i)a", 0, "unsupported group syntax \"(?\""},
      {"a\\", 1, "the pattern ends with a lone '\\'"},
  };
  for (const Case& c : cases) {
    auto out = ecmascript_to_re2(c.ecmascript);
    auto* e = std::get_if<PatternError>(&out);
    ASSERT_NE(e, nullptr) << c.ecmascript << " was accepted as " << std::get<std::string>(out);
    EXPECT_EQ(e->offset, c.offset) << c.ecmascript;
    EXPECT_EQ(e->reason, c.reason) << c.ecmascript;
  }
}

TEST(PatternTranslation, Re2ErrorsAreReported) {
  EXPECT_EQ(re2_error("a+"), "");
  EXPECT_THAT(re2_error("(a"), HasSubstr("missing )"));
  EXPECT_THAT(re2_error("*a"), HasSubstr("no argument for repetition operator"));
}

// Every "pattern" in the schema tree, found by walking the JSON.
void collect_patterns(const nlohmann::json& j, std::vector<std::string>& out) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      if (key == "x-error-messages") continue;  // its "pattern" is a message, not a regex
      if (key == "pattern" && value.is_string()) out.push_back(value.get<std::string>());
      collect_patterns(value, out);
    }
  } else if (j.is_array()) {
    for (const auto& item : j) collect_patterns(item, out);
  }
}

// Runs node on `cases` and returns its answers (an empty array when node fails).
nlohmann::json javascript_answers(const nlohmann::json& cases, const fs::path& dir) {
  fs::path input = dir / "cases.json";
  write_file(input, cases.dump());
  fs::path script = source_dir() / "tests" / "generator" / "pattern_oracle.mjs";
  std::string command = "node '" + script.string() + "' '" + input.string() + "'";
  std::string output;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
    ::pclose(pipe);
  }
  return nlohmann::json::parse(output, nullptr, false);
}

TEST(PatternTranslation, MatchesExactlyWhatJavaScriptMatches) {
  std::vector<std::string> patterns;
  for (const std::string& file : list_files(source_dir() / "schema")) {
    if (!file.ends_with(".json")) continue;
    collect_patterns(nlohmann::json::parse(read_file(source_dir() / "schema" / file)), patterns);
  }
  ASSERT_GE(patterns.size(), 5u) << "the schema's patterns were not found";
  for (const char* extra :
       {R"(^\s*$)", R"(^\S+$)", R"(^[\s]+$)", R"(^[^\s]+$)", R"([\S])", "^.$", "^.+$",
        R"(^\d+$)", R"(^\w+$)", R"(\bfoo\b)", "^[]$", "^[^]$", R"(^\u00e9$)", R"(^\u{1F600}$)",
        R"(^\ud83d\ude00$)", R"(^[\[\]]+$)", "^a{2,3}$", R"(^(?<y>\d{4})-(?:\d\d)$)", R"(^\x41$)",
        R"(^\v$)", R"(^\0$)", R"(^[\b]$)", R"(^[a-z]:)", R"(^\/)", "^[^a-z]$", "a|b|",
        R"(^[\u0000-\u001f]$)", R"(^[\s\d]+$)", R"(^\cJ$)", "^[.]$", R"(^\.$)"}) {
    patterns.push_back(extra);
  }
  const std::vector<std::string> inputs = {
      "", " ", "\t", "\n", "\r", "\v", "\f", "\xC2\xA0", "\xE2\x80\xA8", "\xE2\x80\xA9",
      "\xEF\xBB\xBF", "\xE1\x9A\x80", "\xE3\x80\x80", "\xE2\x80\x8B" /* ZWSP: not space */,
      "\xE1\xA0\x8E" /* U+180E: not space since ES2016 */, "\xC2\x85" /* NEL: not space */,
      "a", "A", "z", "_", "0", "9", "\xC3\xA9", "\xF0\x9F\x98\x80", "ab", "aab", "aaa", "foo",
      "a foo b", "foobar", "2026-11", "2026", "x\ny", "C:", "C:\\x", "..", "a/../b", "../x",
      "/abs", "\\win", std::string("\0", 1), "\b", "[", "]", "[]", ".", "1.2.3",
      "1.2.3-alpha.1+build.5", "01.2.3", "http://x/y", "https://h", "https://h/p?q#f",
      "https://h p", "ftp://h", "dev.rpckit.live-alerts", "app.streamnook.x", "a.b",
      "UPPER.case", "quiet_mode", "key-with-dash", std::string(41, 'a'), std::string(40, 'a'),
      "bin/plugin", "bin\\plugin.exe", "playback.resolve", "x", "\x1F"};
  nlohmann::json cases = nlohmann::json::array();
  for (const std::string& p : patterns) cases.push_back({{"pattern", p}, {"inputs", inputs}});

  TempDir dir("pattern-oracle");
  nlohmann::json answers = javascript_answers(cases, dir.path());
  ASSERT_TRUE(answers.is_array() && answers.size() == patterns.size())
      << "node did not answer (is node on PATH?)";
  std::size_t compared = 0;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    const nlohmann::json& js = answers[i];
    ASSERT_FALSE(js.contains("error")) << patterns[i] << ": JavaScript rejects it: " << js["error"];
    std::string re2 = re2_of(patterns[i]);
    rpckit::codec::Pattern compiled(re2, patterns[i]);
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      EXPECT_EQ(compiled.search(inputs[k]), js["matches"][k].get<bool>())
          << "pattern " << patterns[i] << " (RE2 " << re2 << ") on input #" << k << " "
          << nlohmann::json(inputs[k]).dump();
      ++compared;
    }
  }
  EXPECT_GE(compared, 2000u);
}

// Patterns the translator refuses as invalid are invalid for JavaScript too (the ones refused
// for linear time are valid JavaScript, and refused on purpose).
TEST(PatternTranslation, SyntaxRefusalsAgreeWithJavaScript) {
  const std::vector<std::string> invalid = {"{", "}", "]", "a{,3}", R"(\a)", R"(\-)", "[a",
                                            R"(\00)", R"(\x4)", R"(\u12)", R"(\c1)", "a\\"};
  nlohmann::json cases = nlohmann::json::array();
  for (const std::string& p : invalid) {
    cases.push_back({{"pattern", p}, {"inputs", nlohmann::json::array()}});
  }
  TempDir dir("pattern-oracle-invalid");
  nlohmann::json answers = javascript_answers(cases, dir.path());
  ASSERT_TRUE(answers.is_array() && answers.size() == invalid.size()) << "node did not answer";
  for (std::size_t i = 0; i < invalid.size(); ++i) {
    EXPECT_TRUE(answers[i].contains("error")) << invalid[i] << " is valid JavaScript";
    EXPECT_TRUE(std::holds_alternative<PatternError>(ecmascript_to_re2(invalid[i]))) << invalid[i];
  }
}

}  // namespace
}  // namespace rpckit::gen::test
