// The Markdown helpers: GitHub's heading anchors, code spans, table cells, keyed links.
#include "tool/docs/markdown.hpp"

#include <gtest/gtest.h>

namespace rpckit::docs::md {
namespace {

TEST(Markdown, SlugFollowsGitHub) {
  EXPECT_EQ(slug("`get_credential`"), "get_credential");
  EXPECT_EQ(slug("Messages from host to plugin"), "messages-from-host-to-plugin");
  EXPECT_EQ(slug("Error codes"), "error-codes");
  EXPECT_EQ(slug("`room/join` (v2.1)"), "roomjoin-v21");
}

TEST(Markdown, RepeatedHeadingsGetNumberedAnchors) {
  Document doc;
  doc.heading(2, "Params", {"a"});
  doc.heading(2, "Params", {"b"});
  doc.heading(2, "Params-1", {"c"});
  doc.raw(Document::link("A", "a") + " " + Document::link("B", "b") + " " +
          Document::link("C", "c") + "\n");
  std::string out = doc.finish("");
  EXPECT_NE(out.find("[A](#params) [B](#params-1) [C](#params-1-1)"), std::string::npos) << out;
}

TEST(Markdown, LinkToAnUnknownKeyIsItsLabel) {
  Document doc;
  doc.raw(Document::link("`X`", "type:X") + "\n");
  EXPECT_EQ(doc.finish(""), "`X`\n");
}

TEST(Markdown, CodeSpanFenceOutgrowsBackticks) {
  EXPECT_EQ(code("a"), "`a`");
  EXPECT_EQ(code("a`b"), "``a`b``");
  EXPECT_EQ(code("`a"), "`` `a ``");
}

TEST(Markdown, CellsStayOnOneLineAndEscapePipes) {
  EXPECT_EQ(cell("a |b\n  c"), "a \\|b c");
  EXPECT_EQ(cell("`^(0|1)$`"), "`^(0\\|1)$`");
  EXPECT_EQ(table({"a", "b"}, {{"1", ""}}), "| a | b |\n|---|---|\n| 1 | |\n");
}

TEST(Markdown, ProseCannotOpenTags) {
  EXPECT_EQ(prose("'Content-Length: <N>' * 2 \\ x"), "'Content-Length: &lt;N>' \\* 2 \\\\ x");
}

TEST(Markdown, ContentsListsSectionsWithTheirEntries) {
  Document doc;
  doc.heading(1, "Title");
  doc.raw("@toc@");
  doc.heading(2, "Messages");
  doc.heading(3, "`a`");
  doc.heading(3, "`b`");
  doc.heading(2, "Constants");
  EXPECT_EQ(doc.finish("@toc@"),
            "# Title\n\n"
            "- [Messages](#messages): [`a`](#a), [`b`](#b)\n"
            "- [Constants](#constants)\n"
            "## Messages\n\n### `a`\n\n### `b`\n\n## Constants\n\n");
}

}  // namespace
}  // namespace rpckit::docs::md
