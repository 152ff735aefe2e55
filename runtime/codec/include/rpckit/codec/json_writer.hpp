#pragma once
// Direct encoding: a value's JSON text appended to a string, with no DOM in between.
// Generated write_json() overloads (one per type, declared next to to_json) build on these.
// The bytes are exactly nlohmann's dump() of what to_json builds, with invalid UTF-8
// replaced (error_handler_t::replace, as the endpoint sends): members in key order, no
// whitespace, numbers as nlohmann prints them. tests/bindings/direct_codec_test.cpp holds
// every generated type to that, fixture by fixture and on random values.
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rpckit/values/json_value.hpp"
#include "rpckit/values/nullable.hpp"

namespace rpckit::codec {

// ---- primitives (json_writer.cpp) -------------------------------------------------------

void write_json(std::string& out, std::string_view s);  // a JSON string, escaped
void write_json(std::string& out, bool b);
void write_json(std::string& out, double d);  // nlohmann's shortest round trip; non-finite: null
void write_json(std::string& out, std::nullptr_t);
void write_json(std::string& out, const JsonValue& v);  // free-form JSON: dumped
void write_json(std::string& out, const char*) = delete;  // would otherwise become a bool

inline void write_json(std::string& out, const std::string& s) {
  write_json(out, std::string_view(s));
}

template <class Int>
  requires std::integral<Int> && (!std::same_as<Int, bool>) && (!std::same_as<Int, char>)
void write_json(std::string& out, Int v) {
  char buffer[24];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
  out.append(buffer, end);
}

// ---- containers -------------------------------------------------------------------------

// Declared before any definition so that each finds the others whatever the nesting.
template <class T>
void write_json(std::string& out, const std::vector<T>& items);
template <class T>
void write_json(std::string& out, const std::map<std::string, T>& members);
template <class T>
void write_json(std::string& out, const Nullable<T>& v);

template <class T>
void write_json(std::string& out, const std::vector<T>& items) {
  out += '[';
  bool first = true;
  for (const T& item : items) {
    if (!first) out += ',';
    first = false;
    write_json(out, item);
  }
  out += ']';
}

template <class T>
void write_json(std::string& out, const std::map<std::string, T>& members) {
  out += '{';
  bool first = true;
  for (const auto& [key, value] : members) {  // std::map's order is nlohmann's key order
    if (!first) out += ',';
    first = false;
    write_json(out, std::string_view(key));
    out += ':';
    write_json(out, value);
  }
  out += '}';
}

template <class T>
void write_json(std::string& out, const Nullable<T>& v) {
  if (v.has_value()) {
    write_json(out, *v);
  } else {
    out += "null";
  }
}

// ---- objects ----------------------------------------------------------------------------

// The members of one generated struct, in key order. `key` is the member's key already in
// JSON text with its colon ("\"login\":"), made by the generator.
class ObjectWriter {
 public:
  explicit ObjectWriter(std::string& out) : out_(out) { out_ += '{'; }
  ~ObjectWriter() { out_ += '}'; }
  ObjectWriter(const ObjectWriter&) = delete;
  ObjectWriter& operator=(const ObjectWriter&) = delete;

  template <class T>
  void member(std::string_view key, const T& value) {
    open(key);
    write_json(out_, value);
  }
  template <class T>
  void member(std::string_view key, const std::optional<T>& value) {
    if (!value) return;  // an absent member is not written
    open(key);
    write_json(out_, *value);
  }
  // A member whose value the schema fixes (`const`), as JSON text.
  void constant(std::string_view key, std::string_view json) {
    open(key);
    out_ += json;
  }
  // The start of a member whose value the caller writes next: `key` as above, or a key that
  // JSON must escape, given as it is.
  void open(std::string_view key) {
    if (!first_) out_ += ',';
    first_ = false;
    out_ += key;
  }
  // The same from ",\"key\":": one append, the comma left out before the first member.
  void open_with_comma(std::string_view comma_key) {
    out_.append(comma_key.data() + (first_ ? 1 : 0), comma_key.size() - (first_ ? 1 : 0));
    first_ = false;
  }
  void open_escaped(std::string_view key) {
    if (!first_) out_ += ',';
    first_ = false;
    write_json(out_, key);
    out_ += ':';
  }

 private:
  std::string& out_;
  bool first_ = true;
};

// ---- any codec type ---------------------------------------------------------------------

// The JSON text of any value the codec knows (generated types by ADL, the primitives above).
// Room for a typical message is taken up front: growing a fresh string from nothing to a
// 60-byte event reallocated it three times, half the cost of writing one.
inline constexpr std::size_t kTextInitialCapacity = 256;
template <class T>
std::string to_json_text(const T& value) {
  std::string out;
  out.reserve(kTextInitialCapacity);
  write_json(out, value);
  return out;
}

}  // namespace rpckit::codec
