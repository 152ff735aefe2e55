#include "rpckit/codec/json_writer.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "rpckit/codec/ascii.hpp"

namespace rpckit::codec {
namespace {

// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 when it is not one.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  auto continuation = [&](std::size_t k) { return k < s.size() && (at(k) & 0xC0U) == 0x80U; };
  unsigned char b = at(i);
  if (b >= 0xC2 && b <= 0xDF) return continuation(i + 1) ? 2 : 0;
  if (b >= 0xE0 && b <= 0xEF) {
    if (!continuation(i + 1) || !continuation(i + 2)) return 0;
    unsigned char b1 = at(i + 1);
    if (b == 0xE0 && b1 < 0xA0) return 0;  // overlong
    if (b == 0xED && b1 > 0x9F) return 0;  // a surrogate
    return 3;
  }
  if (b >= 0xF0 && b <= 0xF4) {
    if (!continuation(i + 1) || !continuation(i + 2) || !continuation(i + 3)) return 0;
    unsigned char b1 = at(i + 1);
    if (b == 0xF0 && b1 < 0x90) return 0;  // overlong
    if (b == 0xF4 && b1 > 0x8F) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

// Escapes as nlohmann's serializer does (ensure_ascii off), `plain` bytes at the front
// already known to need nothing. False, with `out` as it was, at the first byte that is not
// UTF-8.
bool write_escaped(std::string& out, std::string_view s, std::size_t plain) {
  static constexpr char kHex[] = "0123456789abcdef";
  const std::size_t start = out.size();
  out += '"';
  std::size_t run = plain;  // bytes copied verbatim since the last escape
  for (std::size_t i = plain; i < s.size();) {
    const std::size_t plain_end = ascii::plain_string_run_end(s.data(), i, s.size());
    run += plain_end - i;
    i = plain_end;
    if (i == s.size()) break;
    const auto b = static_cast<unsigned char>(s[i]);
    if (b >= 0x80) {
      std::size_t n = utf8_sequence(s, i);
      if (n == 0) {
        out.resize(start);
        return false;
      }
      i += n;
      run += n;
      continue;
    }
    out.append(s.data() + i - run, run);
    run = 0;
    switch (b) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\f': out += "\\f"; break;
      case '\r': out += "\\r"; break;
      default: {
        const std::array<char, 6> u = {'\\', 'u', '0', '0', kHex[b >> 4U], kHex[b & 0xFU]};
        out.append(u.data(), u.size());
      }
    }
    ++i;
  }
  out.append(s.data() + s.size() - run, run);
  out += '"';
  return true;
}

}  // namespace

void write_json(std::string& out, std::string_view s) {
  const std::size_t plain = ascii::plain_string_run_end(s.data(), 0, s.size());
  if (plain == s.size()) {
    // Nothing to escape (most strings): quotes and bytes in one copy.
    const std::size_t at = out.size();
    out.resize(at + s.size() + 2);
    char* p = out.data() + at;
    p[0] = '"';
    if (!s.empty()) std::memcpy(p + 1, s.data(), s.size());  // a default view's data() is null
    p[s.size() + 1] = '"';
    return;
  }
  if (write_escaped(out, s, plain)) return;
  // Not UTF-8 (a handler's bytes, never a peer's): nlohmann's replacement, byte for byte.
  out += nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void write_json(std::string& out, bool b) { out += b ? "true" : "false"; }

void write_json(std::string& out, double d) {
  if (!std::isfinite(d)) {
    out += "null";
    return;
  }
  // nlohmann's own shortest round-trip printer (what dump() calls), for identical bytes.
  std::array<char, 64> buffer{};
  char* end = nlohmann::detail::to_chars(buffer.data(), buffer.data() + buffer.size(), d);
  out.append(buffer.data(), end);
}

void write_json(std::string& out, std::nullptr_t) { out += "null"; }

void write_json(std::string& out, const JsonValue& v) {
  out += v.get().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace rpckit::codec
