#include "text.hpp"

#include <cstdio>

namespace rpckit::framing::text {

namespace {
bool is_space_or_tab(char c) { return c == ' ' || c == '\t'; }
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
}  // namespace

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space_or_tab(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space_or_tab(s.back())) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

bool is_blank(std::string_view s) { return s.find_first_not_of(" \t\r") == std::string_view::npos; }

std::string_view strip(std::string_view s) {
  const std::size_t first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

std::string quote(std::string_view s, std::size_t max_chars) {
  std::string out = "\"";
  const bool cut = s.size() > max_chars;
  if (cut) s = s.substr(0, max_chars);
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f) {
          char hex[8];
          std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned>(byte));
          out += hex;
        } else {
          out += c;  // UTF-8 passes through unchanged
        }
      }
    }
  }
  out += cut ? "\"..." : "\"";
  return out;
}

std::string byte_limit(std::size_t limit) { return "the " + std::to_string(limit) + "-byte limit"; }

}  // namespace rpckit::framing::text
