// Golden tests: every fixture under fixtures/<case>/schema is run through load -> lower ->
// emit_all in-process, and each emitted file must equal fixtures/<case>/expected/<path> byte
// for byte; the IR dump must equal fixtures/<case>/expected.ir. RPCKIT_UPDATE_GOLDENS=1
// rewrites the expected files instead (README.md).
#include <gtest/gtest.h>

#include <set>

#include "ir/dump.hpp"
#include "support.hpp"

namespace rpckit::gen::test {
namespace {

TEST(GoldenFixtures, AreFound) {
  std::vector<std::string> names = fixture_names();
  ASSERT_GE(names.size(), 2u) << "no fixtures under " << fixtures_dir();
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    EXPECT_TRUE(fs::exists(fixtures_dir() / name / "schema" / "protocol.json"));
    if (!update_goldens()) {
      EXPECT_FALSE(list_files(fixtures_dir() / name / "expected").empty())
          << "fixture " << name << " has no expected output; create it with: " << kRefreshCommand;
      EXPECT_TRUE(fs::exists(fixtures_dir() / name / "expected.ir"));
    }
  }
}

TEST(GoldenFixtures, FirstDifferenceNamesTheLine) {
  EXPECT_EQ(first_difference("a\nb\nc\n", "a\nb\nc\n"), "");
  EXPECT_EQ(first_difference("a\nb\nc\n", "a\nB\nc\n"),
            "line 2:\n  expected: b\\n\n  actual:   B\\n\n");
  EXPECT_EQ(first_difference("a\n", "a\nb\n"),
            "line 2:\n  expected: <end of file>\n  actual:   b\\n\n");
  EXPECT_EQ(first_difference("a\n", "a"), "line 1:\n  expected: a\\n\n  actual:   a\n");
}

TEST(GoldenFixtures, MismatchMessageNamesFileLineAndRefreshCommand) {
  if (update_goldens()) GTEST_SKIP() << "refreshing goldens";
  TempDir dir("golden-mismatch");
  write_file(dir.path() / "x.hpp", "one\ntwo\nthree\n");
  EXPECT_TRUE(matches_golden(dir.path() / "x.hpp", "one\ntwo\nthree\n"));
  ::testing::AssertionResult r = matches_golden(dir.path() / "x.hpp", "one\n2\nthree\n");
  ASSERT_FALSE(r);
  std::string message = r.message();
  EXPECT_NE(message.find((dir.path() / "x.hpp").generic_string()), std::string::npos) << message;
  EXPECT_NE(message.find("line 2:\n  expected: two\\n\n  actual:   2\\n"), std::string::npos)
      << message;
  EXPECT_NE(message.find(kRefreshCommand), std::string::npos) << message;
  ::testing::AssertionResult missing = matches_golden(dir.path() / "nope.hpp", "x");
  ASSERT_FALSE(missing);
  EXPECT_NE(std::string(missing.message()).find("is missing"), std::string::npos);
}

class GoldenTest : public ::testing::TestWithParam<std::string> {
 protected:
  fs::path fixture() const { return fixtures_dir() / GetParam(); }
};

TEST_P(GoldenTest, EmittedFilesMatchExpected) {
  Generated g = generate(fixture() / "schema" / "protocol.json");
  ASSERT_GE(g.files.size(), 7u);  // profile.hpp only with an x-profile
  std::set<std::string> emitted;
  for (const OutputFile& f : g.files) {
    emitted.insert(f.path);
    EXPECT_TRUE(matches_golden(fixture() / "expected" / f.path, f.content));
  }
  // A golden the generator no longer produces is stale too.
  for (const std::string& path : list_files(fixture() / "expected")) {
    if (emitted.count(path) != 0) continue;
    if (update_goldens()) {
      fs::remove(fixture() / "expected" / path);
    } else {
      ADD_FAILURE() << "tests/generator/fixtures/" << GetParam() << "/expected/" << path
                    << " is not produced by the generator any more.\nRefresh the goldens with: "
                    << kRefreshCommand;
    }
  }
}

TEST_P(GoldenTest, IrDumpMatchesExpected) {
  ir::Module m = lower_file(fixture() / "schema" / "protocol.json");
  std::string dump = dump_ir(m);
  ASSERT_FALSE(dump.empty());
  EXPECT_TRUE(matches_golden(fixture() / "expected.ir", dump));
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenTest, ::testing::ValuesIn(fixture_names()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace rpckit::gen::test
