#include "emit/wrap.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <vector>

namespace rpckit::gen {
namespace {

// A place a line may be broken: the first part ends at `cut`, the next starts at `next` (a
// space between them is dropped).
struct Break {
  std::size_t cut = 0;
  std::size_t next = 0;
  std::size_t depth = 0;               // brackets open there: the lower, the better a place
  std::optional<std::size_t> align;  // after a comma: the rest lines up with this index
};

// A string literal of the line: [begin, end), its characters [body, body_end).
struct Literal {
  std::size_t begin = 0, end = 0, body = 0, body_end = 0;
  std::string open, close;  // `R"d(` and `)d"`, or `"` and `"`
};

struct Scan {
  std::vector<Break> breaks;
  std::vector<Literal> literals;
  std::string raw_left_open;  // the closing delimiter of a raw literal that goes on past the line
};

bool is_word(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == ':';
}

bool starts_comment(std::string_view line, std::size_t i) {
  return line.compare(i, 2, "//") == 0;
}

Scan scan(std::string_view line, std::size_t from) {
  Scan s;
  std::vector<std::size_t> open;  // the open brackets, innermost last
  const std::size_t n = line.size();
  auto at = [&](std::size_t i) { return i < n ? line[i] : '\0'; };
  for (std::size_t i = from; i < n; ++i) {
    const char c = line[i];
    if (starts_comment(line, i)) break;  // nothing is broken inside or after a comment
    if (c == 'R' && at(i + 1) == '"' && (i == 0 || !is_word(line[i - 1]))) {
      std::size_t paren = line.find('(', i + 2);
      if (paren == std::string_view::npos) break;
      std::string delimiter(line.substr(i + 2, paren - i - 2));
      std::string close = ")" + delimiter + "\"";
      std::size_t end = line.find(close, paren + 1);
      if (end == std::string_view::npos) {
        s.raw_left_open = close;
        s.breaks.clear();
        return s;
      }
      s.literals.push_back({i, end + close.size(), paren + 1, end, "R\"" + delimiter + "(", close});
      i = end + close.size() - 1;
      continue;
    }
    if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < n && line[j] != c) j += line[j] == '\\' ? 2 : 1;
      if (c == '"') s.literals.push_back({i, j + 1, i + 1, j, "\"", "\""});
      i = j;
      continue;
    }
    const bool template_open = c == '<' && i > 0 && is_word(line[i - 1]);
    if (c == '(' || c == '[' || c == '{' || template_open) {
      open.push_back(i);
      std::size_t next = at(i + 1) == ' ' ? i + 2 : i + 1;  // "{ return": the space goes
      char after = at(next);
      if (after != '\0' && after != ')' && after != ']' && after != '}' && after != '>' &&
          !starts_comment(line, next)) {
        s.breaks.push_back({i + 1, next, open.size(), std::nullopt});
      }
      continue;
    }
    const bool template_close =
        c == '>' && !open.empty() && line[open.back()] == '<' && at(i - 1) != '-';
    if (c == ')' || c == ']' || c == '}' || template_close) {
      if (!open.empty()) open.pop_back();
      continue;
    }
    const bool spaced = at(i + 1) == ' ' && at(i + 2) != ' ' && at(i + 2) != '\0' &&
                        !starts_comment(line, i + 2);
    if (c == ',' && spaced) {
      std::optional<std::size_t> align;  // the first character after the bracket
      if (!open.empty()) align = at(open.back() + 1) == ' ' ? open.back() + 2 : open.back() + 1;
      s.breaks.push_back({i + 1, i + 2, open.size(), align});
    } else if (c == '=' && spaced && i > 0 && line[i - 1] == ' ' &&
               line.compare(i + 2, 7, "default") != 0 && line.compare(i + 2, 6, "delete") != 0) {
      s.breaks.push_back({i + 1, i + 2, open.size(), std::nullopt});
    }
  }
  return s;
}

// Where a literal's characters may be cut: not inside an escape sequence, nor inside a UTF-8
// character (each literal must hold whole characters).
bool can_cut(std::string_view line, const Literal& l, std::size_t k) {
  if ((static_cast<unsigned char>(line[k]) & 0xC0) == 0x80) return false;
  if (l.open != "\"") return true;
  for (std::size_t i = l.body; i < k;) {
    if (line[i] != '\\') {
      ++i;
      continue;
    }
    // The escape's end: \n \" \\ ..., \x and hex digits, up to three octal digits, \u, \U.
    const char kind = line[i + 1];
    std::size_t end = i + 2;
    if (kind == 'x') {
      while (end < l.body_end && std::isxdigit(static_cast<unsigned char>(line[end])) != 0) ++end;
    } else if (kind >= '0' && kind <= '7') {
      while (end < l.body_end && end < i + 4 && line[end] >= '0' && line[end] <= '7') ++end;
    } else if (kind == 'u' || kind == 'U') {
      end = i + (kind == 'u' ? 6 : 10);
    }
    if (k > i && k < end) return false;
    i = end;
  }
  return true;
}

