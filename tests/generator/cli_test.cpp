// The rpckit command line, run as a separate process (path from CMake): exit codes,
// messages, --check, write-only-what-changed, --dump-ir, --depfile.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <map>

#include <nlohmann/json.hpp>

#include "generator_version.hpp"
#include "ir/dump.hpp"
#include "support.hpp"

namespace rpckit::gen::test {
namespace {

using ::testing::HasSubstr;

fs::path calculator_schema() { return fixtures_dir() / "calculator" / "schema"; }

std::map<std::string, fs::file_time_type> mtimes(const fs::path& dir) {
  std::map<std::string, fs::file_time_type> out;
  for (const std::string& f : list_files(dir)) out[f] = fs::last_write_time(dir / f);
  return out;
}

std::map<std::string, std::string> contents(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const std::string& f : list_files(dir)) out[f] = read_file(dir / f);
  return out;
}

TEST(Cli, BinaryExists) { ASSERT_TRUE(fs::exists(rpckit_exe())) << rpckit_exe(); }

TEST(Cli, SchemaErrorExitsTwoWithTheMessageOnStderr) {
  TempDir dir("cli-bad");
  copy_tree(calculator_schema(), dir.path() / "schema");
  std::string variables = read_file(dir.path() / "schema/types/variables.json");
  std::string bad = variables;
  bad.replace(bad.find("\"additionalProperties\""), 0, "\"patternProperties\": {}, ");
  ASSERT_NE(bad, variables);
  write_file(dir.path() / "schema/types/variables.json", bad);

  RunResult r = run({rpckit_exe(), "generate", (dir.path() / "schema/protocol.json").string(), "--out",
                     (dir.path() / "out").string()});
  EXPECT_EQ(r.exit_code, 2);
  // file:line:column (of the offending value, in the file's text) first, for editors.
  EXPECT_EQ(r.err, (dir.path() / "schema/types/variables.json").string() +
                       ":6:24: schema error: types/variables.json#/patternProperties: "
                       "unsupported keyword \"patternProperties\"\n");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(fs::exists(dir.path() / "out")) << "nothing is written on error";

  // --check and --dump-ir report the same way.
  RunResult check = run({rpckit_exe(), "check", (dir.path() / "schema/protocol.json").string(),
                         "--out", (dir.path() / "out").string()});
  EXPECT_EQ(check.exit_code, 2);
  EXPECT_EQ(check.err, r.err);
  RunResult dump =
      run({rpckit_exe(), "generate", "--dump-ir", (dir.path() / "schema/protocol.json").string()});
  EXPECT_EQ(dump.exit_code, 2);
  EXPECT_EQ(dump.err, r.err);
}

TEST(Cli, CheckOnAFreshDirExitsZero) {
  TempDir dir("cli-fresh");
  std::string protocol = (calculator_schema() / "protocol.json").string();
  RunResult gen = run({rpckit_exe(), "generate", protocol, "--out", dir.path().string()});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  RunResult check = run({rpckit_exe(), "check", protocol, "--out", dir.path().string()});
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_EQ(check.out, "rpckit: " + dir.path().string() + " is up to date (9 files)\n");
  EXPECT_EQ(check.err, "");
}

// rpckit_generate() hands --depfile to the build system: the first output, then every schema
// file the protocol reaches, so an edit to any of them regenerates.
TEST(Cli, DepfileNamesTheFirstOutputAndEverySchemaFile) {
  TempDir dir("cli-depfile");
  std::string protocol = (calculator_schema() / "protocol.json").string();
  fs::path depfile = dir.path() / "demo_calc.d";
  RunResult gen = run({rpckit_exe(), "generate", protocol, "--out", dir.path().string(), "--depfile",
                       depfile.string()});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  std::string text = read_file(depfile);
  EXPECT_EQ(text.rfind((dir.path() / "demo_calc" / "types.hpp").string() + ":", 0), 0u) << text;
  std::size_t schema_files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(calculator_schema())) {
    if (entry.path().extension() != ".json") continue;
    ++schema_files;
    EXPECT_THAT(text, HasSubstr("  " + entry.path().lexically_normal().string()))
        << "missing " << entry.path();
  }
  EXPECT_EQ(schema_files, 15u);
}

TEST(Cli, CheckOnAStaleDirExitsOneAndListsTheProblems) {
  TempDir dir("cli-stale");
  std::string protocol = (calculator_schema() / "protocol.json").string();
  ASSERT_EQ(run({rpckit_exe(), "generate", protocol, "--out", dir.path().string()}).exit_code, 0);
  fs::path module = dir.path() / "demo_calc";
  write_file(module / "types.hpp", read_file(module / "types.hpp") + "// edited by hand\n");
  fs::remove(module / "constants.hpp");
  write_file(module / "old_artifact.hpp", "// left over\n");
  auto before = contents(dir.path());

  RunResult check = run({rpckit_exe(), "check", protocol, "--out", dir.path().string()});
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_EQ(check.out, "");
  EXPECT_EQ(check.err, "rpckit: " + dir.path().string() + " does not match " + protocol +
                           ":\n"
                           "  missing: demo_calc/constants.hpp\n"
                           "  stale: demo_calc/types.hpp\n"
                           "  unexpected: demo_calc/old_artifact.hpp\n"
                           "Regenerate with: rpckit generate " + protocol + " --out " +
                           dir.path().string() + "\n");
  EXPECT_EQ(contents(dir.path()), before) << "--check writes nothing";

  RunResult json_check = run({rpckit_exe(), "check", protocol, "--out", dir.path().string(), "--json"});
  EXPECT_EQ(json_check.exit_code, 1);
  EXPECT_EQ(nlohmann::json::parse(json_check.out)["problems"],
            nlohmann::json::parse(R"([{"problem": "missing", "file": "demo_calc/constants.hpp"},
                                      {"problem": "stale", "file": "demo_calc/types.hpp"},
                                      {"problem": "unexpected", "file": "demo_calc/old_artifact.hpp"}])"));
}

