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
  Kind peek();
  std::size_t offset() const { return pos_; }
  std::size_t depth() const { return open_.size(); }

  // Objects: begin_object() takes '{'; each next_member() takes `"key":` (and the ',' before
  // it) and returns true, or takes the closing '}' and returns false.
  void begin_object();
  bool next_member(std::string& key);
  // The same, the key as a view: of the text when it has no escape, else of a buffer of the
  // reader's, unescaped (valid until the next call). No copy for the usual key.
  bool next_member(std::string_view& key);
  // Arrays: begin_array() takes '['; next_item() is true before each item, false at ']'.
  void begin_array();
  bool next_item();

  // Scalars. read_string() unescapes into `out`; read_number() returns the number's text.
  void read_string(std::string& out);
  std::string_view read_number();
  bool read_bool();
  void read_null();

  // Validates and skips one whole value of any kind; returns its text.
  std::string_view skip_value();
  // Only white space may follow.
  void expect_end();

 private:
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
