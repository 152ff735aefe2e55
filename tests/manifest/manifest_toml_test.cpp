// load_manifest(): plugin.toml files on disk (the real example and files written to temp dirs).
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support.hpp"

namespace manifest_test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(ManifestToml, LiveAlertsExampleLoadsAndDecodesEveryField) {
  const std::filesystem::path dir = source_dir() / "examples" / "live_alerts";
  ASSERT_TRUE(std::filesystem::exists(dir / "plugin.toml"));
  rs::ManifestResult result = rs::load_manifest(dir);
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(strs(result.issues));
  ASSERT_TRUE(result.loaded.has_value());
  const sn::Manifest& m = result.loaded->manifest;
  EXPECT_EQ(m.id, "dev.rpckit.live-alerts");
  EXPECT_EQ(m.name, "Live alerts");
  EXPECT_EQ(m.version, "1.0.0");
  EXPECT_EQ(m.author, "rpckit");
  EXPECT_EQ(m.tier, sn::ManifestTier::kC);
  EXPECT_EQ(m.description,
            "Notifies you when a followed channel goes live, filtered by channel or game, with a "
            "quiet mode.");
  EXPECT_FALSE(m.homepage.has_value());
  EXPECT_EQ(m.host_min, "7.0.0");
  EXPECT_EQ(m.runtime.kind, sn::RuntimeKind::kProcess);
  EXPECT_EQ(m.runtime.entry, "bin/live-alerts");
  ASSERT_TRUE(m.runtime.args.has_value());  // args = [] is present, and empty
  EXPECT_TRUE(m.runtime.args->empty());
  EXPECT_FALSE(m.runtime.transport.has_value());
  EXPECT_EQ(m.runtime.transport_or_default(), sn::RuntimeTransport::kStdio);
  ASSERT_TRUE(m.capabilities.has_value());
  EXPECT_EQ(m.capabilities->events,
            (std::vector<sn::EventName>{sn::EventName::kOnFollowedLive, sn::EventName::kOnPanelChange}));
  EXPECT_EQ(m.capabilities->host_methods,
            (std::vector<sn::HostMethodName>{sn::HostMethodName::kGetFollowedLive,
                                             sn::HostMethodName::kNotify, sn::HostMethodName::kLog}));
  EXPECT_FALSE(m.capabilities->credentials.has_value());
  EXPECT_FALSE(m.capabilities->network.has_value());
  EXPECT_EQ(m.capabilities->ui, (std::vector<sn::UiCapability>{sn::UiCapability::kPanel}));
  ASSERT_TRUE(m.contributes.has_value());
  EXPECT_EQ(m.contributes->actions, (std::vector<std::string>{"live-alerts.test"}));
  EXPECT_EQ(m.contributes->status, (std::vector<std::string>{"live-alerts.live-count"}));
  EXPECT_FALSE(m.contributes->provides.has_value());
  // The JSON form (for gate checks on declared lists) and the directory.
  EXPECT_EQ(result.loaded->json.get().at("contributes").at("status"), json::array({"live-alerts.live-count"}));
  EXPECT_EQ(result.loaded->json.get().at("runtime").at("args"), json::array());
  EXPECT_TRUE(result.loaded->dir.is_absolute());
  EXPECT_TRUE(std::filesystem::equivalent(result.loaded->dir, dir));
}

