#pragma once
// JsonReader: a pull reader over JSON text (RFC 8259) for input from a stranger.
//
// - Iterative: no recursion follows the input's nesting, and nesting deeper than max_depth
//   is an error before anything deeper is looked at.
// - Strict: valid UTF-8 only, escapes checked (a lone surrogate in \u escapes is an error),
//   no control characters in strings, RFC 8259 numbers only; a number beyond the range of a
//   double (1e400) is an error, as no C++ number can hold it. Values that are skipped are
//   validated just the same.
// - Errors say where: JsonError carries the byte offset ("at byte 57: expected ':' after an
//   object key").
// - Linear time and no allocation beyond the strings it is asked to unescape.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "rpckit/codec/ascii.hpp"

namespace rpckit::codec {

// The nesting limit both roles apply to every frame (an envelope object is depth 1). The
// protocols restate it in their schema as the max_json_depth constant.
inline constexpr std::size_t kMaxJsonDepth = 256;

class JsonError : public std::runtime_error {
 public:
  enum class Kind : std::uint8_t {
    kSyntax,     // not JSON (RFC 8259), invalid UTF-8 or escape included
    kTooDeep,    // valid so far, but nested deeper than the limit
    kOverflow,   // a number no double can hold
  };
  JsonError(Kind kind, std::size_t offset, const std::string& what);
  Kind kind() const noexcept { return kind_; }
  std::size_t offset() const noexcept { return offset_; }

 private:
  Kind kind_;
  std::size_t offset_;
};

class JsonReader {
 public:
  enum class Kind : std::uint8_t { kObject, kArray, kString, kNumber, kBool, kNull };
  struct Options {
    std::size_t max_depth = kMaxJsonDepth;
    bool reject_overflow = true;  // numbers beyond a double are errors
  };

  explicit JsonReader(std::string_view text) : JsonReader(text, Options{}) {}
  JsonReader(std::string_view text, Options options);

  // The kind of the next value (whitespace skipped); throws on a byte that starts none.
  Kind peek() {
    if (pos_ < text_.size()) {
      switch (text_[pos_]) {
        case '"':
          return Kind::kString;
        case '{':
          return Kind::kObject;
        case '[':
          return Kind::kArray;
        case 't':
        case 'f':
          return Kind::kBool;
        case 'n':
          return Kind::kNull;
        case '-':
        case '0':
        case '1':
        case '2':
        case '3':
        case '4':
        case '5':
        case '6':
        case '7':
        case '8':
        case '9':
          return Kind::kNumber;
        default:
          break;  // white space first, or an error
      }
    }
    return peek_slow();
  }
  std::size_t offset() const { return pos_; }
  std::size_t depth() const { return open_.size(); }

  // Objects: begin_object() takes '{'; each next_member() takes `"key":` (and the ',' before
  // it) and returns true, or takes the closing '}' and returns false.
  void begin_object();
  bool next_member(std::string& key);
  // The same, the key as a view: of the text when it has no escape, else of a buffer of the
  // reader's, unescaped (valid until the next call). No copy for the usual key.
  bool next_member(std::string_view& key) {
    // Inline, the usual case of compact text: ',' (but before the first member), then a key
    // of plain ASCII and its ':'. Anything else takes the full path from the same place.
    const char* data = text_.data();
    const std::size_t size = text_.size();
    std::size_t p = pos_;
    if (!first_) {
      if (p >= size || data[p] != ',') return next_member_slow(key);
      ++p;
    }
    if (p < size && data[p] == '"') {
      const std::size_t end = ascii::plain_string_run_end(data, p + 1, size);
      if (end + 1 < size && data[end] == '"' && data[end + 1] == ':') {
        key = std::string_view(data + p + 1, end - p - 1);
        pos_ = end + 2;
        first_ = false;
        return true;
      }
    }
    return next_member_slow(key);
  }
  // At the next member, when its key and colon are written exactly as `quoted` ("\"name\":",
  // no white space, no escape): takes them (and the ',' before) and returns true. Otherwise
  // moves nothing and returns false, and next_member() reads whatever is there. A decoder
  // that expects a key asks for it first: no scan of the key, no lookup of its member.
  [[gnu::always_inline]] bool next_member_is(std::string_view quoted) {  // a constant size
    std::size_t p = pos_;
    if (!first_) {
      if (p >= text_.size() || text_[p] != ',') return false;
      ++p;
    }
    if (text_.size() - p < quoted.size()) return false;
    // A loop, not memcmp: g++ -O1 (the TSan build) misreads the constant key's bound
    // (-Wstringop-overread); the size is a constant here, so it unrolls all the same.
    for (std::size_t i = 0; i < quoted.size(); ++i) {
      if (text_[p + i] != quoted[i]) return false;
    }
    pos_ = p + quoted.size();
    first_ = false;
    return true;
  }
  // Arrays: begin_array() takes '['; next_item() is true before each item, false at ']'.
  void begin_array();
  bool next_item();

  // Scalars. read_string() unescapes into `out`; read_number() returns the number's text.
  void read_string(std::string& out) {
    // Inline, a string of plain ASCII right here: one assign.
    const char* data = text_.data();
    const std::size_t size = text_.size();
    if (pos_ < size && data[pos_] == '"') {
      const std::size_t end = ascii::plain_string_run_end(data, pos_ + 1, size);
      if (end < size && data[end] == '"') {
        out.assign(data + pos_ + 1, end - pos_ - 1);
        pos_ = end + 1;
        return;
      }
    }
    read_string_slow(out);
  }
  std::string_view read_number();
  bool read_bool();
  void read_null();

  // Validates and skips one whole value of any kind; returns its text.
  std::string_view skip_value();
  // Only white space may follow.
  void expect_end();

 private:
  // The full paths behind the inline ones: white space, escapes, errors.
  Kind peek_slow();
  bool next_member_slow(std::string_view& key);
  void read_string_slow(std::string& out);

  [[noreturn]] void fail(std::size_t at, const std::string& message) const;
  [[noreturn]] void fail_here(const std::string& message) const { fail(pos_, message); }
  void skip_space();
  // Before a member: takes ',' (or sees the first member), true at its key's opening quote;
  // false after taking '}'.
  bool at_member_key();
  void expect(char c, const char* what);
  void enter(char container);
  void leave() { open_.pop_back(); }
  // After a member or item: takes ',' (true) or the closer (false).
  bool more(char closer, const char* what);
  void scan_string(std::string* out);  // out == nullptr: validate only
  void scan_literal(std::string_view word);
  std::string_view scan_number();
  std::uint32_t scan_hex4();
  void append_utf8(std::string& out, std::uint32_t cp);

  std::string_view text_;
  Options options_;
  std::size_t pos_ = 0;
  std::string open_;  // '{' or '[' per open container, innermost last
  std::string key_buffer_;  // an escaped key, unescaped (next_member(std::string_view&))
  // Whether the innermost container has had no member or item yet.
  bool first_ = false;
};

// Validates a whole text as one JSON value within the limits (throws JsonError).
void validate_json(std::string_view text, JsonReader::Options options = {});

}  // namespace rpckit::codec
