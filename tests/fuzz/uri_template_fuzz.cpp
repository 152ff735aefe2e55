// Fuzz target: rpckit::mcp::UriTemplate on a template and a URI (the input's first line and the
// rest). Whatever the pair, the constructor takes the template or throws invalid_argument, and
// matching ends (libFuzzer's -timeout catches a matcher that backtracks). What a match returns
// are the template's variables only, and expanding the template with them (RFC 6570, written
// here independently of the matcher) gives a URI the template matches too. (One exception to
// RFC 6570 here: a '?' in a reserved value is encoded when the template has a query, where the
// expansion would make the URI's query start early.)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "rpckit/mcp/uri_template.hpp"

namespace {

using rpckit::mcp::UriTemplate;

void check(bool condition) {
  if (!condition) std::abort();
}

bool unreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}
bool reserved(unsigned char c) {
  return std::string_view(":/?#[]@!$&'()*+,;=").find(static_cast<char>(c)) !=
         std::string_view::npos;
}

// RFC 6570 §3.2.1: what is not allowed is %XX-encoded; `keep_reserved` for + and #.
std::string encoded(std::string_view value, bool keep_reserved, bool query_follows) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char ch : value) {
    const auto c = static_cast<unsigned char>(ch);
    if (unreserved(c) || (keep_reserved && reserved(c) && !(query_follows && c == '?'))) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// The template expanded with `values` (the operators UriTemplate takes; one it took is valid).
std::string expand(std::string_view text, const UriTemplate::Values& values) {
  const bool has_query = text.find("{?") != std::string_view::npos;
  bool in_query = false;
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] != '{') {
      out += text[i++];
      continue;
    }
    const std::size_t close = text.find('}', i);
    std::string_view body = text.substr(i + 1, close - i - 1);
    i = close + 1;
    char op = 0;
    if (std::string_view("+#./?&").find(body[0]) != std::string_view::npos) {
      op = body[0];
      body.remove_prefix(1);
    }
    bool first = true;
    std::size_t start = 0;
    while (start <= body.size()) {
      const std::size_t comma = std::min(body.find(',', start), body.size());
      const std::string name(body.substr(start, comma - start));
      start = comma + 1;
      const auto it = values.find(name);
      if (it == values.end()) continue;
      const std::string value = encoded(it->second, op == '+' || op == '#', has_query);
      switch (op) {
        case 0:
        case '+':
          out += (first ? "" : ",") + value;
          break;
        case '#':
          out += (first ? "#" : ",") + value;
          break;
        case '/':
        case '.':
          out += op + value;
          break;
        default:  // ? and &: the URI's query, '?' before its first pair
          out += (in_query ? "&" : "?") + name + "=" + value;
          in_query = true;
      }
      first = false;
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  if (newline == std::string_view::npos) return 0;
  const std::string_view text = input.substr(0, newline);
  const std::string_view uri = input.substr(newline + 1);
  try {
    const UriTemplate pattern(text);
    const auto values = pattern.match(uri);
    if (!values) return 0;
    for (const auto& [name, value] : *values) {
      bool named = false;
      for (const std::string& v : pattern.variables()) named = named || v == name;
      check(named);
    }
    check(pattern.match(expand(text, *values)).has_value());
  } catch (const std::invalid_argument&) {
    // a template it does not take: said so
  }
  return 0;
}
