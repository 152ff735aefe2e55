#pragma once
// Markdown building blocks for the reference: GitHub-flavoured escaping, heading anchors that
// match GitHub's own, and a document that links by key and writes its table of contents.
#include <string>
#include <string_view>
#include <vector>

namespace rpckit::docs::md {

// GitHub's anchor for a heading's text (github-slugger, ASCII part): lower case, letters,
// digits, '-' and '_' kept, spaces become '-', other punctuation (and backticks) dropped.
std::string slug(std::string_view heading_text);

// An inline code span whose fence is longer than any backtick run inside `text`.
std::string code(std::string_view text);

// Prose from the schema, safe in a paragraph: '<' cannot open an HTML tag, '*' and '\' stay
// literal. Backticks are kept: descriptions may mark code with them.
std::string prose(std::string_view text);

// Text for one table cell: one line, '|' escaped (also inside code spans, as GFM wants).
std::string cell(std::string_view markdown);

// One table: header row, alignment row, rows (cells already Markdown; `cell` is applied).
std::string table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows);

// A document whose headings have keys ("type:Channel"), so text can link to a heading before
// it is written; links resolve, and the table of contents is made, in finish().
class Document {
 public:
  // Appends "<#...#> text" and a blank line. Every key in `keys` links to this heading.
  void heading(int level, std::string_view text, const std::vector<std::string>& keys = {});
  void paragraph(std::string_view markdown);  // the text and a blank line
  void raw(std::string_view markdown);        // as is
  // A link to the heading with `key`, or the bare label when no heading has that key.
  static std::string link(std::string_view label, std::string_view key);

  // The document with links resolved and, where `toc_marker` stands, a table of contents of
  // the level-2 headings, each followed by its level-3 headings on the same line.
  std::string finish(std::string_view toc_marker) const;

 private:
  struct Heading {
    int level;
    std::string text;
    std::string anchor;
    std::vector<std::string> keys;
  };
  std::string anchor_for(std::string_view text);
  std::string toc() const;

  std::string body_;
  std::vector<Heading> headings_;
  std::vector<std::string> used_anchors_;
};

}  // namespace rpckit::docs::md
