// `rpckit compat` as CI runs it: directories, protocol files and git refs; the exit status
// (0 ok, 1 breaking without a bump, 2 usage or input error); the table and --json.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support.hpp"

namespace rpckit::compat::test {
namespace {

using gen::test::RunResult;
using gen::test::TempDir;
using ::testing::HasSubstr;
using ::testing::StartsWith;

RunResult compat(const std::vector<std::string>& args, const fs::path& cwd = {}) {
  std::vector<std::string> argv = {compat_exe(), "compat"};
  argv.insert(argv.end(), args.begin(), args.end());
  return gen::test::run(argv, cwd);
}

std::string schema_dir() { return (gen::test::source_dir() / "schema").string(); }

void break_channel(const SchemaCopy& copy) {
  edit(copy, "types/channel.json", [](J& d) {
    d["properties"].erase("login");
    erase_value(d["required"], "login");
  });
}

TEST(CompatCli, SameSchemaExitsZero) {
  RunResult r = compat({schema_dir(), schema_dir() + "/protocol.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("No differences. protocol_version 1. OK (exit 0)"));
}

TEST(CompatCli, AdditiveExitsZeroBreakingOne) {
  SchemaCopy additive;
  gen::test::apply_additive_change(additive);
  RunResult a = compat({schema_dir(), additive.path("").string()});
  EXPECT_EQ(a.exit_code, 0) << a.out << a.err;
  EXPECT_THAT(a.out, HasSubstr("\n0 breaking, 10 additive. protocol_version 1. OK (exit 0)\n"));

  SchemaCopy breaking;
  break_channel(breaking);
  RunResult b = compat({schema_dir(), breaking.path("").string()});
  EXPECT_EQ(b.exit_code, 1) << b.out << b.err;
  EXPECT_THAT(b.out, HasSubstr("removed member the receiver required"));
  EXPECT_THAT(b.out, HasSubstr("   at types/channel.json#/properties/login (old); via "
                               "on_stream_start.params, on_followed_live.params, "
                               "get_followed_live.result\n"));
  EXPECT_THAT(b.out, HasSubstr("(not bumped): a breaking change needs a bump of "
                               "protocol_version. FAILED (exit 1)"));
}

TEST(CompatCli, AVersionBumpTurnsExitOneIntoZero) {
  SchemaCopy copy;
  break_channel(copy);
  ASSERT_EQ(compat({schema_dir(), copy.path("").string()}).exit_code, 1);
  edit(copy, "protocol.json", [](J& d) { d["properties"]["protocol_version"]["const"] = 2; });
  RunResult r = compat({schema_dir(), copy.path("").string()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("protocol_version 1 -> 2 (bumped): breaking changes are allowed. "
                               "OK (exit 0)"));
}

TEST(CompatCli, JsonOutput) {
  SchemaCopy copy;
  break_channel(copy);
  RunResult r = compat({schema_dir(), copy.path("").string(), "--json", "--no-api"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  J j = J::parse(r.out);
  EXPECT_EQ(j["breaking"], 1);
  EXPECT_EQ(j["additive"], 0);
  EXPECT_EQ(j["fails"], true);
  EXPECT_EQ(j["old"]["version"], 1);
  ASSERT_EQ(j["changes"].size(), 1u);
  EXPECT_EQ(j["changes"][0]["rule"], "member.required_removed");
  EXPECT_EQ(j["changes"][0]["direction"], "host_to_plugin");
  EXPECT_EQ(j["changes"][0]["old_location"], "types/channel.json#/properties/login");
}

// --accept FILE: a breaking change it names (rule and where) no longer fails the check; an
// entry that names nothing does (it must not outlive its change); a malformed line is a usage
// error naming the line.
TEST(CompatCli, AcceptedBreakingChanges) {
  SchemaCopy copy;
  break_channel(copy);
  TempDir dir("compat-accept");
  const fs::path file = dir.path() / "ACCEPTED";
  auto run_with = [&](const std::string& text, std::vector<std::string> extra = {}) {
    gen::test::write_file(file, text);
    std::vector<std::string> args = {schema_dir(), copy.path("").string(), "--no-api", "--accept",
                                     file.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return compat(args);
  };

  RunResult ok =
      run_with("# why each is fine\n\nmember.required_removed Channel.login -- a test\n");
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_THAT(ok.out, HasSubstr("1  breaking (accepted)  host -> plugin"));
  EXPECT_THAT(ok.out, HasSubstr("   accepted: a test\n"));
  EXPECT_THAT(ok.out, HasSubstr("1 breaking (1 accepted), 0 additive. protocol_version 1 (not "
                                "bumped): every breaking change is accepted. OK (exit 0)"));

  RunResult json = run_with("member.required_removed Channel.login -- a test\n", {"--json"});
  EXPECT_EQ(json.exit_code, 0) << json.err;
  J j = J::parse(json.out);
  EXPECT_EQ(j["breaking"], 1);
  EXPECT_EQ(j["accepted"], 1);
  EXPECT_EQ(j["fails"], false);
  EXPECT_EQ(j["changes"][0]["accepted"], "a test");
  EXPECT_EQ(j["unused_acceptances"], J::array());

  // Another rule at the same place, or another place, accepts nothing.
  RunResult other = run_with("member.optional_removed Channel.login -- wrong rule\n");
  EXPECT_EQ(other.exit_code, 1) << other.out;
  EXPECT_THAT(other.out, HasSubstr("1 accepted change(s) match nothing (remove them): "
                                   "\"member.optional_removed Channel.login\". FAILED (exit 1)"));
  RunResult stale = run_with(
      "member.required_removed Channel.login -- a test\nconstant.changed constant x -- gone\n");
  EXPECT_EQ(stale.exit_code, 1) << stale.out;

  RunResult bad = run_with("# fine\nmember.required_removed Channel.login\n");
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
  EXPECT_THAT(bad.err, HasSubstr("line 2: expected \"<rule> <where> -- <why>\""));
  RunResult missing =
      compat({schema_dir(), copy.path("").string(), "--accept", (dir.path() / "nothing").string()});
  EXPECT_EQ(missing.exit_code, 2) << missing.out;
}

TEST(CompatAcceptances, ParseOneChangePerLine) {
  std::vector<Acceptance> a = parse_acceptances(
      "# comment\r\n\n  api.changed error code -32099 -- spaces in where -- and in why\r\n"
      "member.required_removed Channel.login -- x\n");
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].rule, "api.changed");
  EXPECT_EQ(a[0].where, "error code -32099");
  EXPECT_EQ(a[0].why, "spaces in where -- and in why");
  EXPECT_EQ(a[1].where, "Channel.login");
  EXPECT_THROW(parse_acceptances("rule where --  \n"), std::runtime_error);
  EXPECT_THROW(parse_acceptances("rule -- why\n"), std::runtime_error);
  EXPECT_TRUE(parse_acceptances("").empty());
}

// A git repository with two commits of the schema: tagged v1, then a breaking change.
class GitRefs : public ::testing::Test {
 protected:
  void SetUp() override {
    git({"init", "-q"});
    gen::test::copy_tree(schema_dir(), repo_.path() / "schema");
    git({"add", "schema"});
    git({"commit", "-q", "-m", "v1"});
    git({"tag", "v1"});
    break_channel_in(repo_.path() / "schema");
    git({"commit", "-q", "-am", "breaking"});
  }
  void git(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {
        "/usr/bin/env",        "git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c",
        "commit.gpgsign=false"};
    argv.insert(argv.end(), args.begin(), args.end());
    RunResult r = gen::test::run(argv, repo_.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void break_channel_in(const fs::path& dir) {
    J d = J::parse(gen::test::read_file(dir / "types/channel.json"));
    d["properties"].erase("login");
    erase_value(d["required"], "login");
    gen::test::write_file(dir / "types/channel.json", d.dump(2));
  }
  TempDir repo_{"compat-git"};
};

TEST_F(GitRefs, TagAgainstTheWorkingTree) {
  RunResult r = compat({"v1", "schema"}, repo_.path());
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, StartsWith("rpckit compat: v1:schema ("));
  EXPECT_THAT(r.out, HasSubstr("Channel.login"));
}

TEST_F(GitRefs, RefsWithDirectoriesAndRelativeRefs) {
  EXPECT_EQ(compat({"v1:schema", "HEAD~1"}, repo_.path()).exit_code, 0);
  EXPECT_EQ(compat({"HEAD~1:schema/protocol.json", "HEAD"}, repo_.path()).exit_code, 1);
  // From a subdirectory: the ref is read from the repository around it.
  EXPECT_EQ(compat({"v1", "HEAD"}, repo_.path() / "schema").exit_code, 1);
}

TEST_F(GitRefs, AMissingRefOrDirectoryIsAUsageError) {
  RunResult r = compat({"v9", "schema"}, repo_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("v9: not a directory with protocol.json, a protocol file or a git "
                               "ref"));
  RunResult d = compat({"v1:nothing", "schema"}, repo_.path());
  EXPECT_EQ(d.exit_code, 2);
  EXPECT_THAT(d.err, HasSubstr("v1:nothing: git archive"));
}

TEST(CompatCli, BadArgumentsExitTwo) {
  EXPECT_EQ(compat({}).exit_code, 2);
  EXPECT_EQ(compat({schema_dir()}).exit_code, 2);
  EXPECT_EQ(compat({schema_dir(), schema_dir(), "--bogus"}).exit_code, 2);
  TempDir empty("compat-empty");
  RunResult r = compat({empty.path().string(), schema_dir()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("a directory without protocol.json"));
}

TEST(CompatCli, ASchemaThatDoesNotLoadNamesFileAndPointer) {
  SchemaCopy copy;
  edit(copy, "types/channel.json",
       [](J& d) { d["properties"]["login"]["patternProperties"] = J::object(); });
  RunResult r = compat({schema_dir(), copy.path("").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("types/channel.json#/properties/login/patternProperties: "
                               "unsupported keyword \"patternProperties\""));
}

TEST(CompatCli, HelpNamesTheArgumentsAndExitStatuses) {
  RunResult r = compat({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("<ref>:<dir>"));
  EXPECT_THAT(r.out, HasSubstr("Exit status: 0"));
  EXPECT_THAT(r.out, HasSubstr("--json"));
}

}  // namespace
}  // namespace rpckit::compat::test
