// Decode errors name the exact JSON path and what was expected; asserted as full what() text.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "support.hpp"
#include "streamnook_v1/messages.hpp"
#include "streamnook_v1/types.hpp"

namespace bindings_test {
namespace {

namespace sn = streamnook::v1;
namespace msg = streamnook::v1::messages;

json initialize_params_json() {
  return json::parse(R"({"protocol_version":1,"host_version":"7.8.6","plugin_id":"p",
      "granted":{"events":["on_stream_start","on_stream_stop","on_watch_tick"],
                 "host_methods":[],"credentials":[],"ui":[]},
      "data_dir":"/d","log_dir":"/l"})");
}

json chat_params() {
  return json::parse(R"({"channel":"xqc","message":{"id":"","user_id":"1","login":"a",
      "display_name":"A","color":null,"badges":[],"text":"hi","is_action":false,
      "msg_type":null,"system_message":null,"bits":null,"ts":"2024-05-18T14:05:00Z"}})");
}

json panel_params() {
  return json::parse(R"({"schema":{"title":"T","sections":[{"label":"S","fields":[
      {"key":"ok","type":"toggle","label":"A"},
      {"key":"fine_2","type":"text","label":"B"}]}]}})");
}

TEST(DecodeErrors, ItemOfANestedArray) {
  json p = initialize_params_json();
  ASSERT_EQ(params_error<msg::Initialize>(p), std::nullopt);
  p["granted"]["events"][2] = 5;
  EXPECT_EQ(params_error<msg::Initialize>(p),
            "params.granted.events[2]: expected string, got integer");
}

TEST(DecodeErrors, MissingMemberOfANestedObject) {
  json p = json::parse(R"({"channel":{"channel_id":"1","display_name":"A","game_id":null,
      "game_name":null,"started_at":null,"viewer_count":null}})");
  EXPECT_EQ(params_error<msg::OnStreamStart>(p), "params.channel.login: missing required field");
}

TEST(DecodeErrors, DeepestPathInsideAUnionMember) {
  json p = panel_params();
  ASSERT_EQ(params_error<msg::RegisterPanel>(p), std::nullopt);
  p["schema"]["sections"][0]["fields"][1]["key"] = "Bad-Key";
  EXPECT_EQ(params_error<msg::RegisterPanel>(p),
            "params.schema.sections[0].fields[1].key: expected a string matching "
            "^[a-z0-9_]{1,40}$");
  p["schema"]["sections"][0]["fields"][1]["key"] = std::string(41, 'k');
  EXPECT_EQ(params_error<msg::RegisterPanel>(p),
            "params.schema.sections[0].fields[1].key: expected a string matching "
            "^[a-z0-9_]{1,40}$");
  p["schema"]["sections"][0]["fields"][1]["key"] = std::string(40, 'k');
  EXPECT_EQ(params_error<msg::RegisterPanel>(p), std::nullopt);
}

TEST(DecodeErrors, LengthLimitsCountCharactersNotBytes) {
  json p = panel_params();
  p["schema"]["title"] = std::string(61, 'x');
  EXPECT_EQ(params_error<msg::RegisterPanel>(p),
            "params.schema.title: expected at most 60 characters, got 61");
  // 60 three-byte characters are 60 characters.
  std::string sixty;
  for (int i = 0; i < 60; ++i) sixty += "純";
  p["schema"]["title"] = sixty;
  EXPECT_EQ(params_error<msg::RegisterPanel>(p), std::nullopt);
  p["schema"]["title"] = sixty + "x";
  EXPECT_EQ(params_error<msg::RegisterPanel>(p),
            "params.schema.title: expected at most 60 characters, got 61");
  p["schema"]["title"] = "";
  // Reads badly ("1 characters"): reported.
  EXPECT_EQ(params_error<msg::RegisterPanel>(p),
            "params.schema.title: expected at least 1 character, got 0");
}

