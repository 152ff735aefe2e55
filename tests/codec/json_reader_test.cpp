// rpckit::codec::JsonReader: strict RFC 8259, offsets in every error, the nesting and number
// limits, the pull API, and agreement with nlohmann's parser on what is JSON.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rpckit/codec/json_reader.hpp"

namespace rpckit::codec {
namespace {

using ::testing::HasSubstr;

// The error validate_json() raises for `text`, or nullopt when it is valid.
std::optional<JsonError> error_of(std::string_view text, JsonReader::Options options = {}) {
  try {
    validate_json(text, options);
    return std::nullopt;
  } catch (const JsonError& e) {
    return e;
  }
}

std::string nested(std::size_t depth, char open = '[', char close = ']') {
  return std::string(depth, open) + std::string(depth, close);
}

TEST(JsonReader, AcceptsEveryKindOfValue) {
  for (const char* text :
       {"{}", "[]", "0", "-0", "-0.0", "1.5e10", "1E-3", "-12.25e+2", "true", "false", "null",
        R"("")", R"("a\"b\\c\/d\b\f\n\r\t")", R"("\u00e9\u20AC\ud83d\ude00")", "\"\xC3\xA9\"",
        "\"\xF0\x9F\x98\x80\"", " \t\r\n{ \"a\" : [ 1 , { } , [ ] ] } \n",
        R"({"a":{"b":{"c":[null,true,false,"x",0.5]}}})", "1e-400" /* underflows to 0: fine */,
        "123456789012345678901234567890" /* beyond int64: still a double */}) {
    EXPECT_FALSE(error_of(text).has_value()) << text << ": " << error_of(text)->what();
  }
}

struct Bad {
  std::string text;
  std::string message;  // the whole what()
};

TEST(JsonReader, RejectsWhatRfc8259RejectsAndSaysWhere) {
  const std::vector<Bad> cases = {
      {"", "at byte 0: expected a value, found the end of the text"},
      {"  ", "at byte 2: expected a value, found the end of the text"},
      {"{", "at byte 1: expected an object key (a string), found the end of the text"},
      {"{\"a\"}", "at byte 4: expected ':' after an object key, found '}'"},
      {"{\"a\":1,}", "at byte 7: expected an object key (a string), found '}'"},
      {"[1,]", "at byte 3: expected a value, found ']'"},
      {"[1 2]", "at byte 3: expected ',' or ']', found '2'"},
      {"{'a':1}", "at byte 1: expected an object key (a string), found '''"},
      {"01", "at byte 1: unexpected '1' after the value"},
      {"1.", "at byte 2: expected a digit, found the end of the text"},
      {".5", "at byte 0: expected a value, found '.'"},
      {"+1", "at byte 0: expected a value, found '+'"},
      {"1e", "at byte 2: expected a digit, found the end of the text"},
      {"-", "at byte 1: expected a digit, found the end of the text"},
      {"NaN", "at byte 0: expected a value, found 'N'"},
      {"tru", "at byte 0: expected true, found 't'"},
      {"nul", "at byte 0: expected null, found 'n'"},
      {"\"abc", "at byte 0: string is not terminated"},
      {"\"a\nb\"", "at byte 2: control character byte 0x0A in a string (escape it)"},
      {std::string("\"a\0b\"", 5), "at byte 2: control character byte 0x00 in a string (escape it)"},
      {R"("\x")", "at byte 1: invalid escape 'x' in a string"},
      {R"("\u12")", "at byte 5: expected a hex digit in a \\u escape, found '\"'"},
      {R"("\ud800")", "at byte 1: lone high surrogate in a \\u escape"},
      {R"("\udc00")", "at byte 1: lone low surrogate in a \\u escape"},
      {R"("\ud800\u0041")", "at byte 1: high surrogate not followed by a low surrogate in a \\u escape"},
      {"\"\xFF\"", "at byte 1: invalid UTF-8 (byte 0xFF)"},
      {"\"\xC0\xAF\"", "at byte 1: invalid UTF-8 (byte 0xC0)"},           // overlong '/'
      {"\"\xE0\x80\xAF\"", "at byte 1: invalid UTF-8 (byte 0x80)"},       // overlong
      {"\"\xED\xA0\x80\"", "at byte 1: invalid UTF-8 (byte 0xA0)"},       // UTF-8 surrogate
      {"\"\xF4\x90\x80\x80\"", "at byte 1: invalid UTF-8 (byte 0x90)"},   // beyond U+10FFFF
      {"\"\xC3\"", "at byte 1: invalid UTF-8 ('\"')"},
      {"\"\xE2\x82", "at byte 1: truncated UTF-8 sequence"},
      {"{} {}", "at byte 3: unexpected '{' after the value"},
      {"\xEF\xBB\xBF{}", "at byte 0: expected a value, found byte 0xEF"},  // no BOM
  };
  for (const Bad& c : cases) {
    auto e = error_of(c.text);
    ASSERT_TRUE(e.has_value()) << c.text;
    EXPECT_EQ(e->kind(), JsonError::Kind::kSyntax) << c.text;
    EXPECT_EQ(std::string(e->what()), c.message) << c.text;
  }
}

TEST(JsonReader, DepthLimitIsExactAndCountsEveryContainer) {
  JsonReader::Options options;
  options.max_depth = 4;
  EXPECT_FALSE(error_of(nested(4), options).has_value());
  EXPECT_FALSE(error_of(R"({"a":[{"b":[]}]})", options).has_value());
  auto e = error_of(nested(5), options);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->kind(), JsonError::Kind::kTooDeep);
  EXPECT_EQ(e->offset(), 4u);
  EXPECT_STREQ(e->what(), "at byte 4: nesting deeper than 4 levels");
  EXPECT_TRUE(error_of(R"({"a":[{"b":[{}]}]})", options).has_value());
  // The default is the protocol limit.
  EXPECT_FALSE(error_of(nested(kMaxJsonDepth)).has_value());
  EXPECT_EQ(error_of(nested(kMaxJsonDepth + 1))->kind(), JsonError::Kind::kTooDeep);
}

