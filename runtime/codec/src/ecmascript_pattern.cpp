#include "rpckit/codec/ecmascript_pattern.hpp"

#include <re2/re2.h>

#include <cstdint>
#include <optional>

#include "rpckit/codec/ascii.hpp"

namespace rpckit::codec {
namespace {

// ECMAScript's WhiteSpace and LineTerminator code points (ECMA-262 \s), as class items.
constexpr std::string_view kSpaceItems =
    "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}"
    "\\x{205F}\\x{3000}\\x{FEFF}";
// ECMAScript's `.` without the s flag.
constexpr std::string_view kDot = "[^\\n\\r\\x{2028}\\x{2029}]";
constexpr std::string_view kSyntaxCharacters = "^$\\.*+?()[]{}|/";
constexpr std::uint64_t kMaxRepeat = 1000;  // RE2's limit on {n,m}

struct Refused {
  PatternError error;
};

std::string code_point(std::uint32_t cp) {
  static const char* digits = "0123456789ABCDEF";
  std::string hex;
  do {
    hex.insert(hex.begin(), digits[cp % 16]);
    cp /= 16;
  } while (cp != 0);
  return "\\x{" + hex + "}";
}

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

std::uint32_t hex_value(char c) {
  if (c >= '0' && c <= '9') return static_cast<std::uint32_t>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<std::uint32_t>(c - 'a' + 10);
  return static_cast<std::uint32_t>(c - 'A' + 10);
}

class Translator {
 public:
  explicit Translator(std::string_view in) : in_(in) {}

  std::string run() {
    while (!at_end()) {
      char c = in_[i_];
      switch (c) {
        case '\\': out_ += escape(/*in_class=*/false); break;
        case '.': out_ += kDot; ++i_; break;
        case '[': character_class(); break;
        case '(': group(); break;
        case '{': braces(); break;
        case '}':
        case ']':
          refuse(i_, std::string("a lone '") + c + "' is a syntax error under the u flag");
        default: out_ += c; ++i_; break;
      }
    }
    return out_;
  }

 private:
  bool at_end() const { return i_ >= in_.size(); }
  char peek(std::size_t ahead = 0) const {
    return i_ + ahead < in_.size() ? in_[i_ + ahead] : '\0';
  }
  [[noreturn]] static void refuse(std::size_t at, std::string reason) {
    throw Refused{PatternError{at, std::move(reason)}};
  }

  // `\` at i_. Returns RE2 text: a class item list when in_class ("\\d", kSpaceItems, ...),
  // else a standalone atom.
  std::string escape(bool in_class) {
    std::size_t start = i_;
    ++i_;  // the backslash
    if (at_end()) refuse(start, "the pattern ends with a lone '\\'");
    char c = in_[i_++];
    switch (c) {
      case 'd': case 'D': case 'w': case 'W': return std::string("\\") + c;
      case 'b':
        return in_class ? code_point(0x08) : "\\b";  // [\b] is a backspace
      case 'B':
        if (in_class) refuse(start, "\\B inside a character class");
        return "\\B";
      case 's':
        return in_class ? std::string(kSpaceItems) : "[" + std::string(kSpaceItems) + "]";
      case 'S':
        if (in_class) return "\\S";  // character_class() resolves it
        return "[^" + std::string(kSpaceItems) + "]";
      case 't': return "\\t";
      case 'n': return "\\n";
      case 'r': return "\\r";
      case 'f': return "\\f";
      case 'v': return code_point(0x0B);
      case '0':
        if (ascii::is_digit(peek())) {
          refuse(start, "\\0 followed by a digit (a legacy octal escape)");
        }
        return code_point(0);
      case 'x': {
        if (!is_hex(peek()) || !is_hex(peek(1))) refuse(start, "\\x needs two hex digits");
        std::uint32_t v = hex_value(in_[i_]) * 16 + hex_value(in_[i_ + 1]);
        i_ += 2;
        return code_point(v);
      }
      case 'u': return code_point(unicode_escape(start));
      case 'c': {
        char letter = peek();
        bool ok = (letter >= 'a' && letter <= 'z') || (letter >= 'A' && letter <= 'Z');
        if (!ok) refuse(start, "\\c needs a letter");
        ++i_;
        return code_point(static_cast<std::uint32_t>(letter) % 32);
      }
      case 'k': refuse(start, "named backreferences (\\k<name>) cannot run in linear time");
      case 'p':
      case 'P':
        refuse(start, "Unicode property escapes (\\p{...}) are not supported; list the ranges");
      case '-':
        if (!in_class) refuse(start, "\\- outside a character class is a syntax error under the u flag");
        return "\\-";
      default: break;
    }
    if (c >= '1' && c <= '9') refuse(start, "backreferences cannot run in linear time");
    if (kSyntaxCharacters.find(c) != std::string_view::npos) {
      return c == '/' ? std::string("/") : std::string("\\") + c;
    }
    refuse(start, std::string("\\") + c + " is not a valid escape under the u flag");
  }