TEST(DecodeErrors, ItemCountLimits) {
  json p = panel_params();
  json sections = json::array();
  for (int i = 0; i < 9; ++i) sections.push_back(json::parse(R"({"label":"S","fields":[]})"));
  p["schema"]["sections"] = sections;
  EXPECT_EQ(params_error<msg::RegisterPanel>(p),
            "params.schema.sections: expected at most 8 items, got 9");
  p = panel_params();
  p["schema"]["sections"][0]["fields"] = json::array();
  for (int i = 0; i < 25; ++i) {
    p["schema"]["sections"][0]["fields"].push_back(
        json{{"key", "f_" + std::to_string(i)}, {"type", "toggle"}, {"label", "F"}});
  }
  EXPECT_EQ(params_error<msg::RegisterPanel>(p),
            "params.schema.sections[0].fields: expected at most 24 items, got 25");
  p = panel_params();
  p["schema"]["sections"][0]["fields"][0] =
      json::parse(R"({"key":"q","type":"select","label":"Q","options":[]})");
  // Reads badly ("1 items"): reported.
  EXPECT_EQ(params_error<msg::RegisterPanel>(p),
            "params.schema.sections[0].fields[0].options: expected at least 1 item, got 0");
}

TEST(DecodeErrors, UnsignedThirtyTwoBitRange) {
  json p = chat_params();
  ASSERT_EQ(params_error<msg::OnChatMessage>(p), std::nullopt);
  for (json bad : {json(-1), json(4294967296LL), json(1e20), json(-1e20)}) {
    SCOPED_TRACE(bad.dump());
    p["message"]["bits"] = bad;
    EXPECT_EQ(params_error<msg::OnChatMessage>(p),
              "params.message.bits: expected integer in [0, 4294967295], got " + bad.dump());
  }
  p["message"]["bits"] = 1.5;
  EXPECT_EQ(params_error<msg::OnChatMessage>(p), "params.message.bits: expected integer, got number");
  p["message"]["bits"] = "100";
  EXPECT_EQ(params_error<msg::OnChatMessage>(p), "params.message.bits: expected integer, got string");
  // JSON Schema's "integer" includes floats with an integral value.
  p["message"]["bits"] = 4294967295.0;
  auto decoded = params_of<msg::OnChatMessage>(p);
  EXPECT_EQ(decoded.message.bits, std::uint32_t{4294967295u});
  p["message"]["bits"] = 0;
  EXPECT_EQ(params_of<msg::OnChatMessage>(p).message.bits, std::uint32_t{0});
}

TEST(DecodeErrors, DateTimes) {
  json p = json::parse(R"({"active_channel_id":null,"ts":"2024-05-18T14:03:11Z"})");
  for (const char* good : {"2024-05-18T14:03:11Z", "2024-05-18T14:03:11.457+09:00",
                           "2024-05-18T07:03:11.000001-07:00", "2024-02-29T00:00:00z",
                           "2024-05-18t14:03:11+00:00", "2016-12-31T23:59:60Z"}) {
    SCOPED_TRACE(good);
    p["ts"] = good;
    EXPECT_EQ(params_error<msg::OnWatchTick>(p), std::nullopt);
  }
  for (const char* bad : {"2024-05-18 14:03:11", "2024-05-18T14:03:11", "2024-05-18",
                          "1716040991", "2024-05-18T14:03:11+0900", "2023-02-29T00:00:00Z",
                          "2024-13-01T00:00:00Z", "2024-05-18T24:00:00Z", "2024-05-18T14:03:11.Z",
                          "2024-05-18T14:03:11Z ", ""}) {
    SCOPED_TRACE(bad);
    p["ts"] = bad;
    EXPECT_EQ(params_error<msg::OnWatchTick>(p), "params.ts: expected an RFC 3339 date-time");
  }
  p["ts"] = 1716040991;
  EXPECT_EQ(params_error<msg::OnWatchTick>(p), "params.ts: expected string, got integer");
}