TEST(JsonReader, DeepInputFailsFastAndUnlimitedDepthIsIterative) {
  // 4 MiB of '[': the limit is hit after 257 bytes, whatever follows.
  std::string deep = nested(2 << 20);
  auto e = error_of(deep);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->offset(), kMaxJsonDepth);
  // Without a limit the reader walks it all, with no recursion (a recursive parser would
  // overflow the stack at this depth).
  JsonReader::Options unlimited;
  unlimited.max_depth = std::numeric_limits<std::size_t>::max();
  EXPECT_FALSE(error_of(deep, unlimited).has_value());
  std::string objects;
  for (int i = 0; i < 200000; ++i) objects += "{\"k\":";
  objects += "0" + std::string(200000, '}');
  EXPECT_FALSE(error_of(objects, unlimited).has_value());
}

TEST(JsonReader, NumbersBeyondADoubleAreRejectedUnlessAskedNotTo) {
  for (const char* text : {"1e400", "-1e400", "1E309", "[0, 2e308]", "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792"}) {
    auto e = error_of(text);
    ASSERT_TRUE(e.has_value()) << text;
    EXPECT_EQ(e->kind(), JsonError::Kind::kOverflow) << text;
    EXPECT_THAT(e->what(), HasSubstr("is beyond the range of a double")) << text;
    JsonReader::Options lenient;
    lenient.reject_overflow = false;
    EXPECT_FALSE(error_of(text, lenient).has_value()) << text;
  }
  // The largest double and tiny numbers are fine.
  for (const char* text : {"1.7976931348623157e308", "-1.7976931348623157e308", "4.9e-324",
                           "1e-999999999", "0e999999999", "0.000e5"}) {
    EXPECT_FALSE(error_of(text).has_value()) << text << ": " << error_of(text)->what();
  }
}

TEST(JsonReader, PullApiWalksObjectsAndArraysAndUnescapesStrings) {
  JsonReader r(R"( {"a\u0041": [1, "two", true, null, {"x": -0.5}], "b": {}, "c": []} )");
  ASSERT_EQ(r.peek(), JsonReader::Kind::kObject);
  r.begin_object();
  std::string key;
  ASSERT_TRUE(r.next_member(key));
  EXPECT_EQ(key, "aA");
  r.begin_array();
  ASSERT_TRUE(r.next_item());
  EXPECT_EQ(r.read_number(), "1");
  ASSERT_TRUE(r.next_item());
  std::string s;
  r.read_string(s);
  EXPECT_EQ(s, "two");
  ASSERT_TRUE(r.next_item());
  EXPECT_TRUE(r.read_bool());
  ASSERT_TRUE(r.next_item());
  r.read_null();
  ASSERT_TRUE(r.next_item());
  EXPECT_EQ(r.skip_value(), R"({"x": -0.5})");
  EXPECT_FALSE(r.next_item());
  ASSERT_TRUE(r.next_member(key));
  EXPECT_EQ(key, "b");
  r.begin_object();
  EXPECT_FALSE(r.next_member(key));
  ASSERT_TRUE(r.next_member(key));
  EXPECT_EQ(key, "c");
  EXPECT_EQ(r.peek(), JsonReader::Kind::kArray);
  EXPECT_EQ(r.skip_value(), "[]");
  EXPECT_FALSE(r.next_member(key));
  EXPECT_EQ(r.depth(), 0u);
  r.expect_end();
}

