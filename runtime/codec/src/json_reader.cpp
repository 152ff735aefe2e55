#include "rpckit/codec/json_reader.hpp"

#include <charconv>
#include <cstdlib>
#include <system_error>

#include "rpckit/codec/ascii.hpp"

namespace rpckit::codec {

JsonError::JsonError(Kind kind, std::size_t offset, const std::string& what)
    : std::runtime_error(what), kind_(kind), offset_(offset) {}

namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
unsigned char byte(char c) { return static_cast<unsigned char>(c); }

// "'x'", or the byte in hex when it is not printable ASCII.
std::string describe(std::string_view text, std::size_t at) {
  if (at >= text.size()) return "the end of the text";
  unsigned char b = byte(text[at]);
  if (b >= 0x20 && b < 0x7F) return std::string("'") + static_cast<char>(b) + "'";
  static const char* hex = "0123456789ABCDEF";
  return std::string("byte 0x") + hex[b >> 4U] + hex[b & 0xFU];
}

// Whether a number that from_chars found out of range is too large (not too small): its
// decimal exponent, counting the digits before the point, is positive.
bool overflows(std::string_view number) {
  std::size_t i = number[0] == '-' ? 1 : 0;
  long long exponent = 0;
  bool seen_nonzero = false;
  for (; i < number.size() && ascii::is_digit(number[i]); ++i) {
    if (number[i] != '0') seen_nonzero = true;
    if (seen_nonzero) ++exponent;
  }
  if (i < number.size() && number[i] == '.') {
    for (++i; i < number.size() && ascii::is_digit(number[i]); ++i) {
      if (seen_nonzero) continue;
      if (number[i] != '0') {
        seen_nonzero = true;
        break;
      }
      --exponent;
    }
    while (i < number.size() && ascii::is_digit(number[i])) ++i;
  }
  if (i < number.size() && (number[i] == 'e' || number[i] == 'E')) {
    // Saturating: an exponent of a million digits must not overflow the count.
    long long e = 0;
    bool negative = false;
    ++i;
    if (i < number.size() && (number[i] == '+' || number[i] == '-')) negative = number[i++] == '-';
    for (; i < number.size(); ++i) {
      if (e < 100000000) e = e * 10 + (number[i] - '0');
    }
    exponent += negative ? -e : e;
  }
  return exponent > 0;
}

}  // namespace

JsonReader::JsonReader(std::string_view text, Options options) : text_(text), options_(options) {}

void JsonReader::fail(std::size_t at, const std::string& message) const {
  throw JsonError(JsonError::Kind::kSyntax, at, "at byte " + std::to_string(at) + ": " + message);
}

void JsonReader::skip_space() {
  while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
}

void JsonReader::expect(char c, const char* what) {
  skip_space();
  if (pos_ >= text_.size() || text_[pos_] != c) {
    fail_here(std::string("expected ") + what + ", found " + describe(text_, pos_));
  }
  ++pos_;
}

// Just after the opening bracket; errors point at the bracket.
void JsonReader::enter(char container) {
  if (open_.size() >= options_.max_depth) {
    const std::size_t at = pos_ - 1;
    throw JsonError(JsonError::Kind::kTooDeep, at,
                    "at byte " + std::to_string(at) + ": nesting deeper than " +
                        std::to_string(options_.max_depth) + " levels");
  }
  open_.push_back(container);
  first_ = true;
}

JsonReader::Kind JsonReader::peek_slow() {
  skip_space();
  if (pos_ < text_.size()) {
    switch (text_[pos_]) {
      case '{': return Kind::kObject;
      case '[': return Kind::kArray;
      case '"': return Kind::kString;
      case 't': case 'f': return Kind::kBool;
      case 'n': return Kind::kNull;
      default:
        if (text_[pos_] == '-' || ascii::is_digit(text_[pos_])) return Kind::kNumber;
    }
  }
  fail_here("expected a value, found " + describe(text_, pos_));
}

void JsonReader::begin_object() {
  expect('{', "'{'");
  enter('{');
}

void JsonReader::begin_array() {
  expect('[', "'['");
  enter('[');
}

bool JsonReader::more(char closer, const char* what) {
  skip_space();
  const char c = pos_ < text_.size() ? text_[pos_] : '\0';
  if (c == closer) {
    ++pos_;
    leave();
    first_ = false;
    return false;
  }
  if (c == ',') {
    ++pos_;
    return true;
  }
  fail_here(std::string("expected ',' or ") + what + ", found " + describe(text_, pos_));
}

bool JsonReader::at_member_key() {
  if (first_) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      leave();
      first_ = false;
      return false;
    }
  } else if (!more('}', "'}'")) {
    return false;
  }
  skip_space();
  if (pos_ >= text_.size() || text_[pos_] != '"') {
    fail_here("expected an object key (a string), found " + describe(text_, pos_));
  }
  return true;
}