TEST(DecodeErrors, PanelValuesMapKeysInThePath) {
  EXPECT_EQ(params_error<msg::OnPanelChange>(json::parse(R"({"values":{"some_key":["a",1]}})")),
            "params.values.some_key[1]: expected string, got integer");
  EXPECT_EQ(params_error<msg::OnPanelChange>(
                json::parse(R"({"values":{"weird key":[{"channel_id":"1","display_name":"A"}]}})")),
            R"(params.values["weird key"][0].channel_login: missing required field)");
  EXPECT_EQ(params_error<msg::OnPanelChange>(json::parse(R"({"values":{"1st":["a",2]}})")),
            R"(params.values["1st"][1]: expected string, got integer)");
  EXPECT_EQ(params_error<msg::OnPanelChange>(json::parse(R"({"values":{"":["a",2]}})")),
            R"(params.values[""][1]: expected string, got integer)");
  // Quotes and backslashes in a key are escaped, so the path stays unambiguous.
  EXPECT_EQ(params_error<msg::OnPanelChange>(json::parse(R"({"values":{"a\"]b\\":["a",2]}})")),
            R"(params.values["a\"]b\\"][1]: expected string, got integer)");
  EXPECT_EQ(params_error<msg::GetPanelValues>(json::array()), "params: expected object, got array");
  EXPECT_EQ(decode_error<msg::GetPanelValues::Result>(json::parse(R"({"values":{"k":[1,"a"]}})"),
                                                       "result"),
            std::nullopt)
      << "[1,\"a\"] starts with a number: an unknown shape, kept whole";
}

TEST(DecodeErrors, TaggedUnionWithoutTag) {
  json p = panel_params();
  p["schema"]["sections"][0]["fields"][1].erase("type");
  EXPECT_EQ(params_error<msg::RegisterPanel>(p),
            "params.schema.sections[0].fields[1].type: missing required field");
  p["schema"]["sections"][0]["fields"][1]["type"] = true;
  EXPECT_EQ(params_error<msg::RegisterPanel>(p),
            "params.schema.sections[0].fields[1].type: expected string, got boolean");
}

