// ManifestResult::warnings: what the spec allows but the real StreamNook host refuses or
// ignores (issue 29; each rule and its source: schema/README.md, "The real StreamNook host").
// A warning never stops a manifest from loading: the spec stays the contract.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support.hpp"

namespace manifest_test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

// The manifest with `pointer` set to `value`: its warnings as "field = value: rule", checking
// on the way that they are warnings and that they do not stop it from loading.
std::vector<std::string> warnings_with(json m, const std::string& pointer, const json& value) {
  m[json::json_pointer(pointer)] = value;
  rs::ManifestResult result = rs::check_manifest(m);
  EXPECT_TRUE(result.ok()) << ::testing::PrintToString(strs(result.issues));
  for (const rs::ManifestIssue& w : result.warnings) {
    EXPECT_TRUE(w.warning) << w.str();
    EXPECT_EQ(w.line, 0U);  // JSON: no places
  }
  for (const rs::ManifestIssue& i : result.issues) EXPECT_FALSE(i.warning) << i.str();
  return strs(result.warnings);
}

std::vector<std::string> warnings_with(const std::string& pointer, const json& value) {
  return warnings_with(full_manifest(), pointer, value);
}

json ui_manifest() {
  json m = minimal_manifest();
  m["runtime"] = {{"kind", "ui"}, {"entry", "ui/index.js"}};
  return m;
}

TEST(RealHostWarnings, ValidFixturesHaveNoneButTheDotDotInsideAName) {
  const json& valid = fixtures().at("valid");
  for (std::size_t i = 0; i < valid.size(); ++i) {
    SCOPED_TRACE("valid[" + std::to_string(i) + "]");
    rs::ManifestResult result = rs::check_manifest(valid[i]);
    ASSERT_TRUE(result.ok());
    if (valid[i].at("runtime").at("entry") == "bin/..hidden/run") {
      EXPECT_THAT(fields(result.warnings), ElementsAre("runtime.entry"));
    } else {
      EXPECT_THAT(strs(result.warnings), IsEmpty());
    }
  }
}

// Plugin id: the spec's pattern lets a part after the first start with "-"; the real host
// wants every part to start with a-z or 0-9. The other differences are the spec's errors.
TEST(RealHostWarnings, PluginIdPartStartingWithDash) {
  EXPECT_THAT(warnings_with("/id", "dev.-x"),
              ElementsAre(R"(id = "dev.-x": a part starts with "-": the real StreamNook host )"
                          R"(refuses this plugin id (each dot-separated part must start with a-z )"
                          R"(or 0-9 there))"));
  EXPECT_THAT(warnings_with("/id", "dev.example.-x-"), ::testing::SizeIs(1));
  EXPECT_THAT(warnings_with("/id", "dev.x-.y-z"), IsEmpty());
  EXPECT_THAT(warnings_with("/id", "dev.0.x"), IsEmpty());
  // "-" in the first part and the reserved prefix: the real host takes them, the spec does not
  // (errors, no warning).
  for (const char* id : {"my-org.plugin", "app.streamnook.x"}) {
    json m = full_manifest();
    m["id"] = id;
    rs::ManifestResult result = rs::check_manifest(m);
    EXPECT_THAT(fields(result.issues), ElementsAre("id")) << id;
    EXPECT_THAT(strs(result.warnings), IsEmpty()) << id;
  }
}

TEST(RealHostWarnings, VersionNumbersBeyond64Bits) {
  const std::string rule =
      "MAJOR, MINOR or PATCH above 18446744073709551615: the real StreamNook host refuses it "
      "(its SemVer parser reads each as a 64-bit number)";
  EXPECT_THAT(warnings_with("/version", "18446744073709551616.0.0"),
              ElementsAre(R"(version = "18446744073709551616.0.0": )" + rule));
  EXPECT_THAT(warnings_with("/version", "1.99999999999999999999.0-rc.1"), ::testing::SizeIs(1));
  EXPECT_THAT(warnings_with("/host_min", "7.0.100000000000000000000"),
              ElementsAre(R"(host_min = "7.0.100000000000000000000": )" + rule));
  EXPECT_THAT(warnings_with("/version", "18446744073709551615.18446744073709551615.0"), IsEmpty());
  // Pre-release and build identifiers are not numbers there: any length.
  EXPECT_THAT(warnings_with("/version", "1.0.0-99999999999999999999999"), IsEmpty());
}

