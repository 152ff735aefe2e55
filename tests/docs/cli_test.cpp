// `rpckit docs` run as a separate process: writing only when changed, --check (exit 1 naming
// the stale file and the command that fixes it), input errors (exit 2), standard output.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support.hpp"

namespace rpckit::docs {
namespace {

namespace fs = std::filesystem;
using gen::test::read_file;
using gen::test::rpckit_exe;
using gen::test::run;
using gen::test::RunResult;
using gen::test::TempDir;
using gen::test::write_file;
using ::testing::HasSubstr;

std::string calculator_schema() {
  return (gen::test::fixtures_dir() / "calculator" / "schema" / "protocol.json").string();
}

TEST(DocsCli, WritesThenLeavesAnUnchangedFileAlone) {
  TempDir dir("docs-cli-write");
  std::string out = (dir.path() / "ref" / "calc.md").string();
  RunResult first = run({rpckit_exe(), "docs", calculator_schema(), "--out", out});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out, "rpckit: " + out + " written\n");
  EXPECT_THAT(read_file(out), HasSubstr("# Calculator protocol\n"));
  auto mtime = fs::last_write_time(out);

  RunResult again = run({rpckit_exe(), "docs", calculator_schema(), "--out", out});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, "rpckit: " + out + " is unchanged\n");
  EXPECT_EQ(fs::last_write_time(out), mtime);

  RunResult check = run({rpckit_exe(), "docs", calculator_schema(), "--out", out, "--check"});
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_EQ(check.out, "rpckit: " + out + " is up to date\n");
}

TEST(DocsCli, ABareFileNameIsWrittenInTheWorkingFolder) {
  TempDir dir("docs-cli-bare");
  RunResult r = run({rpckit_exe(), "docs", calculator_schema(), "--out", "calc.md"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "rpckit: calc.md written\n");
  EXPECT_THAT(read_file((dir.path() / "calc.md").string()), HasSubstr("# Calculator protocol\n"));
}

TEST(DocsCli, WithoutOutItPrintsTheReference) {
  TempDir dir("docs-cli-stdout");
  std::string out = (dir.path() / "calc.md").string();
  ASSERT_EQ(run({rpckit_exe(), "docs", calculator_schema(), "--out", out}).exit_code, 0);
  RunResult printed = run({rpckit_exe(), "docs", calculator_schema()});
  EXPECT_EQ(printed.exit_code, 0) << printed.err;
  EXPECT_EQ(printed.out, read_file(out));
  EXPECT_EQ(printed.err, "");
}

TEST(DocsCli, CheckOnAStaleFileExitsOneNamingTheFix) {
  TempDir dir("docs-cli-stale");
  std::string out = (dir.path() / "calc.md").string();
  ASSERT_EQ(run({rpckit_exe(), "docs", calculator_schema(), "--out", out}).exit_code, 0);
  std::string stale = read_file(out) + "edited by hand\n";
  write_file(out, stale);

  RunResult check = run({rpckit_exe(), "docs", calculator_schema(), "--out", out, "--check"});
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_EQ(check.err, "rpckit: " + out + " is stale: it does not match " + calculator_schema() +
                           "\nRegenerate with: rpckit docs " + calculator_schema() + " --out " + out +
                           "\n");
  EXPECT_EQ(read_file(out), stale) << "--check writes nothing";

  fs::remove(out);
  RunResult missing = run({rpckit_exe(), "docs", calculator_schema(), "--out", out, "--check"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.err, HasSubstr(out + " is missing"));
  EXPECT_FALSE(fs::exists(out));
}

TEST(DocsCli, TheFixNamesTheExamplesFolderToo) {
  TempDir dir("docs-cli-examples");
  write_file(dir.path() / "examples" / "cancel.json",
             R"({"envelopes": [{"jsonrpc": "2.0", "method": "cancel"}]})");
  std::string examples = (dir.path() / "examples").string();
  std::string out = (dir.path() / "calc.md").string();
  RunResult check =
      run({rpckit_exe(), "docs", calculator_schema(), "--examples", examples, "--out", out, "--check"});
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_THAT(check.err, HasSubstr("Regenerate with: rpckit docs " + calculator_schema() + " --examples " +
                                   examples + " --out " + out + "\n"));
  ASSERT_EQ(
      run({rpckit_exe(), "docs", calculator_schema(), "--examples", examples, "--out", out}).exit_code, 0);
  EXPECT_THAT(read_file(out), HasSubstr("```json\n{\"jsonrpc\": \"2.0\", \"method\": \"cancel\"}"));
}

TEST(DocsCli, BadSchemaExitsTwoAndWritesNothing) {
  TempDir dir("docs-cli-bad");
  gen::test::copy_tree(gen::test::fixtures_dir() / "calculator" / "schema", dir.path() / "schema");
  fs::path variables = dir.path() / "schema/types/variables.json";
  std::string text = read_file(variables);
  text.replace(text.find("\"additionalProperties\""), 0, "\"patternProperties\": {}, ");
  write_file(variables, text);
  std::string out = (dir.path() / "calc.md").string();

  RunResult r =
      run({rpckit_exe(), "docs", (dir.path() / "schema/protocol.json").string(), "--out", out});
  EXPECT_EQ(r.exit_code, 2);
  // file:line:column (of the offending value, in the file's text) first, for editors.
  EXPECT_EQ(r.err, (dir.path() / "schema/types/variables.json").string() +
                       ":6:24: schema error: types/variables.json#/patternProperties: "
                       "unsupported keyword \"patternProperties\"\n");
  EXPECT_FALSE(fs::exists(out));
  RunResult check = run({rpckit_exe(), "docs", (dir.path() / "schema/protocol.json").string(),
                         "--out", out, "--check"});
  EXPECT_EQ(check.exit_code, 2);
  EXPECT_EQ(check.err, r.err);
}

TEST(DocsCli, InputErrorsExitTwo) {
  TempDir dir("docs-cli-input");
  write_file(dir.path() / "examples" / "evaluate.json", "{\"envelopes\": [");
  RunResult bad_example =
      run({rpckit_exe(), "docs", calculator_schema(), "--examples", (dir.path() / "examples").string()});
  EXPECT_EQ(bad_example.exit_code, 2);
  EXPECT_THAT(bad_example.err, HasSubstr("evaluate.json: "));
  EXPECT_EQ(bad_example.out, "");

  RunResult no_folder =
      run({rpckit_exe(), "docs", calculator_schema(), "--examples", (dir.path() / "none").string()});
  EXPECT_EQ(no_folder.exit_code, 2);
  EXPECT_THAT(no_folder.err, HasSubstr("does not exist"));

  RunResult check_without_out = run({rpckit_exe(), "docs", calculator_schema(), "--check"});
  EXPECT_EQ(check_without_out.exit_code, 2);
  EXPECT_THAT(check_without_out.err, HasSubstr("--check needs --out"));

  EXPECT_EQ(run({rpckit_exe(), "docs"}).exit_code, 2) << "the schema is required";
}

TEST(DocsCli, HelpDescribesTheCommand) {
  RunResult help = run({rpckit_exe(), "docs", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("--examples"));
  EXPECT_THAT(help.out, HasSubstr("--check"));
  EXPECT_THAT(help.out, HasSubstr("Exit status: 0 ok, 1 --check found the file stale"));
}

}  // namespace
}  // namespace rpckit::docs