TEST(ManifestToml, ConvertsEveryTomlKindToJson) {
  TempDir tmp;
  tmp.write("plugin.toml", R"(id = "dev.example.kinds"
name = "Kinds"
version = "1.2.3-rc.1+b5"
author = 'literal "quotes"'
tier = "B"
description = """
multi
line"""
host_min = "7.8.6"
homepage = "https://example.org/kinds"
extra_int = 42
extra_float = 2.5
extra_bool = true
extra_array = [1, "two", [3.0], { four = 4 }]

[runtime]
kind = "process"
entry = "bin/kinds"
args = ["--a", "b c"]
transport = "stdio"

[extra.nested."quoted key"]
x = -7

[[extra_tables]]
n = 1
[[extra_tables]]
n = 2
)");
  rs::ManifestResult result = rs::load_manifest(tmp.path());
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(strs(result.issues));
  const json& j = result.loaded->json;
  EXPECT_EQ(j.at("author"), "literal \"quotes\"");
  EXPECT_EQ(j.at("description"), "multi\nline");
  EXPECT_TRUE(j.at("extra_int").is_number_integer());
  EXPECT_EQ(j.at("extra_int"), 42);
  EXPECT_TRUE(j.at("extra_float").is_number_float());
  EXPECT_EQ(j.at("extra_float"), 2.5);
  EXPECT_EQ(j.at("extra_bool"), true);
  EXPECT_EQ(j.at("extra_array"), json::parse(R"([1, "two", [3.0], {"four": 4}])"));
  EXPECT_EQ(j.at("extra").at("nested").at("quoted key").at("x"), -7);
  EXPECT_EQ(j.at("extra_tables"), json::parse(R"([{"n": 1}, {"n": 2}])"));
  EXPECT_EQ(result.loaded->manifest.version, "1.2.3-rc.1+b5");
  EXPECT_EQ(result.loaded->manifest.runtime.args, (std::vector<std::string>{"--a", "b c"}));
  EXPECT_EQ(result.loaded->manifest.tier, sn::ManifestTier::kB);
}

TEST(ManifestToml, SeveralViolationsAreAllReported) {
  TempDir tmp;
  tmp.write("plugin.toml", R"(id = "app.streamnook.evil"
name = "NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN"
version = "1.0"
tier = "D"
description = "fine"
host_min = "7.0.0"

[runtime]
kind = "wasm"
entry = "/bin/sh"
args = "x"
transport = "socket"

[capabilities]
events = ["on_stream_start", "on_stream_start", " on_chat_message", "on_raid", ""]
credentials = ["twitch.web"]
network = "internal"

[contributes]
actions = ["resolve"]
)");
  rs::ManifestResult result = rs::load_manifest(tmp.path());
  EXPECT_FALSE(result.loaded.has_value());
  // In the order of the file; a missing member where its table starts (author: the top level).
  const std::string events =
      R"(expected one of "on_stream_start", "on_stream_stop", "on_channel_change", "on_watch_tick", )"
      R"("on_followed_live", "on_chat_message", "on_settings_change", "on_panel_change", got )";
  EXPECT_THAT(strs(result.issues),
              ElementsAre("author: missing required field",
                          R"(id = "app.streamnook.evil": expected an id outside the reserved prefix "app.streamnook.")",
                          R"(name = "NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN": expected at most 40 characters, got 41)",
                          R"(version = "1.0": expected a semantic version MAJOR.MINOR.PATCH (SemVer 2.0.0, e.g. "1.0.0"))",
                          R"(tier = "D": expected one of "A", "B", "C", got "D")",
                          R"(runtime.kind = "wasm": expected one of "process", "ui", got "wasm"; "wasm" is reserved and not supported (use "process"))",
                          R"(runtime.entry = "/bin/sh": expected a path relative to the plugin directory, not an absolute path (no leading / or \, no drive letter "C:"))",
                          R"(runtime.args = "x": expected array, got string)",
                          R"(runtime.transport = "socket": expected one of "stdio", got "socket"; "socket" is reserved and not supported (use "stdio"))",
                          R"(capabilities.events[1] = "on_stream_start": expected unique items (same as capabilities.events[0]))",
                          R"(capabilities.events[2] = " on_chat_message": )" + events +
                              R"(" on_chat_message"; note the leading or trailing whitespace)",
                          R"(capabilities.events[3] = "on_raid": )" + events + R"("on_raid")",
                          R"(capabilities.events[4] = "": )" + events + R"("")",
                          R"(capabilities.credentials[0] = "twitch.web": expected one of "twitch.android", got "twitch.web")",
                          R"(capabilities.network = "internal": expected one of "none", "external", got "internal")",
                          R"(contributes.actions[0] = "resolve": expected a namespaced id feature.name (lowercase letters, digits and "-", dot-separated, no "_", e.g. "drops.mine-auto"))"));
}

