// Output is a function of the schema's bytes only: not of when, where, or how often the
// generator runs.
#include <gtest/gtest.h>

#include <chrono>
#include <regex>

#include "generator_version.hpp"
#include "ir/dump.hpp"
#include "support.hpp"

namespace rpckit::gen::test {
namespace {

void expect_same_files(const std::vector<OutputFile>& a, const std::vector<OutputFile>& b,
                       const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].path, b[i].path) << what;
    EXPECT_TRUE(a[i].content == b[i].content) << what << ": " << a[i].path << " differs at "
                                              << first_difference(a[i].content, b[i].content);
  }
}

// Every schema the tests generate: the fixtures and the real one.
std::vector<fs::path> schema_dirs() {
  std::vector<fs::path> dirs;
  for (const std::string& name : fixture_names()) dirs.push_back(fixtures_dir() / name / "schema");
  dirs.push_back(source_dir() / "schema");
  return dirs;
}

TEST(Determinism, SameSchemaTwiceGivesIdenticalOutput) {
  ASSERT_GE(schema_dirs().size(), 3u);
  for (const fs::path& dir : schema_dirs()) {
    Generated a = generate(dir / "protocol.json");
    Generated b = generate(dir / "protocol.json");
    expect_same_files(a.files, b.files, dir.string());
    EXPECT_EQ(dump_ir(a.module), dump_ir(b.module));
  }
}

TEST(Determinism, ACopyElsewhereGivesIdenticalOutput) {
  for (const fs::path& dir : schema_dirs()) {
    TempDir tmp("copy");
    fs::path copy = tmp.path() / "some" / "other" / "place";
    copy_tree(dir, copy);
    // New mtimes too: the copy is touched an hour into the future.
    auto later = fs::file_time_type::clock::now() + std::chrono::hours(1);
    for (const std::string& f : list_files(copy)) fs::last_write_time(copy / f, later);
    Generated original = generate(dir / "protocol.json");
    Generated copied = generate(copy / "protocol.json");
    expect_same_files(original.files, copied.files, dir.string() + " vs " + copy.string());
    EXPECT_EQ(dump_ir(original.module), dump_ir(copied.module));
    EXPECT_EQ(original.module.schema_hash, copied.module.schema_hash);
  }
}

TEST(Determinism, RelativeAndAbsoluteSchemaPathsGiveIdenticalOutput) {
  TempDir tmp("cli-paths");
  fs::path fixture = fixtures_dir() / "calculator";
  RunResult absolute = run({rpckit_exe(), "generate", (fixture / "schema" / "protocol.json").string(),
                            "--out", (tmp.path() / "a").string()});
  ASSERT_EQ(absolute.exit_code, 0) << absolute.err;
  RunResult relative =
      run({rpckit_exe(), "generate", "schema/protocol.json", "--out", (tmp.path() / "b").string()}, fixture);
  ASSERT_EQ(relative.exit_code, 0) << relative.err;
  RunResult dotted =
      run({rpckit_exe(), "generate", "../protocol.json", "--out", (tmp.path() / "c").string()},
          fixture / "schema" / "types");
  ASSERT_EQ(dotted.exit_code, 0) << dotted.err;
  std::vector<std::string> files = list_files(tmp.path() / "a");
  ASSERT_EQ(files.size(), 9u);  // the calculator has error codes: errors.hpp too
  for (const char* other : {"b", "c"}) {
    EXPECT_EQ(list_files(tmp.path() / other), files);
    for (const std::string& f : files) {
      EXPECT_EQ(read_file(tmp.path() / "a" / f), read_file(tmp.path() / other / f)) << f;
    }
  }
}

TEST(Determinism, OutputHasNoAbsolutePathsAndNoTimestamps) {
  TempDir tmp("leaks");
  std::size_t scanned = 0;
  for (const fs::path& dir : schema_dirs()) {
    fs::path copy = tmp.path() / dir.parent_path().filename() / "schema";
    copy_tree(dir, copy);
    Generated g = generate(copy / "protocol.json");
    std::vector<std::string> texts = {dump_ir(g.module)};
    for (const OutputFile& f : g.files) texts.push_back(f.content);
    for (const std::string& text : texts) {
      ++scanned;
      for (const std::string& forbidden :
           {source_dir().string(), tmp.path().string(), copy.string(),
            fs::temp_directory_path().string(), std::string("/home/"), std::string("/work/"),
            std::string("/usr/"), std::string("__DATE__"), std::string("__TIME__")}) {
        EXPECT_EQ(text.find(forbidden), std::string::npos)
            << "\"" << forbidden << "\" in output of " << dir;
      }
      // ISO dates, clock times, and `date`-style month names with a day.
      static const std::regex timestamp(
          R"((19|20)\d\d-[01]\d-[0-3]\d|\b[0-2]\d:[0-5]\d:[0-5]\d\b|\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2}\b)");
      std::smatch m;
      EXPECT_FALSE(std::regex_search(text, m, timestamp))
          << "timestamp-like \"" << m.str() << "\" in output of " << dir;
    }
  }
  EXPECT_GE(scanned, 21u);
}

TEST(Determinism, BannerCarriesVersionAndSchemaHash) {
  Generated g = generate(fixtures_dir() / "calculator" / "schema" / "protocol.json");
  ASSERT_EQ(g.module.schema_hash.size(), 16u);
  for (const OutputFile& f : g.files) {
    std::string comment = f.path.ends_with("CMakeLists.txt") ? "#" : "//";
    std::string expected = comment + " Generated by rpckit " + kGeneratorVersion +
                           " from schema fnv1a64:" + g.module.schema_hash + ".\n";
    EXPECT_EQ(f.content.substr(0, expected.size()), expected) << f.path;
  }
  // The hash follows the schema's bytes.
  TempDir tmp("hash");
  copy_tree(fixtures_dir() / "calculator" / "schema", tmp.path());
  write_file(tmp.path() / "types/variables.json",
             read_file(tmp.path() / "types/variables.json") + "\n");
  EXPECT_NE(lower_file(tmp.path() / "protocol.json").schema_hash, g.module.schema_hash);
}

}  // namespace
}  // namespace rpckit::gen::test