TEST(DecodeErrors, PatternsAndNegatedPatterns) {
  EXPECT_EQ(params_error<msg::SetUpstream>(
                json::parse(R"({"stream_id":"r","playlist_url":"ftp://h/x.m3u8"})")),
            R"(params.playlist_url: expected a string matching ^https?://[^\s/?#]+([/?#]\S*)?$)");
  // A pattern with x-error-messages in the schema says that text instead of the regex.
  EXPECT_EQ(decode_error<sn::ManifestRuntime>(json::parse(R"({"kind":"process","entry":"../x"})")),
            R"(value.entry: expected no ".." segment and no NUL character (the entry must stay )"
            R"(inside the plugin directory))");
  EXPECT_EQ(decode_error<sn::ManifestRuntime>(json::parse(R"({"kind":"process","entry":"/bin/x"})")),
            R"(value.entry: expected a path relative to the plugin directory, not an absolute )"
            R"(path (no leading / or \, no drive letter "C:"))");
  EXPECT_EQ(decode_error<sn::ManifestRuntime>(json::parse(R"({"kind":"process","entry":"bin/x..y"})")),
            std::nullopt);
}

TEST(DecodeErrors, ManifestUniqueItemsAndSemver) {
  const json base = json::parse(R"({"id":"io.github.alice.x","name":"X","version":"1.0.0",
      "author":"A","tier":"A","description":"","host_min":"7.8.0",
      "runtime":{"kind":"process","entry":"x"}})");
  ASSERT_EQ(decode_error<sn::Manifest>(base, ""), std::nullopt);
  json m = base;
  m["capabilities"] = json::parse(R"({"events":["on_stream_start","on_watch_tick","on_stream_start"]})");
  EXPECT_EQ(decode_error<sn::Manifest>(m, ""),
            "capabilities.events[2]: expected unique items (same as [0])");
  m = base;
  m["contributes"] = json::parse(R"({"actions":["drops.claim-all","claim"]})");
  EXPECT_EQ(decode_error<sn::Manifest>(m, ""),
            R"(contributes.actions[1]: expected a namespaced id feature.name (lowercase letters, )"
            R"(digits and "-", dot-separated, no "_", e.g. "drops.mine-auto"))");
  m = base;
  m["version"] = "v1.0.0";
  EXPECT_EQ(decode_error<sn::Manifest>(m, "manifest"),
            R"(manifest.version: expected a semantic version MAJOR.MINOR.PATCH (SemVer 2.0.0, )"
            R"(e.g. "1.0.0"))");
}

TEST(DecodeErrors, ParamsThemselves) {
  EXPECT_EQ(params_error<msg::OnStreamStop>(nullptr), "params: missing required field");
  EXPECT_EQ(params_error<msg::OnStreamStop>(json()), "params: expected object, got null");
  EXPECT_EQ(params_error<msg::OnStreamStop>(json::array()), "params: expected object, got array");
  EXPECT_EQ(params_error<msg::OnStreamStop>(json("x")), "params: expected object, got string");
  EXPECT_EQ(params_error<msg::Ping>(json(0)), "params: expected object, got integer");
  EXPECT_EQ(params_error<msg::Ping>(json(0.5)), "params: expected object, got number");
  EXPECT_EQ(params_error<msg::Ping>(json(false)), "params: expected object, got boolean");
}

// The error object carries the path and the reason apart, for callers that build their own text.
TEST(DecodeErrors, PathAndExpectedAccessors) {
  try {
    (void)params_of<msg::OnStreamStop>(json{{"channel_id", 5}});
    FAIL() << "no error";
  } catch (const rpckit::codec::DecodeError& e) {
    EXPECT_EQ(e.path(), "params.channel_id");
    EXPECT_EQ(e.expected(), "expected string, got integer");
    EXPECT_STREQ(e.what(), "params.channel_id: expected string, got integer");
  }
  // from_json (nlohmann interop) reports from the root.
  try {
    (void)json(5).get<sn::Badge>();
    FAIL() << "no error";
  } catch (const rpckit::codec::DecodeError& e) {
    EXPECT_STREQ(e.what(), "(root): expected object, got integer");
  }
  try {
    (void)json::parse(R"({"name":"n"})").get<sn::Badge>();
    FAIL() << "no error";
  } catch (const rpckit::codec::DecodeError& e) {
    EXPECT_STREQ(e.what(), "version: missing required field");
  }
}

// The first error in member order is the one reported.
TEST(DecodeErrors, FirstErrorWins) {
  EXPECT_EQ(params_error<msg::SetUpstream>(json::parse(R"({"stream_id":1,"playlist_url":2})")),
            "params.stream_id: expected string, got integer");
}

// Collect mode: every problem of a manifest at once, in document order, each at its own
// path; a member that failed is left at its default and its constraints are not checked.
TEST(DecodeErrors, ACollectingPathReportsEveryProblem) {
  json manifest = json::parse(R"({
      "id": "App.x", "name": "NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN", "version": 1,
      "author": "a", "tier": "C", "description": "d", "host_min": "7.0.0",
      "runtime": {"kind": "process", "args": ["--a", 2]},
      "capabilities": {"events": [5, "on_stream_start", "on_stream_start"],
                       "host_methods": ["notify", "notify"], "network": "none", "ui": "panel"},
      "homepage": "http://example.com"})");
  std::vector<rpckit::codec::DecodeError> problems;
  rpckit::codec::DecodePath path;
  path.collect_into(&problems);
  sn::Manifest decoded;
  sn::decode(manifest, decoded, path);
  std::vector<std::string> texts;
  for (const auto& p : problems) texts.push_back(p.what());
  EXPECT_EQ(texts, (std::vector<std::string>{
                       "id: expected a plugin id: lowercase letters and digits in dot-separated "
                       "parts, \"-\" allowed after the first dot (e.g. \"dev.example.my-plugin\")",
                       "name: expected at most 40 characters, got 41",
                       "version: expected string, got integer",
                       "homepage: expected an https:// URL",
                       "runtime.entry: missing required field",
                       "runtime.args[1]: expected string, got integer",
                       "capabilities.events[0]: expected string, got integer",
                       "capabilities.host_methods[1]: expected unique items (same as [0])",
                       "capabilities.ui: expected array, got string",
                   }));
  // What decoded is kept; what failed is at its default.
  EXPECT_EQ(decoded.id, "App.x");
  EXPECT_EQ(decoded.version, "");
  EXPECT_EQ(decoded.runtime.args, (std::optional<std::vector<std::string>>{}));
  // A part whose own parts failed is not kept either, nor are its constraints checked (the
  // duplicate in events is not reported: the array did not decode).
  EXPECT_FALSE(decoded.capabilities.has_value());

  // Not collecting, the first problem throws; collecting, a root of the wrong kind still does.
  rpckit::codec::DecodePath strict;
  EXPECT_THROW(sn::decode(manifest, decoded, strict), rpckit::codec::DecodeError);
  EXPECT_THROW(sn::decode(json::array(), decoded, path), rpckit::codec::DecodeError);
}