TEST(Cli, CheckOnAStaleCopyOfTheRealBindingsNamesTheFix) {
  TempDir dir("cli-real-stale");
  copy_tree(source_dir() / "generated", dir.path());
  fs::path types = dir.path() / "streamnook_v1" / "types.hpp";
  ASSERT_TRUE(fs::exists(types));
  write_file(types, read_file(types) + "\n");
  RunResult check =
      run({rpckit_exe(), "check", (source_dir() / "schema/protocol.json").string(), "--out",
           dir.path().string()});
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_THAT(check.err, HasSubstr("  stale: streamnook_v1/types.hpp\n"));
  EXPECT_THAT(check.err, HasSubstr("Regenerate with: rpckit generate "));
}

TEST(Cli, GeneratingTwiceWritesNothingTheSecondTime) {
  TempDir dir("cli-twice");
  std::string protocol = (calculator_schema() / "protocol.json").string();
  RunResult first = run({rpckit_exe(), "generate", protocol, "--out", dir.path().string()});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_THAT(first.out, HasSubstr("rpckit: 9 of 9 files changed\n"));
  EXPECT_THAT(first.out, HasSubstr("wrote " + dir.path().string() + "/demo_calc/types.hpp\n"));

  // Backdate every file, so an unchanged mtime cannot be luck of a coarse clock.
  auto old_time = fs::file_time_type::clock::now() - std::chrono::hours(24);
  for (const std::string& f : list_files(dir.path())) fs::last_write_time(dir.path() / f, old_time);
  auto before_times = mtimes(dir.path());
  auto before = contents(dir.path());
  ASSERT_EQ(before.size(), 9u);

  RunResult second = run({rpckit_exe(), "generate", protocol, "--out", dir.path().string()});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.out, "rpckit: 0 of 9 files changed\n");
  EXPECT_EQ(contents(dir.path()), before);
  EXPECT_EQ(mtimes(dir.path()), before_times);

  // One changed file: only it is rewritten, and no temporary is left behind.
  write_file(dir.path() / "demo_calc/dispatch.hpp", "stale\n");
  fs::last_write_time(dir.path() / "demo_calc/dispatch.hpp", old_time);
  RunResult third = run({rpckit_exe(), "generate", protocol, "--out", dir.path().string()});
  ASSERT_EQ(third.exit_code, 0) << third.err;
  EXPECT_EQ(third.out, "wrote " + dir.path().string() +
                           "/demo_calc/dispatch.hpp\nrpckit: 1 of 9 files changed\n");
  EXPECT_EQ(contents(dir.path()), before);
  auto after_times = mtimes(dir.path());
  for (const auto& [file, time] : before_times) {
    if (file == "demo_calc/dispatch.hpp") {
      EXPECT_NE(after_times[file], time);
    } else {
      EXPECT_EQ(after_times[file], time) << file;
    }
  }
}

TEST(Cli, DumpIrEqualsTheLibrary) {
  for (const std::string& name : fixture_names()) {
    fs::path protocol = fixtures_dir() / name / "schema" / "protocol.json";
    RunResult r = run({rpckit_exe(), "generate", "--dump-ir", protocol.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out, dump_ir(lower_file(protocol))) << name;
  }
  fs::path real = source_dir() / "schema" / "protocol.json";
  RunResult r = run({rpckit_exe(), "generate", "--dump-ir", real.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, dump_ir(lower_file(real)));
}

TEST(Cli, WritesWhatEmitAllReturns) {
  TempDir dir("cli-emit");
  fs::path protocol = calculator_schema() / "protocol.json";
  ASSERT_EQ(run({rpckit_exe(), "generate", protocol.string(), "--out", dir.path().string()}).exit_code, 0);
  Generated g = generate(protocol);
  std::vector<std::string> expected;
  for (const OutputFile& f : g.files) {
    expected.push_back(f.path);
    EXPECT_EQ(read_file(dir.path() / f.path), f.content) << f.path;
  }
  EXPECT_EQ(list_files(dir.path()), expected);
}

TEST(Cli, VersionAndUsage) {
  RunResult version = run({rpckit_exe(), "--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out, std::string("rpckit ") + kGeneratorVersion + "\n");
  // Usage errors exit 2 and say what is missing; --help exits 0.
  RunResult usage = run({rpckit_exe()});
  EXPECT_EQ(usage.exit_code, 2);
  EXPECT_THAT(usage.err, HasSubstr("subcommand is required"));
  RunResult no_schema = run({rpckit_exe(), "generate"});
  EXPECT_EQ(no_schema.exit_code, 2);
  EXPECT_THAT(no_schema.err, HasSubstr("schema is required"));
  RunResult unknown = run({rpckit_exe(), "frobnicate"});
  EXPECT_EQ(unknown.exit_code, 2);
  for (const char* command : {"generate", "check", "validate", "compat", "docs"}) {
    RunResult help = run({rpckit_exe(), command, "--help"});
    EXPECT_EQ(help.exit_code, 0) << command;
    EXPECT_THAT(help.out, HasSubstr(command)) << command;
  }
}

}  // namespace
}  // namespace rpckit::gen::test