bool JsonReader::next_member(std::string& key) {
  std::string_view view;
  if (!next_member(view)) return false;
  key.assign(view);
  return true;
}

bool JsonReader::next_member_slow(std::string_view& key) {
  if (!at_member_key()) return false;
  const std::size_t open = pos_;
  const std::size_t end = ascii::plain_string_run_end(text_.data(), open + 1, text_.size());
  if (end < text_.size() && text_[end] == '"') {
    key = text_.substr(open + 1, end - open - 1);  // no escape: the text itself
    pos_ = end + 1;
  } else {
    key_buffer_.clear();
    scan_string(&key_buffer_);
    key = key_buffer_;
  }
  expect(':', "':' after an object key");
  first_ = false;
  return true;
}

bool JsonReader::next_item() {
  if (first_) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      leave();
      first_ = false;
      return false;
    }
    first_ = false;
    return true;
  }
  return more(']', "']'");
}

void JsonReader::read_string_slow(std::string& out) {
  skip_space();
  if (pos_ >= text_.size() || text_[pos_] != '"') {
    fail_here("expected a string, found " + describe(text_, pos_));
  }
  out.clear();
  scan_string(&out);
}

std::string_view JsonReader::read_number() {
  skip_space();
  return scan_number();
}

bool JsonReader::read_bool() {
  skip_space();
  if (pos_ < text_.size() && text_[pos_] == 't') {
    scan_literal("true");
    return true;
  }
  if (pos_ < text_.size() && text_[pos_] == 'f') {
    scan_literal("false");
    return false;
  }
  fail_here("expected true or false, found " + describe(text_, pos_));
}

void JsonReader::read_null() {
  skip_space();
  scan_literal("null");
}

void JsonReader::scan_literal(std::string_view word) {
  if (text_.substr(pos_, word.size()) != word) {
    fail_here("expected " + std::string(word) + ", found " + describe(text_, pos_));
  }
  pos_ += word.size();
}

std::string_view JsonReader::scan_number() {
  std::size_t start = pos_;
  auto digits = [&] {
    std::size_t from = pos_;
    while (pos_ < text_.size() && ascii::is_digit(text_[pos_])) ++pos_;
    if (pos_ == from) fail_here("expected a digit, found " + describe(text_, pos_));
  };
  if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
  if (pos_ < text_.size() && text_[pos_] == '0') {
    ++pos_;
  } else {
    digits();
  }
  bool plain_integer = true;
  if (pos_ < text_.size() && text_[pos_] == '.') {
    ++pos_;
    digits();
    plain_integer = false;
  }
  if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
    ++pos_;
    if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
    digits();
    plain_integer = false;
  }
  std::string_view number = text_.substr(start, pos_ - start);
  // Fewer than 309 digits and no exponent: always a finite double.
  if (options_.reject_overflow && (!plain_integer || number.size() > 300)) {
    double value = 0;
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    (void)end;
    if (ec == std::errc::result_out_of_range && overflows(number)) {
      std::string shown(number.substr(0, 40));
      if (number.size() > 40) shown += "...";
      throw JsonError(JsonError::Kind::kOverflow, start,
                      "at byte " + std::to_string(start) + ": number " + shown +
                          " is beyond the range of a double");
    }
  }
  return number;
}

std::uint32_t JsonReader::scan_hex4() {
  std::uint32_t v = 0;
  for (int k = 0; k < 4; ++k) {
    char c = pos_ < text_.size() ? text_[pos_] : '\0';
    std::uint32_t d = 0;
    if (c >= '0' && c <= '9') {
      d = static_cast<std::uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      d = static_cast<std::uint32_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      d = static_cast<std::uint32_t>(c - 'A' + 10);
    } else {
      fail_here("expected a hex digit in a \\u escape, found " + describe(text_, pos_));
    }
    v = v * 16 + d;
    ++pos_;
  }
  return v;
}

void JsonReader::append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0U | (cp >> 6U));
    out += static_cast<char>(0x80U | (cp & 0x3FU));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0U | (cp >> 12U));
    out += static_cast<char>(0x80U | ((cp >> 6U) & 0x3FU));
    out += static_cast<char>(0x80U | (cp & 0x3FU));
  } else {
    out += static_cast<char>(0xF0U | (cp >> 18U));
    out += static_cast<char>(0x80U | ((cp >> 12U) & 0x3FU));
    out += static_cast<char>(0x80U | ((cp >> 6U) & 0x3FU));
    out += static_cast<char>(0x80U | (cp & 0x3FU));
  }
}