  // After "\u" at i_: \uHHHH (a surrogate pair written as two escapes is one code point) or
  // \u{H...}.
  std::uint32_t unicode_escape(std::size_t start) {
    if (peek() == '{') {
      ++i_;
      std::uint32_t v = 0;
      std::size_t digits = 0;
      while (is_hex(peek())) {
        v = v * 16 + hex_value(in_[i_++]);
        if (++digits > 6 || v > 0x10FFFF) refuse(start, "\\u{...} beyond U+10FFFF");
      }
      if (digits == 0 || peek() != '}') refuse(start, "\\u{ needs hex digits and a '}'");
      ++i_;
      if (v >= 0xD800 && v <= 0xDFFF) refuse(start, "a lone surrogate cannot occur in UTF-8 text");
      return v;
    }
    auto four = [&](std::size_t at) -> std::optional<std::uint32_t> {
      std::uint32_t v = 0;
      for (std::size_t k = 0; k < 4; ++k) {
        char h = at + k < in_.size() ? in_[at + k] : '\0';
        if (!is_hex(h)) return std::nullopt;
        v = v * 16 + hex_value(h);
      }
      return v;
    };
    auto v = four(i_);
    if (!v) refuse(start, "\\u needs four hex digits");
    i_ += 4;
    if (*v >= 0xD800 && *v <= 0xDBFF && peek() == '\\' && peek(1) == 'u') {
      auto low = four(i_ + 2);
      if (low && *low >= 0xDC00 && *low <= 0xDFFF) {
        i_ += 6;
        return 0x10000 + ((*v - 0xD800) << 10) + (*low - 0xDC00);
      }
    }
    if (*v >= 0xD800 && *v <= 0xDFFF) refuse(start, "a lone surrogate cannot occur in UTF-8 text");
    return *v;
  }

  void character_class() {
    std::size_t start = i_++;
    bool negated = false;
    if (peek() == '^') {
      negated = true;
      ++i_;
    }
    if (peek() == ']') {  // [] matches nothing, [^] any code point
      ++i_;
      out_ += negated ? "[\\x{0}-\\x{10FFFF}]" : "[^\\x{0}-\\x{10FFFF}]";
      return;
    }
    std::string items;
    int count = 0;
    bool not_space = false;
    while (!at_end() && peek() != ']') {
      char c = peek();
      ++count;
      if (c == '\\') {
        std::string item = escape(/*in_class=*/true);
        if (item == "\\S") {
          not_space = true;
        } else {
          items += item;
        }
      } else if (c == '[' || c == '^') {
        items += std::string("\\") + c;  // literal here; RE2 would read "[:" as POSIX
        ++i_;
      } else {
        items += c;
        ++i_;
      }
    }
    if (at_end()) refuse(start, "unterminated character class");
    ++i_;
    if (not_space) {
      if (count != 1) refuse(start, "\\S inside a character class with other items");
      negated = !negated;
      items = kSpaceItems;
    }
    out_ += (negated ? "[^" : "[") + items + "]";
  }

  void group() {
    std::size_t start = i_++;
    if (peek() != '?') {
      out_ += '(';
      return;
    }
    if (peek(1) == ':') {
      out_ += "(?:";
      i_ += 2;
      return;
    }
    if (peek(1) == '=' || peek(1) == '!') refuse(start, "lookahead cannot run in linear time");
    if (peek(1) == '<' && (peek(2) == '=' || peek(2) == '!')) {
      refuse(start, "lookbehind cannot run in linear time");
    }
    if (peek(1) == '<') {
      i_ += 2;
      std::string name;
      while (!at_end() && peek() != '>') name += in_[i_++];
      if (at_end() || name.empty()) refuse(start, "unterminated group name");
      ++i_;
      out_ += "(?P<" + name + ">";
      return;
    }
    refuse(start, "unsupported group syntax \"(?\"");
  }

  // `{` at i_: only a quantifier {n}, {n,} or {n,m} (the u flag makes a lone brace an error).
  void braces() {
    std::size_t start = i_;
    std::size_t j = i_ + 1;
    auto number = [&](std::uint64_t& v) {
      std::size_t from = j;
      v = 0;
      while (j < in_.size() && ascii::is_digit(in_[j])) {
        v = v * 10 + static_cast<std::uint64_t>(in_[j] - '0');
        if (v > kMaxRepeat) refuse(start, "repetition counts over 1000 are not supported");
        ++j;
      }
      return j > from;
    };
    std::uint64_t lo = 0, hi = 0;
    bool ok = number(lo);
    if (ok && j < in_.size() && in_[j] == ',') {
      ++j;
      if (j < in_.size() && in_[j] != '}') ok = number(hi) && hi >= lo;
    }
    if (!ok || j >= in_.size() || in_[j] != '}') {
      refuse(start, "a lone '{' is a syntax error under the u flag");
    }
    out_.append(in_.substr(i_, j + 1 - i_));
    i_ = j + 1;
  }

  std::string_view in_;
  std::size_t i_ = 0;
  std::string out_;
};

}  // namespace

std::variant<std::string, PatternError> ecmascript_to_re2(std::string_view ecmascript) {
  try {
    return Translator(ecmascript).run();
  } catch (const Refused& r) {
    return r.error;
  }
}


std::string re2_error(const std::string& re2) {
  RE2::Options options;
  options.set_log_errors(false);
  RE2 compiled(re2, options);
  return compiled.ok() ? std::string() : compiled.error();
}

}  // namespace rpckit::codec
