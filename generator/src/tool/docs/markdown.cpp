#include "tool/docs/markdown.hpp"

#include <algorithm>
#include <map>

namespace rpckit::docs::md {
namespace {

// Links are written as "\x01key\x1flabel\x02" until finish() knows every anchor: control
// characters never occur in schema text that reaches the page.
constexpr char kLinkOpen = '\x01';
constexpr char kLinkSep = '\x1f';
constexpr char kLinkClose = '\x02';

}  // namespace

std::string slug(std::string_view heading_text) {
  std::string out;
  for (char c : heading_text) {
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-' || c == '_') {
      out += c;
    } else if (c >= 'A' && c <= 'Z') {
      out += static_cast<char>(c - 'A' + 'a');
    } else if (c == ' ') {
      out += '-';
    }
  }
  return out;
}

std::string code(std::string_view text) {
  std::size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(longest + 1, '`');
  // A span that starts or ends with a backtick needs a space so the fence stays apart.
  bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  std::string out = fence;
  if (pad) out += ' ';
  out += text;
  if (pad) out += ' ';
  return out + fence;
}

std::string prose(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '<') {
      out += "&lt;";
    } else if (c == '*' || c == '\\') {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out;
}

std::string cell(std::string_view markdown) {
  std::string out;
  bool space = false;
  for (char c : markdown) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows) {
  auto row = [](const std::vector<std::string>& cells) {
    std::string line = "|";
    for (const std::string& c : cells) {
      std::string text = cell(c);
      line += text.empty() ? " |" : " " + text + " |";
    }
    return line + "\n";
  };
  std::string out = row(header);
  out += "|";
  for (std::size_t i = 0; i < header.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& r : rows) out += row(r);
  return out;
}

std::string Document::anchor_for(std::string_view text) {
  // GitHub numbers repeated anchors: "params", "params-1", ...
  std::string base = slug(text);
  std::string result = base;
  int n = 0;
  while (std::find(used_anchors_.begin(), used_anchors_.end(), result) != used_anchors_.end()) {
    result = base + "-" + std::to_string(++n);
  }
  used_anchors_.push_back(result);
  return result;
}

void Document::heading(int level, std::string_view text, const std::vector<std::string>& keys) {
  headings_.push_back({level, std::string(text), anchor_for(text), keys});
  body_ += std::string(static_cast<std::size_t>(level), '#') + " " + std::string(text) + "\n\n";
}

void Document::paragraph(std::string_view markdown) {
  if (markdown.empty()) return;
  body_ += markdown;
  body_ += "\n\n";
}

void Document::raw(std::string_view markdown) { body_ += markdown; }

std::string Document::link(std::string_view label, std::string_view key) {
  std::string out(1, kLinkOpen);
  out += key;
  out += kLinkSep;
  out += label;
  out += kLinkClose;
  return out;
}

std::string Document::toc() const {
  std::string out;
  for (std::size_t i = 0; i < headings_.size(); ++i) {
    const Heading& h = headings_[i];
    if (h.level != 2) continue;
    out += "- [" + h.text + "](#" + h.anchor + ")";
    std::string children;
    for (std::size_t j = i + 1; j < headings_.size() && headings_[j].level > 2; ++j) {
      if (headings_[j].level != 3) continue;
      if (!children.empty()) children += ", ";
      children += "[" + headings_[j].text + "](#" + headings_[j].anchor + ")";
    }
    if (!children.empty()) out += ": " + children;
    out += "\n";
  }
  return out;
}

std::string Document::finish(std::string_view toc_marker) const {
  std::map<std::string, std::string, std::less<>> anchors;
  for (const Heading& h : headings_) {
    for (const std::string& k : h.keys) anchors.emplace(k, h.anchor);  // first one wins
  }
  std::string out;
  out.reserve(body_.size());
  std::size_t i = 0;
  while (i < body_.size()) {
    std::size_t open = body_.find(kLinkOpen, i);
    if (open == std::string::npos) {
      out.append(body_, i, std::string::npos);
      break;
    }
    out.append(body_, i, open - i);
    std::size_t sep = body_.find(kLinkSep, open);
    std::size_t close = body_.find(kLinkClose, sep);
    std::string_view key(body_.data() + open + 1, sep - open - 1);
    std::string_view label(body_.data() + sep + 1, close - sep - 1);
    auto it = anchors.find(key);
    if (it == anchors.end()) {
      out += label;
    } else {
      out += "[";
      out += label;
      out += "](#" + it->second + ")";
    }
    i = close + 1;
  }
  if (!toc_marker.empty()) {
    std::size_t at = out.find(toc_marker);
    if (at != std::string::npos) out.replace(at, toc_marker.size(), toc());
  }
  return out;
}

}  // namespace rpckit::docs::md
