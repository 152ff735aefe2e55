// plugin.toml from a stranger: nothing in it may crash, hang or exhaust the loader. toml++
// recurses per part of a dotted key and per nested table, so such text is measured before it
// is parsed; what parses is converted to JSON within the frame depth limit.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "support.hpp"

namespace manifest_test {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string dotted(std::size_t parts) {
  std::string key = "k";
  for (std::size_t i = 1; i < parts; ++i) key += ".k";
  return key;
}

rs::ManifestResult load_text(const std::string& text) {
  TempDir tmp;
  return rs::load_manifest(tmp.write("plugin.toml", text));
}

std::string only_issue(const rs::ManifestResult& result) {
  EXPECT_EQ(result.issues.size(), 1U) << ::testing::PrintToString(strs(result.issues));
  return result.issues.empty() ? "" : result.issues[0].str();
}

TEST(HostileManifest, DeepDottedKeysAreRefusedBeforeParsing) {
  // 100,000 parts crashed toml++ (a stack overflow) before this check existed.
  for (const std::string& text :
       {dotted(100000) + " = 1\n", "[" + dotted(100000) + "]\nx = 1\n",
        "[[" + dotted(50000) + "]]\n", "a = { " + dotted(5000) + " = 1 }\n",
        "\"q\".\"r\"." + dotted(40) + " = 1\n"}) {
    EXPECT_EQ(only_issue(load_text(text)),
              "plugin.toml: is nested too deeply: line 1 has a dotted key of more than 32 parts")
        << text.substr(0, 40);
  }
  // Nesting inline tables multiplies the parts: the whole file is bounded too.
  std::string amplified = "a = ";
  for (int i = 0; i < 200; ++i) amplified += "{" + dotted(10) + " = ";
  amplified += "1" + std::string(200, '}') + "\n";
  EXPECT_EQ(only_issue(load_text(amplified)),
            "plugin.toml: is nested too deeply: more than 1024 dotted key parts");
}

TEST(HostileManifest, DotsInStringsCommentsAndNumbersAreNotKeyParts) {
  std::string text = "# " + dotted(200) + "\nname = \"" + dotted(200) + "\"\n" +
                     "description = '''\n" + dotted(200) + "\n'''\nx.y.z = 1.5\n";
  rs::ManifestResult result = load_text(text);
  for (const rs::ManifestIssue& issue : result.issues) {
    EXPECT_THAT(issue.rule, ::testing::Not(HasSubstr("nested too deeply"))) << issue.str();
  }
  // 32 parts is the limit, not an error.
  result = load_text(dotted(32) + " = 1\n");
  for (const rs::ManifestIssue& issue : result.issues) {
    EXPECT_THAT(issue.rule, ::testing::Not(HasSubstr("nested too deeply"))) << issue.str();
  }
}

TEST(HostileManifest, NestedArraysStopAtTomlsOwnLimit) {
  std::string text = "a = " + std::string(300, '[') + std::string(300, ']') + "\n";
  EXPECT_THAT(only_issue(load_text(text)), StartsWith("plugin.toml: TOML syntax error at 1:"));
}

TEST(HostileManifest, ConvertedJsonIsBoundedByTheFrameDepthLimit) {
  // 250 nested arrays pass toml++ (limit 256) and the key check; inside a table nested by a
  // 20-part key they reach 271 levels of JSON.
  std::string text = dotted(20) + " = " + std::string(250, '[') + std::string(250, ']') + "\n";
  rs::ManifestResult result = load_text(text);
  bool found = false;
  for (const rs::ManifestIssue& issue : result.issues) {
    found = found || issue.rule == "is nested deeper than 256 levels";
  }
  EXPECT_TRUE(found) << ::testing::PrintToString(strs(result.issues));
}

TEST(HostileManifest, OversizedFileIsNotRead) {
  std::string big(rs::kMaxManifestBytes + 1, '#');
  EXPECT_THAT(only_issue(load_text(big)),
              StartsWith("plugin.toml: is larger than 1048576 bytes ("));
  // Exactly the limit is read (and is only a comment).
  std::string at_limit(rs::kMaxManifestBytes, '\n');
  rs::ManifestResult result = load_text(at_limit);
  for (const rs::ManifestIssue& issue : result.issues) {
    EXPECT_THAT(issue.rule, ::testing::Not(HasSubstr("larger than"))) << issue.str();
  }
}

// The duplicate check is O(n log n) (codec::duplicates; its growth is measured by
// codec.Duplicates.GrowNearlyLinearly): here the whole list at the size cap is checked.
TEST(HostileManifest, AListAtTheSizeCapIsCheckedWhole) {
  // 80,000 distinct entries (each one invalid, the worst case for a duplicate check that
  // compares pairwise) and one duplicate at the end, in a file just under the size cap.
  std::string events = "events = [";
  for (int i = 0; i < 80000; ++i) events += (i == 0 ? "\"x" : ",\"x") + std::to_string(i) + "\"";
  events += ",\"x0\"]\n";
  rs::ManifestResult result = load_text("[capabilities]\n" + events);
  bool duplicate = false;
  for (const rs::ManifestIssue& issue : result.issues) {
    duplicate = duplicate || issue.str() == "capabilities.events[80000] = \"x0\": expected unique "
                                           "items (same as capabilities.events[0])";
  }
  EXPECT_TRUE(duplicate) << ::testing::PrintToString(strs(result.issues)).substr(0, 500);
}

}  // namespace
}  // namespace manifest_test