// Strict enums: a value the schema does not list is a problem at its path (what a closed list
// or a validator needs); by default it is kept as unknown and re-encodes unchanged.
TEST(DecodeErrors, StrictEnumsRejectUnlistedValues) {
  json manifest = json::parse(R"({
      "id": "dev.example.x", "name": "X", "version": "1.0.0", "author": "a", "tier": "D",
      "description": "d", "host_min": "7.0.0", "runtime": {"kind": "process", "entry": "x"},
      "capabilities": {"events": ["on_stream_start", "on_raid"]}})");
  sn::Manifest open;
  rpckit::codec::DecodePath lenient;
  sn::decode(manifest, open, lenient);
  EXPECT_EQ(open.tier.wire(), "D");
  EXPECT_FALSE(open.tier.is_known());

  std::vector<rpckit::codec::DecodeError> problems;
  rpckit::codec::DecodePath strict;
  strict.collect_into(&problems);
  strict.set_strict_enums(true);
  sn::Manifest closed;
  sn::decode(manifest, closed, strict);
  ASSERT_EQ(problems.size(), 2U);
  EXPECT_EQ(std::string(problems[0].what()), R"(tier: expected one of "A", "B", "C", got "D")");
  EXPECT_EQ(problems[1].path(), "capabilities.events[1]");
  EXPECT_EQ(problems[1].expected().rfind(R"(expected one of "on_stream_start", ")", 0), 0U)
      << problems[1].expected();
  EXPECT_NE(problems[1].expected().find(R"(, got "on_raid")"), std::string::npos)
      << problems[1].expected();

  // Integer enums name their codes.
  sn::ErrorCode code{};
  rpckit::codec::DecodePath code_path;
  code_path.set_strict_enums(true);
  try {
    sn::decode(json(5), code, code_path);
    ADD_FAILURE() << "5 is not a listed error code";
  } catch (const rpckit::codec::DecodeError& e) {
    EXPECT_EQ(e.expected().rfind("expected one of -32700, -32600, ", 0), 0U) << e.what();
    EXPECT_NE(e.expected().find(", got 5"), std::string::npos) << e.what();
  }
  rpckit::codec::DecodePath code_lenient;
  sn::decode(json(5), code, code_lenient);
  EXPECT_EQ(static_cast<int>(code), 5);
}

}  // namespace
}  // namespace bindings_test