// Each issue says where in plugin.toml: the offending value, the table of a missing member
// (the top level is 1:1), the line and column of a syntax error.
TEST(ManifestToml, EveryIssueIsLocatedInTheFile) {
  TempDir tmp;
  tmp.write("plugin.toml", R"(id = "app.streamnook.evil"
name = "x"
version = "1.0.0"
tier = "C"
description = "fine"
host_min = "7.0.0"

[runtime]
kind = "wasm"

[capabilities]
events = ["on_stream_start", "on_raid"]
when = 1979-05-27
)");
  rs::ManifestResult result = rs::load_manifest(tmp.path());
  std::vector<std::string> located;
  for (const rs::ManifestIssue& issue : result.issues) located.push_back(issue.located());
  EXPECT_THAT(located,
              ElementsAre("plugin.toml:1:1: author: missing required field",
                          R"(plugin.toml:1:6: id = "app.streamnook.evil": expected an id outside the reserved prefix "app.streamnook.")",
                          "plugin.toml:8:1: runtime.entry: missing required field",
                          R"(plugin.toml:9:8: runtime.kind = "wasm": expected one of "process", "ui", got "wasm"; "wasm" is reserved and not supported (use "process"))",
                          R"(plugin.toml:12:30: capabilities.events[1] = "on_raid": expected one of "on_stream_start", "on_stream_stop", "on_channel_change", "on_watch_tick", "on_followed_live", "on_chat_message", "on_settings_change", "on_panel_change", got "on_raid")",
                          R"(plugin.toml:13:8: capabilities.when = 1979-05-27: is a TOML date/time, which a manifest never holds (quote it if a string is meant))"));

  tmp.write("plugin.toml", "id = \"dev.example.x\"\nname = \"X\"\nversion = = \"1.0.0\"\n");
  rs::ManifestResult syntax = rs::load_manifest(tmp.path());
  ASSERT_EQ(syntax.issues.size(), 1U);
  EXPECT_EQ(syntax.issues[0].line, 3U);
  EXPECT_EQ(syntax.issues[0].column, 11U);
  EXPECT_THAT(syntax.issues[0].located(), StartsWith("plugin.toml:3:11: plugin.toml: TOML syntax error"));

  // Checked as JSON, there is no file to point into.
  rs::ManifestResult from_json = rs::check_manifest(json::object());
  ASSERT_FALSE(from_json.issues.empty());
  EXPECT_EQ(from_json.issues[0].line, 0U);
  EXPECT_EQ(from_json.issues[0].located("manifest.json"), "manifest.json: id: missing required field");
}

TEST(ManifestToml, SyntaxErrorReportsLineAndColumn) {
  TempDir tmp;
  tmp.write("plugin.toml", "id = \"dev.example.x\"\nname = \"X\"\nversion = = \"1.0.0\"\n");
  rs::ManifestResult result = rs::load_manifest(tmp.path());
  ASSERT_EQ(result.issues.size(), 1U) << ::testing::PrintToString(strs(result.issues));
  const rs::ManifestIssue& issue = result.issues[0];
  EXPECT_EQ(issue.field, "plugin.toml");
  EXPECT_EQ(issue.value, "");
  EXPECT_THAT(issue.rule, StartsWith("TOML syntax error at 3:11: "));
  EXPECT_GT(issue.rule.size(), std::string("TOML syntax error at 3:11: ").size());
  EXPECT_FALSE(result.loaded.has_value());
}

TEST(ManifestToml, SyntaxErrorsOfOtherKinds) {
  TempDir tmp;
  // A duplicate key (line 2) and an unterminated string (line 3, after "entry = ").
  tmp.write("plugin.toml", "id = \"a.b\"\nid = \"c.d\"\n");
  rs::ManifestResult duplicate = rs::load_manifest(tmp.path());
  ASSERT_EQ(duplicate.issues.size(), 1U);
  EXPECT_THAT(duplicate.issues[0].str(), StartsWith("plugin.toml: TOML syntax error at 2:"));
  tmp.write("plugin.toml", "[runtime]\nkind = \"process\"\nentry = \"bin/x\n");
  rs::ManifestResult unterminated = rs::load_manifest(tmp.path());
  ASSERT_EQ(unterminated.issues.size(), 1U);
  EXPECT_THAT(unterminated.issues[0].str(), StartsWith("plugin.toml: TOML syntax error at 3:"));
  tmp.write("plugin.toml", std::string("name = \"\xFF\"\n"));  // invalid UTF-8
  rs::ManifestResult utf8 = rs::load_manifest(tmp.path());
  ASSERT_EQ(utf8.issues.size(), 1U);
  EXPECT_THAT(utf8.issues[0].str(), StartsWith("plugin.toml: TOML syntax error at 1:"));
}