TEST(RealHostWarnings, HostMinWithBuildMetadata) {
  EXPECT_THAT(warnings_with("/host_min", "8.4.2+build.5"),
              ElementsAre(R"(host_min = "8.4.2+build.5": build metadata: the real StreamNook )"
                          R"(host orders it after the plain version, so it refuses to install )"
                          R"(on a host of exactly 8.4.2 (SemVer precedence, which rpckit's gate )"
                          R"(uses, ignores it))"));
  EXPECT_THAT(warnings_with("/version", "8.4.2+build.5"), IsEmpty());  // only host_min is compared
  EXPECT_THAT(warnings_with("/host_min", "8.4.2-rc.1"), IsEmpty());
}

TEST(RealHostWarnings, EntryDotDotInsideANameAndColonSecond) {
  EXPECT_THAT(warnings_with("/runtime/entry", "bin/run..sh"),
              ElementsAre(R"(runtime.entry = "bin/run..sh": contains "..": the real StreamNook )"
                          R"(host refuses an entry with ".." anywhere in it, not only as a path )"
                          R"(segment)"));
  EXPECT_THAT(warnings_with("/runtime/entry", "..hidden/run"), ::testing::SizeIs(1));
  EXPECT_THAT(warnings_with("/runtime/entry", "1:x.exe"),
              ElementsAre(R"(runtime.entry = "1:x.exe": ":" as its second character: the real )"
                          R"(StreamNook host refuses it as a drive letter)"));
  EXPECT_THAT(warnings_with("/runtime/entry", "\u00e9:x"), ::testing::SizeIs(1));  // 2nd character
  EXPECT_THAT(warnings_with("/runtime/entry", "bin/x:y"), IsEmpty());
  EXPECT_THAT(warnings_with("/runtime/entry", "./bin/run"), IsEmpty());
  // A ".." segment and a drive letter are the spec's: errors, no warning on top.
  for (const char* entry : {"bin/../x", "C:x.exe"}) {
    json m = full_manifest();
    m["runtime"]["entry"] = entry;
    rs::ManifestResult result = rs::check_manifest(m);
    EXPECT_THAT(fields(result.issues), ElementsAre("runtime.entry")) << entry;
    EXPECT_THAT(strs(result.warnings), IsEmpty()) << entry;
  }
}

// A ui plugin: the real host refuses one that requests capabilities, and runs no process, so
// args and contributions mean nothing there.
TEST(RealHostWarnings, UiPluginCapabilitiesContributionsAndArgs) {
  json m = ui_manifest();
  EXPECT_THAT(warnings_with(m, "/capabilities", json::object()), IsEmpty());
  m["capabilities"] = {{"events", {"on_stream_start"}},
                       {"host_methods", json::array()},
                       {"network", "external"},
                       {"ui", {"panel"}}};
  m["contributes"] = {{"actions", {"drops.mine"}}, {"status", json::array()}};
  EXPECT_THAT(
      warnings_with(m, "/runtime/args", {"--x"}),
      ElementsAre(R"(runtime.args = ["--x"]: ignored for a runtime.kind = "ui" plugin: the real )"
                  R"(StreamNook host starts no process for it)",
                  R"(capabilities.events = ["on_stream_start"]: a runtime.kind = "ui" plugin )"
                  R"(requests none: the real StreamNook host refuses to install it otherwise)",
                  R"(capabilities.ui = ["panel"]: a runtime.kind = "ui" plugin requests none: )"
                  R"(the real StreamNook host refuses to install it otherwise)",
                  R"(contributes.actions = ["drops.mine"]: ignored for a runtime.kind = "ui" )"
                  R"(plugin: the real StreamNook host starts no process for it, so nothing )"
                  R"(fills these hooks)"));
  // The same lists on a process plugin are what it is for.
  m["runtime"]["args"] = {"--x"};
  EXPECT_THAT(warnings_with(m, "/runtime/kind", "process"), IsEmpty());
}

// runtime.ui_entry is not in the spec (rpckit ignores it as an unknown key); the real host
// reads it and refuses a manifest whose ui_entry it does not like.
TEST(RealHostWarnings, UiEntryTheSpecDoesNotKnow) {
  EXPECT_THAT(warnings_with("/runtime/ui_entry", "ui/panel.js"), IsEmpty());
  EXPECT_THAT(warnings_with("/runtime/ui_entry", 3),
              ElementsAre(StartsWith(R"(runtime.ui_entry = 3: expected a string: the real )"
                                     R"(StreamNook host reads runtime.ui_entry)")));
  EXPECT_THAT(warnings_with("/runtime/ui_entry", "../ui.js"),
              ElementsAre(R"(runtime.ui_entry = "../ui.js": expected a path inside the plugin )"
                          R"(directory (not empty, no "..", not absolute): the real StreamNook )"
                          R"(host refuses the manifest otherwise)"));
  for (const char* path : {"", "/ui.js", "\\ui.js", "C:ui.js", "ui/a..b.js"}) {
    EXPECT_THAT(warnings_with("/runtime/ui_entry", path), ::testing::SizeIs(1)) << path;
  }
  EXPECT_THAT(warnings_with(ui_manifest(), "/runtime/ui_entry", "ui/panel.js"),
              ElementsAre(R"(runtime.ui_entry = "ui/panel.js": the real StreamNook host refuses )"
                          R"(runtime.ui_entry on a runtime.kind = "ui" plugin (its module is )"
                          R"(runtime.entry))"));
}