// Keys as views: of the text when plain, of the reader's buffer when escaped or not ASCII,
// errors at the same bytes as the copying form.
TEST(JsonReader, KeysAsViewsAreTheUnescapedKeys) {
  const std::string text = std::string(R"({"plain": 1, "a\u0041": 2, "\u00e9t\u00e9": 3, )") +
                           "\"caf\xC3\xA9\": 4, \"\": 5}";
  JsonReader r(text);
  r.begin_object();
  std::vector<std::string> keys;
  std::string_view key;
  while (r.next_member(key)) {
    keys.emplace_back(key);
    r.skip_value();
  }
  r.expect_end();
  EXPECT_EQ(keys,
            (std::vector<std::string>{"plain", "aA", "\xC3\xA9t\xC3\xA9", "caf\xC3\xA9", ""}));

  for (std::string_view bad : {R"({"a\x": 1})", "{\"a\x01\": 1}", "{\"a\xC3\": 1}", R"({"abc)"}) {
    std::string copied_error;
    std::string viewed_error;
    try {
      JsonReader copying(bad);
      copying.begin_object();
      std::string k;
      copying.next_member(k);
    } catch (const JsonError& e) {
      copied_error = e.what();
    }
    try {
      JsonReader viewing(bad);
      viewing.begin_object();
      viewing.next_member(key);
    } catch (const JsonError& e) {
      viewed_error = e.what();
    }
    EXPECT_FALSE(viewed_error.empty()) << bad;
    EXPECT_EQ(viewed_error, copied_error) << bad;
  }
}

// Strings are scanned eight bytes at a time: a byte that needs a look (a quote, a backslash,
// a control byte, UTF-8) is found at every position of a word, in keys and values alike.
TEST(JsonReader, EveryBytePositionOfAStringIsLookedAt) {
  for (std::size_t at = 0; at < 20; ++at) {
    for (std::string_view special : {"\\\"", "\\n", "\xC3\xA9", "\\u00e9"}) {
      std::string body(20, 'x');
      body.insert(at, special);
      const std::string text = "{\"" + body + "\": \"" + body + "\"}";
      const nlohmann::json expected = nlohmann::json::parse(text);
      JsonReader r(text);
      r.begin_object();
      std::string_view key;
      ASSERT_TRUE(r.next_member(key)) << text;
      EXPECT_EQ(key, expected.begin().key()) << text;
      std::string value;
      r.read_string(value);
      EXPECT_EQ(value, expected.begin().value().get<std::string>()) << text;
      EXPECT_FALSE(r.next_member(key));
    }
    std::string raw(20, 'x');
    raw[at] = '\x01';  // unescaped control byte: refused where it is
    const auto error = error_of("\"" + raw + "\"");
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->offset(), at + 1);
  }
}

TEST(JsonReader, SkipValueReturnsTheExactTextOfEachKind) {
  for (const char* value : {"{\"a\":[1,{\"b\":null}],\"c\":\"}\"}", "[[],[[]],{}]", "\"x\\\"]\"",
                            "-1.25e-3", "true", "false", "null"}) {
    std::string text = std::string("[ ") + value + " , 7 ]";
    JsonReader r(text);
    r.begin_array();
    ASSERT_TRUE(r.next_item());
    EXPECT_EQ(r.skip_value(), value);
    ASSERT_TRUE(r.next_item());
    EXPECT_EQ(r.read_number(), "7");
    EXPECT_FALSE(r.next_item());
    r.expect_end();
  }
}

TEST(JsonReader, StringsKeepNulAndEveryCodePoint) {
  JsonReader r(R"("a\u0000b\ud83d\ude00\u00e9")");
  std::string s;
  r.read_string(s);
  EXPECT_EQ(s, std::string("a\0b\xF0\x9F\x98\x80\xC3\xA9", 9));
}

TEST(JsonReader, WideInputsAreLinear) {
  // Half a million members and items: checked in well under a second even in Debug.
  std::string wide = "[";
  for (int i = 0; i < 500000; ++i) wide += i == 0 ? "{}" : ",{}";
  wide += "]";
  std::string members = "{";
  for (int i = 0; i < 500000; ++i) members += (i == 0 ? "\"k" : ",\"k") + std::to_string(i) + "\":0";
  members += "}";
  EXPECT_FALSE(error_of(wide).has_value());
  EXPECT_FALSE(error_of(members).has_value());
}

// What JsonReader accepts, nlohmann accepts too (so the endpoint can hand validated text to
// nlohmann without a second failure path), and the other way round within the limits.
TEST(JsonReader, AgreesWithNlohmannOnWhatIsJson) {
  std::vector<std::string> corpus = {
      "{}", "[]", "[1,2", "{\"a\":1,}", "\"\xFF\"", "\"\\ud800\"", "\"\\udc00\\ud800\"", "1e-400",
      "-0", "00", "[-]", "[1e5]", "\"\\u0000\"", "{\"a\":{\"a\":{}}}", "\"\xED\xA0\x80\"",
      "\"\xF4\x8F\xBF\xBF\"", "\"\xF4\x90\x80\x80\"", "true false", "[true,false,null]",
      "\"\\/\"", "\" \"", "\"\x7F\"", "{\"\":\"\"}", "[\"\xE0\xA0\x80\"]", "[\"\xE0\x9F\xBF\"]",
      nested(100), "123456789012345678901234567890", "-9223372036854775809", "1.0E+2"};
  for (const std::string& text : corpus) {
    bool ours = !error_of(text).has_value();
    bool theirs = nlohmann::json::accept(text);
    EXPECT_EQ(ours, theirs) << text;
  }
}

}  // namespace
}  // namespace rpckit::codec