// At the opening quote. Copies unescaped text to *out when out is not null.
void JsonReader::scan_string(std::string* out) {
  std::size_t open = pos_++;
  const std::size_t size = text_.size();
  for (;;) {
    // Plain printable ASCII in one run.
    std::size_t run = pos_;
    pos_ = ascii::plain_string_run_end(text_.data(), pos_, size);
    if (out != nullptr && pos_ > run) out->append(text_.data() + run, pos_ - run);
    if (pos_ >= size) fail(open, "string is not terminated");
    unsigned char b = byte(text_[pos_]);
    if (b == '"') {
      ++pos_;
      return;
    }
    if (b < 0x20) fail_here("control character " + describe(text_, pos_) + " in a string (escape it)");
    if (b == '\\') {
      std::size_t at = pos_++;
      char e = pos_ < size ? text_[pos_++] : '\0';
      char plain = 0;
      switch (e) {
        case '"': plain = '"'; break;
        case '\\': plain = '\\'; break;
        case '/': plain = '/'; break;
        case 'b': plain = '\b'; break;
        case 'f': plain = '\f'; break;
        case 'n': plain = '\n'; break;
        case 'r': plain = '\r'; break;
        case 't': plain = '\t'; break;
        case 'u': {
          std::uint32_t cp = scan_hex4();
          if (cp >= 0xDC00 && cp <= 0xDFFF) fail(at, "lone low surrogate in a \\u escape");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (text_.substr(pos_, 2) != "\\u") fail(at, "lone high surrogate in a \\u escape");
            pos_ += 2;
            std::uint32_t low = scan_hex4();
            if (low < 0xDC00 || low > 0xDFFF) {
              fail(at, "high surrogate not followed by a low surrogate in a \\u escape");
            }
            cp = 0x10000 + ((cp - 0xD800) << 10U) + (low - 0xDC00);
          }
          if (out != nullptr) append_utf8(*out, cp);
          continue;
        }
        default: fail(at, "invalid escape " + describe(text_, at + 1) + " in a string");
      }
      if (out != nullptr) *out += plain;
      continue;
    }
    // A multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates, up to U+10FFFF).
    std::size_t at = pos_;
    std::size_t length = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
      length = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
      length = 3;
      if (b == 0xE0) lo = 0xA0;
      if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
      length = 4;
      if (b == 0xF0) lo = 0x90;
      if (b == 0xF4) hi = 0x8F;
    } else {
      fail(at, "invalid UTF-8 (" + describe(text_, at) + ")");
    }
    if (at + length > size) fail(at, "truncated UTF-8 sequence");
    unsigned char second = byte(text_[at + 1]);
    if (second < lo || second > hi) fail(at, "invalid UTF-8 (" + describe(text_, at + 1) + ")");
    for (std::size_t k = 2; k < length; ++k) {
      unsigned char c = byte(text_[at + k]);
      if (c < 0x80 || c > 0xBF) fail(at, "invalid UTF-8 (" + describe(text_, at + k) + ")");
    }
    pos_ += length;
    if (out != nullptr) out->append(text_.data() + at, length);
  }
}

std::string_view JsonReader::skip_value() {
  const std::size_t base = open_.size();
  skip_space();
  const std::size_t start = pos_;
  for (;;) {
    // At a value.
    switch (peek()) {
      case Kind::kObject:
        ++pos_;
        enter('{');
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == '}') {
          ++pos_;
          leave();
          break;
        }
        if (pos_ >= text_.size() || text_[pos_] != '"') {
          fail_here("expected an object key (a string), found " + describe(text_, pos_));
        }
        scan_string(nullptr);
        expect(':', "':' after an object key");
        continue;
      case Kind::kArray:
        ++pos_;
        enter('[');
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == ']') {
          ++pos_;
          leave();
          break;
        }
        continue;
      case Kind::kString: scan_string(nullptr); break;
      case Kind::kNumber: scan_number(); break;
      case Kind::kBool: read_bool(); break;
      case Kind::kNull: read_null(); break;
    }
    // After a value: close containers until one has a next member or item.
    for (;;) {
      if (open_.size() == base) {
        first_ = false;
        return text_.substr(start, pos_ - start);
      }
      const char container = open_.back();
      const char closer = container == '{' ? '}' : ']';
      skip_space();
      char c = pos_ < text_.size() ? text_[pos_] : '\0';
      if (c == closer) {
        ++pos_;
        leave();
        continue;
      }
      if (c != ',') {
        fail_here(std::string("expected ',' or '") + closer + "', found " + describe(text_, pos_));
      }
      ++pos_;
      if (container == '{') {
        skip_space();
        if (pos_ >= text_.size() || text_[pos_] != '"') {
          fail_here("expected an object key (a string), found " + describe(text_, pos_));
        }
        scan_string(nullptr);
        expect(':', "':' after an object key");
      }
      break;
    }
  }
}

void JsonReader::expect_end() {
  skip_space();
  if (pos_ != text_.size()) fail_here("unexpected " + describe(text_, pos_) + " after the value");
}

void validate_json(std::string_view text, JsonReader::Options options) {
  JsonReader reader(text, options);
  reader.skip_value();
  reader.expect_end();
}

}  // namespace rpckit::codec