// Warnings come with issues too, and never turn into them.
TEST(RealHostWarnings, AlongsideIssues) {
  json m = full_manifest();
  m["id"] = "dev.-x";
  m["name"] = "";
  rs::ManifestResult result = rs::check_manifest(m);
  EXPECT_THAT(fields(result.issues), ElementsAre("name"));
  EXPECT_THAT(fields(result.warnings), ElementsAre("id"));
  EXPECT_FALSE(result.loaded.has_value());
}

// In plugin.toml: placed like issues, in file order, "warning:" in the located form; the
// entry that the directory does not hold.
TEST(RealHostWarnings, InPluginTomlWithPlaces) {
  TempDir tmp;
  tmp.write("plugin.toml", R"(id = "dev.-x"
name = "X"
version = "1.0.0"
author = "me"
tier = "C"
description = ""
host_min = "7.0.0+local"

[runtime]
kind = "process"
entry = "bin/x..y"
ui_entry = "ui/panel.js"
)");
  rs::ManifestResult result = rs::load_manifest(tmp.path());
  ASSERT_TRUE(result.ok()) << ::testing::PrintToString(strs(result.issues));
  std::vector<std::string> located;
  for (const rs::ManifestIssue& w : result.warnings) located.push_back(w.located());
  EXPECT_THAT(located,
              ElementsAre(StartsWith(R"(plugin.toml:1:6: warning: id = "dev.-x": a part starts)"),
                          StartsWith(R"(plugin.toml:7:12: warning: host_min = "7.0.0+local": )"
                                     R"(build metadata)"),
                          // (not looked up: refused there already)
                          StartsWith(R"(plugin.toml:11:9: warning: runtime.entry = "bin/x..y": )"
                                     R"(contains "..")"),
                          R"(plugin.toml:12:12: warning: runtime.ui_entry = "ui/panel.js": no )"
                          R"(such file in the plugin directory: the real StreamNook host refuses )"
                          R"(to install a plugin without it)"));
  // Only load_manifest looks at the directory.
  EXPECT_THAT(rs::parse_manifest(read_text(tmp.path() / "plugin.toml"), tmp.path()).warnings,
              ::testing::SizeIs(3));
}

TEST(RealHostWarnings, AnEntryTheDirectoryHoldsIsNotWarnedAbout) {
  TempDir tmp;
  std::filesystem::create_directories(tmp.path() / "bin");
  tmp.write("bin/hello", "#!/bin/sh\n");
  tmp.write("plugin.toml", R"(id = "dev.example.hello"
name = "Hello"
version = "1.0.0"
author = "me"
tier = "C"
description = ""
host_min = "7.0.0"
runtime = { kind = "process", entry = "bin/hello" }
)");
  rs::ManifestResult result = rs::load_manifest(tmp.path());
  ASSERT_TRUE(result.ok());
  EXPECT_THAT(strs(result.warnings), IsEmpty());
}

// The sample, as the build assembles it (entry included): nothing the real host would refuse.
TEST(RealHostWarnings, TheLiveAlertsExampleHasNone) {
  rs::ManifestResult result = rs::load_manifest(source_dir() / "examples" / "live_alerts");
  ASSERT_TRUE(result.ok());
  // The source folder has no bin/live-alerts (the build puts it next to a copy of plugin.toml).
  EXPECT_THAT(strs(result.warnings),
              ElementsAre(HasSubstr(R"(runtime.entry = "bin/live-alerts": no such file)")));
  EXPECT_THAT(strs(rs::check_manifest(result.loaded->json.get()).warnings), IsEmpty());
}

TEST(ManifestIssue, LocatedWarning) {
  rs::ManifestIssue w{"id", "\"dev.-x\"", "a part starts with \"-\""};
  w.warning = true;
  w.line = 1;
  w.column = 6;
  EXPECT_EQ(w.located(), "plugin.toml:1:6: warning: id = \"dev.-x\": a part starts with \"-\"");
  w.line = 0;
  EXPECT_EQ(w.located("x.toml"), "x.toml: warning: id = \"dev.-x\": a part starts with \"-\"");
}

}  // namespace
}  // namespace manifest_test
