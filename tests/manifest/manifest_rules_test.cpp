// check_manifest(): every rule of spec section 7 on the JSON form of a manifest.
#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support.hpp"

namespace manifest_test {
namespace {

using ::testing::ElementsAre;

// ---- the fixtures of tests/fixtures/examples/manifest.json ---------------------------------

TEST(ManifestFixtures, EveryValidManifestPasses) {
  const json& valid = fixtures().at("valid");
  ASSERT_GE(valid.size(), 9U);
  for (std::size_t i = 0; i < valid.size(); ++i) {
    SCOPED_TRACE("valid[" + std::to_string(i) + "]");
    rs::ManifestResult result = rs::check_manifest(valid[i], "/plugins/x");
    EXPECT_TRUE(result.ok()) << ::testing::PrintToString(strs(result.issues));
    ASSERT_TRUE(result.loaded.has_value());
    EXPECT_EQ(result.loaded->manifest.id, valid[i].at("id").get<std::string>());
    EXPECT_EQ(result.loaded->json, valid[i]);
    EXPECT_EQ(result.loaded->dir, std::filesystem::path("/plugins/x"));
  }
}

// The field each invalid fixture is about, by its "why". A fixture missing here fails the
// test, so a new fixture cannot pass unchecked.
const std::map<std::string, std::string>& expected_fields() {
  static const std::map<std::string, std::string> table = {
      {"id missing", "id"},
      {"id with uppercase and no dot", "id"},
      {"id without a dot", "id"},
      {"id with underscore", "id"},
      {"id longer than 64", "id"},
      {"reserved app.streamnook. prefix", "id"},
      {"empty name", "name"},
      {"name longer than 40", "name"},
      {"version is not MAJOR.MINOR.PATCH", "version"},
      {"version with a v prefix", "version"},
      {"version with a leading zero", "version"},
      {"author missing", "author"},
      {"unknown tier", "tier"},
      {"lowercase tier", "tier"},
      {"description longer than 200", "description"},
      {"description missing", "description"},
      {"homepage not https", "homepage"},
      {"homepage without a scheme", "homepage"},
      {"host_min is not semver", "host_min"},
      {"host_min missing", "host_min"},
      {"runtime missing", "runtime"},
      {"wasm runtime is reserved", "runtime.kind"},
      {"runtime kind is case-sensitive", "runtime.kind"},
      {"runtime kind missing", "runtime.kind"},
      {"socket transport is reserved", "runtime.transport"},
      {"absolute POSIX entry", "runtime.entry"},
      {"absolute Windows entry", "runtime.entry"},
      {"UNC entry", "runtime.entry"},
      {"entry escaping with ..", "runtime.entry"},
      {"entry with a .. segment", "runtime.entry"},
      {"entry with a backslash .. segment", "runtime.entry"},
      {"entry is ..", "runtime.entry"},
      {"empty entry", "runtime.entry"},
      {"entry missing", "runtime.entry"},
      {"args is a string", "runtime.args"},
      {"duplicate event", "capabilities.events[1]"},
      {"whitespace-padded event", "capabilities.events[0]"},
      {"trailing whitespace in event", "capabilities.events[0]"},
      {"empty event", "capabilities.events[0]"},
      {"unknown event", "capabilities.events[0]"},
      {"get_credential is not a host_methods capability", "capabilities.host_methods[0]"},
      {"duplicate host method", "capabilities.host_methods[1]"},
      {"unknown credential kind", "capabilities.credentials[0]"},
      {"credential kind is case-sensitive", "capabilities.credentials[0]"},
      {"unknown network access", "capabilities.network"},
      {"unknown ui capability", "capabilities.ui[0]"},
      {"duplicate ui capability", "capabilities.ui[1]"},
      {"events is a string", "capabilities.events"},
      {"action id not namespaced", "contributes.actions[0]"},
      {"uppercase action id", "contributes.actions[0]"},
      {"action id with underscore (the real host refuses it)", "contributes.actions[0]"},
      {"status slot with underscore (the real host refuses it)", "contributes.status[0]"},
      {"duplicate status slot", "contributes.status[1]"},
      {"empty name after the dot", "contributes.provides[0]"},
  };
  return table;
}

TEST(ManifestFixtures, EveryInvalidManifestIsReportedAtTheFieldItsWhyNames) {
  const json& invalid = fixtures().at("invalid");
  ASSERT_GE(invalid.size(), 54U);
  std::set<std::string> seen;
  for (const json& entry : invalid) {
    const std::string why = entry.at("why").get<std::string>();
    SCOPED_TRACE(why);
    seen.insert(why);
    auto expected = expected_fields().find(why);
    ASSERT_NE(expected, expected_fields().end()) << "add this fixture to expected_fields()";
    rs::ManifestResult result = rs::check_manifest(entry.at("manifest"));
    EXPECT_FALSE(result.ok());
    EXPECT_FALSE(result.loaded.has_value());
    // Every issue is about the one thing the fixture broke: nothing else is reported.
    ASSERT_FALSE(result.issues.empty());
    for (const rs::ManifestIssue& issue : result.issues) {
      EXPECT_EQ(issue.field, expected->second) << issue.str();
      EXPECT_FALSE(issue.rule.empty());
      // The schema explains every pattern it has (x-error-messages): no regex for the reader.
      EXPECT_THAT(issue.rule, ::testing::Not(::testing::HasSubstr("matching"))) << issue.str();
    }
  }
  EXPECT_EQ(seen.size(), expected_fields().size()) << "a table entry matches no fixture";
}

// ---- exact reports --------------------------------------------------------------------------

const std::string kEvents =
    R"(expected one of "on_stream_start", "on_stream_stop", "on_channel_change", "on_watch_tick", )"
    R"("on_followed_live", "on_chat_message", "on_settings_change", "on_panel_change", got )";
const std::string kNamespacedId =
    R"(expected a namespaced id feature.name (lowercase letters, digits and "-", dot-separated, )"
    R"(no "_", e.g. "drops.mine-auto"))";

// The issues of the full valid manifest with `path` (a JSON pointer) set to `value`.
std::vector<std::string> report_with(const std::string& pointer, const json& value) {
  json m = full_manifest();
  m[json::json_pointer(pointer)] = value;
  rs::ManifestResult result = rs::check_manifest(m);
  EXPECT_EQ(result.loaded.has_value(), result.ok());
  return strs(result.issues);
}

std::vector<std::string> report_without(const std::string& pointer) {
  json m = full_manifest();
  json::json_pointer p(pointer);
  m[p.parent_pointer()].erase(p.back());
  return strs(rs::check_manifest(m).issues);
}

TEST(ManifestRules, WasmRuntimeIsReserved) {
  EXPECT_THAT(report_with("/runtime/kind", "wasm"),
              ElementsAre(R"(runtime.kind = "wasm": expected one of "process", "ui", got "wasm"; )"
                          R"("wasm" is reserved and not supported (use "process"))"));
}

TEST(ManifestRules, UnknownRuntimeKind) {
  EXPECT_THAT(report_with("/runtime/kind", "Process"),
              ElementsAre(R"(runtime.kind = "Process": expected one of "process", "ui", got "Process")"));
}

// "ui" is allowed by the manifest: whether a host runs ui plugins is the host's decision.
TEST(ManifestRules, UiRuntimeIsAValidManifest) {
  json m = full_manifest();
  m["runtime"]["kind"] = "ui";
  rs::ManifestResult result = rs::check_manifest(m);
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(strs(result.issues));
  EXPECT_EQ(result.loaded->manifest.runtime.kind, sn::RuntimeKind::kUi);
}

TEST(ManifestRules, SocketTransportIsReserved) {
  EXPECT_THAT(report_with("/runtime/transport", "socket"),
              ElementsAre(R"(runtime.transport = "socket": expected one of "stdio", got "socket"; )"
                          R"("socket" is reserved and not supported (use "stdio"))"));
  EXPECT_THAT(report_with("/runtime/transport", "pipe"),
              ElementsAre(R"(runtime.transport = "pipe": expected one of "stdio", got "pipe")"));
}

TEST(ManifestRules, ReservedIdPrefix) {
  EXPECT_THAT(report_with("/id", "app.streamnook.drops"),
              ElementsAre(R"(id = "app.streamnook.drops": expected an id outside the reserved prefix "app.streamnook.")"));
  // Only the exact "app.streamnook." prefix is reserved.
  EXPECT_THAT(report_with("/id", "app.streamnookx.drops"), ElementsAre());
  EXPECT_THAT(report_with("/id", "dev.app.streamnook"), ElementsAre());
}

TEST(ManifestRules, IdPatternAndLength) {
  const std::string pattern_rule =
      R"(expected a plugin id: lowercase letters and digits in dot-separated parts, "-" allowed )"
      R"(after the first dot (e.g. "dev.example.my-plugin"))";
  EXPECT_THAT(report_with("/id", "DropsMiner"), ElementsAre(R"(id = "DropsMiner": )" + pattern_rule));
  EXPECT_THAT(report_with("/id", "-dev.x"), ElementsAre(R"(id = "-dev.x": )" + pattern_rule));
  EXPECT_THAT(report_with("/id", "dev.x."), ElementsAre(R"(id = "dev.x.": )" + pattern_rule));
  EXPECT_THAT(report_with("/id", "dev.-x-"), ElementsAre());  // '-' anywhere after the first dot
  const std::string id65 = std::string(30, 'x') + "." + std::string(34, 'y');
  ASSERT_EQ(id65.size(), 65U);
  EXPECT_THAT(report_with("/id", id65),
              ElementsAre("id = \"" + id65 + "\": expected at most 64 characters, got 65"));
  EXPECT_THAT(report_with("/id", id65.substr(1)), ElementsAre());
  // Several rules broken at once: each is reported.
  EXPECT_THAT(report_with("/id", "app.streamnook." + std::string(50, 'A')),
              ::testing::SizeIs(3));
}

TEST(ManifestRules, BadSemver) {
  const std::string rule =
      R"(expected a semantic version MAJOR.MINOR.PATCH (SemVer 2.0.0, e.g. "1.0.0"))";
  EXPECT_THAT(report_with("/version", "1.0"), ElementsAre(R"(version = "1.0": )" + rule));
  EXPECT_THAT(report_with("/version", "v1.0.0"), ElementsAre(R"(version = "v1.0.0": )" + rule));
  EXPECT_THAT(report_with("/version", "1.0.0-"), ElementsAre(R"(version = "1.0.0-": )" + rule));
  EXPECT_THAT(report_with("/host_min", "7.08.0"), ElementsAre(R"(host_min = "7.08.0": )" + rule));
  EXPECT_THAT(report_with("/version", "1.0.0-alpha.01"), ::testing::SizeIs(1));
  EXPECT_THAT(report_with("/version", "1.0.0+"), ::testing::SizeIs(1));
  EXPECT_THAT(report_with("/version", "1.0.0-0A.is.legal+build.007"), ElementsAre());
}

TEST(ManifestRules, AbsoluteEntry) {
  const std::string rule =
      R"(expected a path relative to the plugin directory, not an absolute path (no leading / )"
      R"(or \, no drive letter "C:"))";
  EXPECT_THAT(report_with("/runtime/entry", "/usr/local/bin/drops-miner"),
              ElementsAre(R"(runtime.entry = "/usr/local/bin/drops-miner": )" + rule));
  EXPECT_THAT(report_with("/runtime/entry", R"(\\server\share\x.exe)"),
              ElementsAre(R"(runtime.entry = "\\\\server\\share\\x.exe": )" + rule));
  EXPECT_THAT(report_with("/runtime/entry", R"(\bin\x.exe)"), ::testing::SizeIs(1));
  EXPECT_THAT(report_with("/runtime/entry", R"(C:\plugins\drops-miner.exe)"),
              ElementsAre(R"(runtime.entry = "C:\\plugins\\drops-miner.exe": )" + rule));
  EXPECT_THAT(report_with("/runtime/entry", "c:x.exe"), ::testing::SizeIs(1));
}

TEST(ManifestRules, EntryWithDotDot) {
  const std::string rule =
      R"(expected no ".." segment and no NUL character (the entry must stay inside the plugin )"
      R"(directory))";
  EXPECT_THAT(report_with("/runtime/entry", "bin/../../drops-miner"),
              ElementsAre(R"(runtime.entry = "bin/../../drops-miner": )" + rule));
  EXPECT_THAT(report_with("/runtime/entry", ".."), ElementsAre(R"(runtime.entry = "..": )" + rule));
  EXPECT_THAT(report_with("/runtime/entry", R"(bin\..\x.exe)"), ::testing::SizeIs(1));
  EXPECT_THAT(report_with("/runtime/entry", "bin/.."), ::testing::SizeIs(1));
  // Absolute and escaping at once: both reported.
  EXPECT_THAT(report_with("/runtime/entry", "/../x"), ::testing::SizeIs(2));
  // ".." inside a name is not a segment.
  EXPECT_THAT(report_with("/runtime/entry", "bin/..hidden/run"), ElementsAre());
  EXPECT_THAT(report_with("/runtime/entry", "bin/run..sh"), ElementsAre());
  EXPECT_THAT(report_with("/runtime/entry", "./bin/run"), ElementsAre());
}

TEST(ManifestRules, EmptyEntryAndNul) {
  EXPECT_THAT(report_with("/runtime/entry", ""),
              ElementsAre(R"(runtime.entry = "": expected at least 1 character, got 0)"));
  EXPECT_THAT(report_with("/runtime/entry", std::string("bin/x\0y", 7)),
              ElementsAre(R"(runtime.entry = "bin/x\u0000y": expected no ".." segment and no NUL )"
                          R"(character (the entry must stay inside the plugin directory))"));
}

TEST(ManifestRules, DuplicateCapability) {
  EXPECT_THAT(report_with("/capabilities/host_methods", {"notify", "log", "notify"}),
              ElementsAre(R"(capabilities.host_methods[2] = "notify": expected unique items (same as capabilities.host_methods[0]))"));
  // Every repeat is reported, each naming the first of its kind.
  EXPECT_THAT(report_with("/capabilities/events", {"on_stream_stop", "on_stream_start",
                                                   "on_stream_stop", "on_stream_start",
                                                   "on_stream_stop"}),
              ElementsAre(R"(capabilities.events[2] = "on_stream_stop": expected unique items (same as capabilities.events[0]))",
                          R"(capabilities.events[3] = "on_stream_start": expected unique items (same as capabilities.events[1]))",
                          R"(capabilities.events[4] = "on_stream_stop": expected unique items (same as capabilities.events[0]))"));
}

TEST(ManifestRules, WhitespacePaddedCapability) {
  EXPECT_THAT(report_with("/capabilities/events", {" on_stream_start"}),
              ElementsAre(R"(capabilities.events[0] = " on_stream_start": )" + kEvents +
                          R"(" on_stream_start"; note the leading or trailing whitespace)"));
  EXPECT_THAT(report_with("/capabilities/ui", {"panel\t"}),
              ElementsAre(R"(capabilities.ui[0] = "panel\t": expected one of "panel", got )"
                          R"("panel\t"; note the leading or trailing whitespace)"));
  EXPECT_THAT(report_with("/contributes/actions", {"drops.claim "}),
              ElementsAre(R"(contributes.actions[0] = "drops.claim ": )" + kNamespacedId +
                          "; note the leading or trailing whitespace"));
}

TEST(ManifestRules, UnknownCapability) {
  EXPECT_THAT(report_with("/capabilities/events", {"on_stream_start", "on_raid"}),
              ElementsAre(R"(capabilities.events[1] = "on_raid": )" + kEvents + R"("on_raid")"));
  EXPECT_THAT(report_with("/capabilities/host_methods", {"get_credential", "set_status"}),
              ElementsAre(R"(capabilities.host_methods[0] = "get_credential": expected one of )"
                          R"("get_followed_live", "set_upstream", "notify", "log", "register_panel", )"
                          R"("get_panel_values", got "get_credential"; get_credential is gated by )"
                          R"(capabilities.credentials, not listed here)",
                          R"(capabilities.host_methods[1] = "set_status": expected one of )"
                          R"("get_followed_live", "set_upstream", "notify", "log", "register_panel", )"
                          R"("get_panel_values", got "set_status"; set_status is gated by )"
                          R"(contributes.status, not listed here)"));
  EXPECT_THAT(report_with("/capabilities/credentials", {"Twitch.Android"}),
              ElementsAre(R"(capabilities.credentials[0] = "Twitch.Android": expected one of )"
                          R"("twitch.android", got "Twitch.Android")"));
  EXPECT_THAT(report_with("/capabilities/ui", {"sidebar"}),
              ElementsAre(R"(capabilities.ui[0] = "sidebar": expected one of "panel", got "sidebar")"));
  EXPECT_THAT(report_with("/capabilities/network", "internal"),
              ElementsAre(R"(capabilities.network = "internal": expected one of "none", "external", )"
                          R"(got "internal")"));
}

TEST(ManifestRules, EmptyCapability) {
  EXPECT_THAT(report_with("/capabilities/events", {""}),
              ElementsAre(R"(capabilities.events[0] = "": )" + kEvents + R"("")"));
  EXPECT_THAT(report_with("/contributes/status", {"drops.status", ""}),
              ElementsAre(R"(contributes.status[1] = "": )" + kNamespacedId));
}

TEST(ManifestRules, NameLength) {
  const std::string n41(41, 'N');
  EXPECT_THAT(report_with("/name", n41),
              ElementsAre("name = \"" + n41 + "\": expected at most 40 characters, got 41"));
  EXPECT_THAT(report_with("/name", ""), ElementsAre(R"(name = "": expected at least 1 character, got 0)"));
  EXPECT_THAT(report_with("/name", std::string(40, 'N')), ElementsAre());
  // Characters, not bytes: 40 two-byte, three-byte and four-byte characters are accepted.
  std::string e40, cjk40, emoji40;
  for (int i = 0; i < 40; ++i) {
    e40 += "\xC3\xA9";              // é
    cjk40 += "\xE5\x90\x8D";        // 名
    emoji40 += "\xF0\x9F\x8E\xAE";  // 🎮
  }
  ASSERT_EQ(emoji40.size(), 160U);
  for (const std::string& name : {e40, cjk40, emoji40}) {
    json m = full_manifest();
    m["name"] = name;
    rs::ManifestResult result = rs::check_manifest(m);
    EXPECT_TRUE(result.ok()) << ::testing::PrintToString(strs(result.issues));
    ASSERT_TRUE(result.loaded.has_value());
    EXPECT_EQ(result.loaded->manifest.name, name);
  }
  EXPECT_THAT(report_with("/name", e40 + "\xC3\xA9"),
              ElementsAre("name = \"" + e40 + "\xC3\xA9\": expected at most 40 characters, got 41"));
}

TEST(ManifestRules, DescriptionLength) {
  const std::string d201(201, 'd');
  EXPECT_THAT(report_with("/description", d201),
              ElementsAre("description = \"" + d201 + "\": expected at most 200 characters, got 201"));
  EXPECT_THAT(report_with("/description", std::string(200, 'd')), ElementsAre());
  std::string u200;
  for (int i = 0; i < 200; ++i) u200 += "\xC3\xBC";  // ü
  EXPECT_THAT(report_with("/description", u200), ElementsAre());
  EXPECT_THAT(report_with("/description", u200 + "!"), ::testing::SizeIs(1));
}

TEST(ManifestRules, TierAuthorHomepage) {
  EXPECT_THAT(report_with("/tier", "a"), ElementsAre(R"(tier = "a": expected one of "A", "B", "C", got "a")"));
  EXPECT_THAT(report_without("/author"), ElementsAre("author: missing required field"));
  EXPECT_THAT(report_with("/author", nullptr), ElementsAre("author = null: expected string, got null"));
  EXPECT_THAT(report_with("/homepage", "http://example.org"),
              ElementsAre(R"(homepage = "http://example.org": expected an https:// URL)"));
  EXPECT_THAT(report_with("/homepage", "https://"), ::testing::SizeIs(1));
  EXPECT_THAT(report_with("/homepage", "https://example.org/a b"), ::testing::SizeIs(1));
  EXPECT_THAT(report_with("/homepage", "https://example.org"), ElementsAre());
  EXPECT_THAT(report_with("/homepage", "https://example.org:8443/x?y#z"), ElementsAre());
  EXPECT_THAT(report_without("/homepage"), ElementsAre());  // optional
}

TEST(ManifestRules, WrongKindsNameTheExpectedKind) {
  EXPECT_THAT(report_with("/runtime/args", "x"),
              ElementsAre(R"(runtime.args = "x": expected array, got string)"));
  EXPECT_THAT(report_with("/runtime/args", {"--a", 3, true}),
              ElementsAre("runtime.args[1] = 3: expected string, got integer",
                          "runtime.args[2] = true: expected string, got boolean"));
  EXPECT_THAT(report_with("/id", 5), ElementsAre("id = 5: expected string, got integer"));
  EXPECT_THAT(report_with("/version", 1.5), ElementsAre("version = 1.5: expected string, got float"));
  EXPECT_THAT(report_with("/runtime", "bin/x"),
              ElementsAre(R"(runtime = "bin/x": expected table, got string)"));
  EXPECT_THAT(report_with("/capabilities", json::array()),
              ElementsAre("capabilities = []: expected table, got array"));
  EXPECT_THAT(report_with("/capabilities/events", "on_stream_start"),
              ElementsAre(R"(capabilities.events = "on_stream_start": expected array, got string)"));
  EXPECT_THAT(report_with("/capabilities/events", json::array({json::array({"on_stream_start"})})),
              ElementsAre(R"(capabilities.events[0] = ["on_stream_start"]: expected string, got array)"));
  EXPECT_THAT(report_with("/contributes/actions", json::object()),
              ElementsAre("contributes.actions = {}: expected array, got table"));
  EXPECT_THAT(strs(rs::check_manifest(json::array()).issues),
              ElementsAre("(root) = []: expected table, got array"));
}

TEST(ManifestRules, MissingRequiredFields) {
  EXPECT_THAT(report_without("/id"), ElementsAre("id: missing required field"));
  EXPECT_THAT(report_without("/runtime"), ElementsAre("runtime: missing required field"));
  EXPECT_THAT(report_without("/runtime/entry"), ElementsAre("runtime.entry: missing required field"));
  EXPECT_THAT(fields(rs::check_manifest(json::object()).issues),
              ElementsAre("id", "name", "version", "author", "tier", "description", "host_min",
                          "runtime"));
  // Optional: args, transport, capabilities, contributes and every list in them.
  rs::ManifestResult minimal = rs::check_manifest(minimal_manifest());
  ASSERT_TRUE(minimal.ok()) << ::testing::PrintToString(strs(minimal.issues));
  EXPECT_FALSE(minimal.loaded->manifest.capabilities.has_value());
  EXPECT_FALSE(minimal.loaded->manifest.runtime.args.has_value());  // defaults not filled
  EXPECT_EQ(minimal.loaded->manifest.runtime.transport_or_default(), sn::RuntimeTransport::kStdio);
}

TEST(ManifestRules, NamespacedContributionIds) {
  EXPECT_THAT(report_with("/contributes/actions", {"resolve"}),
              ElementsAre(R"(contributes.actions[0] = "resolve": )" + kNamespacedId));
  EXPECT_THAT(report_with("/contributes/provides", {"drops."}),
              ElementsAre(R"(contributes.provides[0] = "drops.": )" + kNamespacedId));
  EXPECT_THAT(report_with("/contributes/status", {"Drops.Status"}), ::testing::SizeIs(1));
  EXPECT_THAT(report_with("/contributes/actions", {"a.b.c", "x-y.z-w", "0.1"}), ElementsAre());
}

// Contribution ids take the real StreamNook host's character set (issue 29; schema/README.md):
// its install check (src-tauri/src/plugin_host/manifest.rs, is_namespaced_id) wants two or more
// dot-separated parts, each non-empty, of a-z, 0-9 and "-". The spec says only "namespaced
// feature.name ids"; every example it gives passes.
TEST(ManifestRules, ContributionIdsTakeTheRealHostsCharacterSet) {
  const std::vector<std::string> valid = {
      // the spec's (sections 6 and 7)
      "feature.name", "playback.resolve", "drops.status",
      // the real host's hook catalog (docs/plugins/HOOKS.md, MANIFEST.md)
      "drops.mine", "drops.mine-auto", "drops.mine-all", "drops.stop", "drops.mining", "drops.run",
      // what its check lets through besides: digits, "-" anywhere in a part, more parts
      "0.1", "-x.y-", "a.b.c", "live-alerts.test", "live-alerts.live-count"};
  const std::vector<std::string> invalid = {
      // "_": refused by the real host ("contribution '...' must be a namespaced id like
      // 'feature.name'"), as live-alerts' own ids were before issue 29
      "live_alerts.test", "live_alerts.live_count", "drops.claim_all", "x.y_", "_.x",
      // not namespaced, an empty part, other characters: refused by both
      "resolve", "drops.", ".drops", "drops..mine", "Drops.Status", "drops.mine auto",
      " drops.mine", "drops/mine", "drops.m\u00eene", "drops.mine\n", ""};
  for (const char* list : {"actions", "status", "provides"}) {
    SCOPED_TRACE(list);
    const std::string pointer = std::string("/contributes/") + list;
    for (const std::string& id : valid) {
      EXPECT_THAT(report_with(pointer, {id}), ElementsAre()) << id;
    }
    for (const std::string& id : invalid) {
      json m = full_manifest();
      m["contributes"][list] = {id};
      rs::ManifestResult result = rs::check_manifest(m);
      ASSERT_EQ(result.issues.size(), 1U) << id;
      EXPECT_EQ(result.issues[0].field, "contributes." + std::string(list) + "[0]");
      // (a padded id also gets the whitespace hint)
      EXPECT_THAT(result.issues[0].rule, ::testing::StartsWith(kNamespacedId)) << id;
    }
  }
}

TEST(ManifestRules, AllViolationsAreCollected) {
  json m = full_manifest();
  m["id"] = "app.streamnook.x";
  m["name"] = "";
  m["version"] = "1";
  m.erase("author");
  m["runtime"]["kind"] = "wasm";
  m["runtime"]["entry"] = "../x";
  m["runtime"]["args"] = "x";
  m["runtime"]["transport"] = "socket";
  m["capabilities"]["events"] = {"on_stream_start", "on_stream_start", "on_raid"};
  m["capabilities"]["network"] = "internal";
  m["contributes"]["status"] = {"status"};
  rs::ManifestResult result = rs::check_manifest(m);
  EXPECT_FALSE(result.loaded.has_value());
  EXPECT_THAT(fields(result.issues),
              ElementsAre("id", "name", "version", "author", "runtime.kind", "runtime.entry",
                          "runtime.args", "runtime.transport", "capabilities.events[1]",
                          "capabilities.events[2]", "capabilities.network", "contributes.status[0]"));
}

// Unknown keys are ignored (forward compatibility), at the top level and inside the tables.
TEST(ManifestRules, UnknownKeysAreIgnored) {
  json m = full_manifest();
  m["future_field"] = {{"anything", 1}};
  m["runtime"]["sandbox"] = true;
  m["capabilities"]["storage"] = "local";
  m["contributes"]["menus"] = {"x"};
  rs::ManifestResult result = rs::check_manifest(m);
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(strs(result.issues));
  EXPECT_EQ(result.loaded->json.get().at("future_field").at("anything"), 1);  // kept in json
}

TEST(ManifestRules, EveryCapabilityOfTheSpecIsKnown) {
  json m = minimal_manifest();
  const std::vector<std::string> events = {
      "on_stream_start",  "on_stream_stop",  "on_channel_change",  "on_watch_tick",
      "on_followed_live", "on_chat_message", "on_settings_change", "on_panel_change"};
  const std::vector<std::string> methods = {"get_followed_live", "set_upstream",   "notify",
                                            "log",               "register_panel", "get_panel_values"};
  m["capabilities"] = {{"events", events},
                       {"host_methods", methods},
                       {"credentials", {"twitch.android"}},
                       {"network", "none"},
                       {"ui", {"panel"}}};
  rs::ManifestResult result = rs::check_manifest(m);
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(strs(result.issues));
  const sn::ManifestCapabilities& caps = *result.loaded->manifest.capabilities;
  ASSERT_EQ(caps.events_or_default().size(), events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    EXPECT_TRUE(caps.events_or_default()[i].is_known());
    EXPECT_EQ(caps.events_or_default()[i].wire(), events[i]);
  }
  ASSERT_EQ(caps.host_methods_or_default().size(), methods.size());
  for (std::size_t i = 0; i < methods.size(); ++i) {
    EXPECT_EQ(caps.host_methods_or_default()[i].wire(), methods[i]);
  }
  EXPECT_EQ(caps.network_or_default(), sn::NetworkAccess::kNone);
}

// ---- the rules agree with the schema's own patterns ------------------------------------------

// Random strings over an alphabet that hits the interesting cases; for each, check_manifest
// must reject exactly what the schema's pattern / not-pattern / length constraints reject, and
// always through its own rules (never through the decoder's "expected ..." safety net).
struct SchemaString {
  std::string pointer;  // where it goes in the manifest and in the schema
  std::string alphabet;
  std::vector<std::string> fragments;  // pieces glued in besides single characters
};

json schema_property(const std::string& pointer) {
  static const json schema =
      json::parse(read_text(source_dir() / "schema" / "manifest.json"));
  json node = schema;
  std::vector<std::string> keys;
  for (std::size_t at = 1; at <= pointer.size();) {
    std::size_t slash = std::min(pointer.find('/', at), pointer.size());
    keys.push_back(pointer.substr(at, slash - at));
    at = slash + 1;
  }
  for (const std::string& key : keys) {
    if (key == "0") {
      node = node.at("items");
    } else {
      node = node.at("properties").at(key);
    }
    if (node.contains("$ref")) node = schema.at(json::json_pointer(node.at("$ref").get<std::string>().substr(1)));
  }
  return node;
}

// The string constraints of one schema property, as JSON Schema (ECMAScript regexes) reads them.
class SchemaConstraints {
 public:
  explicit SchemaConstraints(const json& property) : property_(property) {
    if (property.contains("pattern")) pattern_.emplace(property.at("pattern").get<std::string>());
    if (property.contains("not")) {
      not_pattern_.emplace(property.at("not").at("pattern").get<std::string>());
    }
  }

  bool accepts(const std::string& s) const {
    std::size_t n = 0;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
    if (property_.contains("minLength") && n < property_.at("minLength").get<std::size_t>()) {
      return false;
    }
    if (property_.contains("maxLength") && n > property_.at("maxLength").get<std::size_t>()) {
      return false;
    }
    if (pattern_ && !std::regex_search(s, *pattern_)) return false;
    if (not_pattern_ && std::regex_search(s, *not_pattern_)) return false;
    return true;
  }

 private:
  json property_;
  std::optional<std::regex> pattern_;
  std::optional<std::regex> not_pattern_;
};

TEST(ManifestRules, AgreeWithTheSchemaPatterns) {
  const std::vector<SchemaString> cases = {
      {"/id", "az09.-_A", {"app.streamnook.", "dev.", "x", ".", "--"}},
      {"/version", "019.-+aZ", {"1.0.0", "0", "00", "-rc.1", "+b.01", ".."}},
      {"/host_min", "0127.-+", {"7.8.6", "-alpha", "+x"}},
      {"/homepage", "hts:/?# a.", {"https://", "http://", "example.org", "/path", " "}},
      {"/runtime/entry", "ab/\\.:C ", {"..", "./", "C:", "\\\\", "bin/", "../"}},
      {"/contributes/actions/0", "az09_-.A ", {"drops.", "x.y", ".", "__"}},
  };
  std::mt19937 rng(20240607U);
  int accepted = 0;
  int rejected = 0;
  for (const SchemaString& c : cases) {
    const json property = schema_property(c.pointer);
    ASSERT_TRUE(property.contains("pattern")) << c.pointer;
    const SchemaConstraints schema(property);
    std::string field = c.pointer.substr(1);
    for (char& ch : field) ch = ch == '/' ? '.' : ch;
    if (field.size() > 2 && field.substr(field.size() - 2) == ".0") {
      field = field.substr(0, field.size() - 2) + "[0]";
    }
    for (int round = 0; round < 1500; ++round) {
      std::string s;
      std::size_t pieces = std::uniform_int_distribution<std::size_t>(0, 7)(rng);
      for (std::size_t p = 0; p < pieces; ++p) {
        if (std::uniform_int_distribution<int>(0, 2)(rng) == 0) {
          s += c.fragments[std::uniform_int_distribution<std::size_t>(0, c.fragments.size() - 1)(rng)];
        } else {
          s += c.alphabet[std::uniform_int_distribution<std::size_t>(0, c.alphabet.size() - 1)(rng)];
        }
      }
      json m = full_manifest();
      if (c.pointer == "/contributes/actions/0") {
        m["contributes"]["actions"] = {s};
      } else {
        m[json::json_pointer(c.pointer)] = s;
      }
      rs::ManifestResult result = rs::check_manifest(m);
      const bool expected = schema.accepts(s);
      (expected ? accepted : rejected) += 1;
      EXPECT_EQ(result.ok(), expected) << c.pointer << " = \"" << s << "\": "
                                       << ::testing::PrintToString(strs(result.issues));
      EXPECT_EQ(result.loaded.has_value(), result.ok());
      for (const rs::ManifestIssue& issue : result.issues) {
        EXPECT_EQ(issue.field, field) << issue.str();
      }
    }
  }
  // Both outcomes were exercised, or the comparison proves nothing.
  EXPECT_GT(accepted, 300);
  EXPECT_GT(rejected, 300);
}

TEST(ManifestIssue, StrWithAndWithoutValue) {
  EXPECT_EQ((rs::ManifestIssue{"runtime.kind", "\"wasm\"", "is reserved"}).str(),
            "runtime.kind = \"wasm\": is reserved");
  EXPECT_EQ((rs::ManifestIssue{"id", "", "is required"}).str(), "id: is required");
}

}  // namespace
}  // namespace manifest_test