TEST(ManifestToml, MissingPluginTomlIsAnIssueNotAnException) {
  TempDir tmp;
  rs::ManifestResult result = rs::load_manifest(tmp.path());
  ASSERT_EQ(result.issues.size(), 1U);
  EXPECT_EQ(result.issues[0].field, "plugin.toml");
  EXPECT_EQ(result.issues[0].str(),
            "plugin.toml: not found (" + (tmp.path() / "plugin.toml").string() + ")");
  EXPECT_FALSE(result.loaded.has_value());

  rs::ManifestResult no_dir = rs::load_manifest(tmp.path() / "does" / "not" / "exist");
  ASSERT_EQ(no_dir.issues.size(), 1U);
  EXPECT_THAT(no_dir.issues[0].str(), StartsWith("plugin.toml: not found ("));

  std::filesystem::create_directory(tmp.path() / "plugin.toml");
  rs::ManifestResult directory = rs::load_manifest(tmp.path());
  ASSERT_EQ(directory.issues.size(), 1U);
  EXPECT_THAT(directory.issues[0].str(), StartsWith("plugin.toml: is not a regular file ("));
}

TEST(ManifestToml, EmptyFileReportsEveryRequiredField) {
  TempDir tmp;
  tmp.write("plugin.toml", "");
  rs::ManifestResult result = rs::load_manifest(tmp.path());
  EXPECT_THAT(fields(result.issues), ElementsAre("id", "name", "version", "author", "tier",
                                                 "description", "host_min", "runtime"));
}

TEST(ManifestToml, DatesAndTimesAreIssuesReportedOnce) {
  TempDir tmp;
  tmp.write("plugin.toml", R"(id = "dev.example.dates"
name = "Dates"
version = 1979-05-27
author = "me"
tier = "C"
description = ""
host_min = "7.0.0"
released = 1979-05-27T07:32:00Z
not_a_number = nan

[runtime]
kind = "process"
entry = "x"
args = [07:32:00]
)");
  rs::ManifestResult result = rs::load_manifest(tmp.path());
  EXPECT_FALSE(result.loaded.has_value());
  const std::string rule =
      "is a TOML date/time, which a manifest never holds (quote it if a string is meant)";
  // One issue per value: the null standing in for a date is not reported a second time.
  EXPECT_THAT(strs(result.issues),
              ElementsAre("version = 1979-05-27: " + rule, "released = 1979-05-27T07:32:00Z: " + rule,
                          "not_a_number = nan: is not a finite number, which JSON cannot hold",
                          "runtime.args[0] = 07:32:00: " + rule));
}

TEST(ManifestToml, UnknownKeysAndTablesAreIgnored) {
  TempDir tmp;
  tmp.write("plugin.toml", R"(id = "dev.example.future"
name = "Future"
version = "2.0.0"
author = "me"
tier = "A"
description = "from a newer toolkit"
host_min = "8.0.0"
min_protocol = 1

[runtime]
kind = "process"
entry = "run"
sandbox = "strict"

[capabilities]
storage = ["local"]

[signing]
key = "abc"
)");
  rs::ManifestResult result = rs::load_manifest(tmp.path());
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(strs(result.issues));
  EXPECT_EQ(result.loaded->json.get().at("signing").at("key"), "abc");
  EXPECT_EQ(result.loaded->manifest.id, "dev.example.future");
}

TEST(ManifestToml, MultiByteNameOf40CharactersLoads) {
  TempDir tmp;
  std::string name;
  for (int i = 0; i < 40; ++i) name += "\xE2\x98\x85";  // ★
  tmp.write("plugin.toml", "id = \"dev.example.stars\"\nname = \"" + name +
                               "\"\nversion = \"1.0.0\"\nauthor = \"\"\ntier = \"C\"\n"
                               "description = \"\"\nhost_min = \"7.0.0\"\n"
                               "[runtime]\nkind = \"process\"\nentry = \"x\"\n");
  rs::ManifestResult result = rs::load_manifest(tmp.path());
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(strs(result.issues));
  EXPECT_EQ(result.loaded->manifest.name, name);
  EXPECT_EQ(result.loaded->manifest.name.size(), 120U);
}

}  // namespace
}  // namespace manifest_test