void wrap_line(std::string_view line, std::size_t width, std::string& out, Scan& s) {
  std::size_t indent = 0;
  while (indent < line.size() && line[indent] == ' ') ++indent;
  std::vector<std::size_t> column(line.size() + 1, 0);  // where each character landed
  std::size_t start = 0;
  std::size_t line_indent = indent;
  std::string prefix;  // what the current output line starts with, before line[start]
  auto col = [&](std::size_t i) { return prefix.size() + (i - start); };
  auto emit = [&](std::size_t cut, const std::string& suffix) {
    for (std::size_t i = start; i < cut; ++i) column[i] = col(i);
    out += prefix;
    out += line.substr(start, cut - start);
    out += suffix;
    out += '\n';
  };
  while (col(line.size()) > width) {
    // The outermost place that lets this part fit, the last of those.
    const Break* best = nullptr;
    for (const Break& b : s.breaks) {
      if (b.cut <= start || col(b.cut) > width) continue;
      if (best == nullptr || b.depth < best->depth ||
          (b.depth == best->depth && b.cut > best->cut)) {
        best = &b;
      }
    }
    if (best == nullptr) {
      // A string literal across the limit becomes two adjacent literals.
      bool split = false;
      for (const Literal& l : s.literals) {
        const std::size_t first = std::max(start, l.body) + 1;
        if (l.end <= start || col(l.begin > start ? l.begin : start) >= width) continue;
        if (col(first) + l.close.size() > width) continue;
        // Its last character may stay on this line only when what follows it fits too.
        std::size_t last = std::min(start + (width - prefix.size()) - l.close.size(),
                                    l.body_end - 1);
        if (last < first) continue;
        std::size_t k = last;
        while (k > first && !can_cut(line, l, k)) --k;
        // Words stay whole when a space is near enough.
        for (std::size_t w = k; w > first + (k - first) * 2 / 3; --w) {
          if (line[w - 1] == ' ' && can_cut(line, l, w)) {
            k = w;
            break;
          }
        }
        if (!can_cut(line, l, k)) continue;
        const std::size_t literal_column = l.begin >= start ? col(l.begin) : column[l.begin];
        emit(k, l.close);
        prefix = std::string(literal_column, ' ') + l.open;
        line_indent = literal_column;
        start = k;
        split = true;
        break;
      }
      if (split) continue;
      // Nothing fits: the first place there is, else the rest as it is.
      for (const Break& b : s.breaks) {
        if (b.cut > start) {
          best = &b;
          break;
        }
      }
      if (best == nullptr) break;
    }
    emit(best->cut, "");
    line_indent = best->align ? column[*best->align] : line_indent + 4;
    prefix = std::string(line_indent, ' ');
    start = best->next;
  }
  emit(line.size(), "");
}

}  // namespace

std::string wrap_lines(std::string_view text, std::size_t width) {
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  std::string raw_close;  // set while a raw literal spans lines: those are left as they are
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    const bool has_eol = eol != std::string_view::npos;
    std::string_view line = text.substr(pos, has_eol ? eol - pos : std::string_view::npos);
    pos = has_eol ? eol + 1 : text.size();
    std::size_t first = line.find_first_not_of(' ');
    bool as_is = line.size() <= width || first == std::string_view::npos ||
                 line[first] == '#' || starts_comment(line, first);
    if (!raw_close.empty()) {
      if (line.find(raw_close) != std::string_view::npos) raw_close.clear();
      out += line;
      if (has_eol) out += '\n';
      continue;
    }
    Scan s;
    if (raw_close.empty() && first != std::string_view::npos &&
        (!as_is || line.find("R\"") != std::string_view::npos)) {
      s = scan(line, first);
      if (!s.raw_left_open.empty()) {
        raw_close = s.raw_left_open;
        as_is = true;
      }
    }
    if (as_is) {
      out += line;
      if (has_eol) out += '\n';
      continue;
    }
    wrap_line(line, width, out, s);
    if (!has_eol) out.pop_back();
  }
  return out;
}

}  // namespace rpckit::gen
