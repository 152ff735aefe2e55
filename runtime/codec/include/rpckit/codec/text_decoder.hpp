#pragma once
// Streaming decoding: JSON text straight into a generated struct, with no DOM in between.
// Generated read_json() overloads (one per type, declared next to decode) walk a JsonReader
// member by member: known members are decoded in place, unknown ones skipped whole (and
// still validated), absent/null/value kept apart as the DOM decoder keeps them, and the
// schema's constraints checked by the same code.
//
// read_json() is the fast path for a value that decodes: it returns false (or throws) at the
// first thing that does not fit. decode_text() then decodes the same text through the DOM
// decoder, so a failure reports exactly what it always has ("params.message.bits: expected
// integer in [0, 4294967295], got -1"), at the cost of a second parse on that path only.
// tests/bindings/direct_codec_test.cpp holds both paths to the same struct or the same error.
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <vector>

#include "rpckit/codec/decode_error.hpp"
#include "rpckit/codec/json_reader.hpp"
#include "rpckit/codec/value_codec.hpp"
#include "rpckit/values/json_value.hpp"
#include "rpckit/values/nullable.hpp"

namespace rpckit::codec {

using JsonKind = JsonReader::Kind;

// ---- primitives (text_decoder.cpp) ------------------------------------------------------

bool read_json(JsonReader& in, std::string& out);
bool read_json(JsonReader& in, bool& out);
bool read_json(JsonReader& in, double& out);  // as nlohmann reads it: integers exactly first
bool read_json(JsonReader& in, std::nullptr_t& out);
bool read_json(JsonReader& in, JsonValue& out);  // free-form JSON: parsed from its own text

// An integer written as one (no fraction, no exponent) within [min, max]; anything else is
// left to the DOM decoder (which also takes 5.0, and names the range in its error).
bool read_int64(JsonReader& in, std::int64_t min, std::int64_t max, std::int64_t& out);

template <class Int>
  requires std::integral<Int> && (!std::same_as<Int, bool>)
bool read_json(JsonReader& in, Int& out) {
  static_assert(sizeof(Int) <= 4 || std::is_signed_v<Int>, "as the DOM decoder: 64-bit unsigned is not a codec type");
  std::int64_t v = 0;
  if (!read_int64(in, static_cast<std::int64_t>(std::numeric_limits<Int>::min()),
                  static_cast<std::int64_t>(std::numeric_limits<Int>::max()), v)) {
    return false;
  }
  out = static_cast<Int>(v);
  return true;
}

// A member fixed by the schema: a string const compared as text, any other const as JSON
// (parsed from the member's own text, as the DOM decoder compares it).
bool read_const_string(JsonReader& in, std::string_view expected);
bool read_const_json(JsonReader& in, std::string_view expected_json);

// The string value of member `key` of the object `in` is at, read ahead without moving `in`
// (a tagged union's discriminator may come after the members it selects).
std::optional<std::string> peek_member_string(const JsonReader& in, std::string_view key);

// ---- containers -------------------------------------------------------------------------

template <class T>
bool read_json(JsonReader& in, std::vector<T>& out);
template <class T>
bool read_json(JsonReader& in, std::map<std::string, T>& out);
template <class T>
bool read_json(JsonReader& in, Nullable<T>& out);

template <class T>
bool read_json(JsonReader& in, std::vector<T>& out) {
  if (in.peek() != JsonKind::kArray) return false;
  in.begin_array();
  out.clear();
  while (in.next_item()) {
    out.emplace_back();
    if (!read_json(in, out.back())) return false;
  }
  return true;
}

template <class T>
bool read_json(JsonReader& in, std::map<std::string, T>& out) {
  if (in.peek() != JsonKind::kObject) return false;
  in.begin_object();
  out.clear();
  std::string_view key;
  while (in.next_member(key)) {
    std::string name(key);  // the view lasts until the next read
    T value{};  // a repeated key: the last one wins, as in the DOM
    if (!read_json(in, value)) return false;
    out.insert_or_assign(std::move(name), std::move(value));
  }
  return true;
}

template <class T>
bool read_json(JsonReader& in, Nullable<T>& out) {
  if (in.peek() == JsonKind::kNull) {
    in.read_null();
    out.reset();
    return true;
  }
  return read_json(in, out.emplace());  // a fresh value, read where it stays
}

// ---- object members ---------------------------------------------------------------------

// Whether read_json() sets the whole of a T, whatever it held: a scalar, or a string, array
// or map (cleared first).
template <class T>
inline constexpr bool kReadReplacesWhole =
    std::is_arithmetic_v<T> || std::is_same_v<T, std::string>;
template <class T>
inline constexpr bool kReadReplacesWhole<std::vector<T>> = true;
template <class T>
inline constexpr bool kReadReplacesWhole<std::map<std::string, T>> = true;

// One member of a generated struct, decoded where it stays (no temporary moved in: a string
// member is read straight into its field). A repeated key replaces the earlier value whole,
// as in the DOM; a value that fails is left for the slow path, which starts afresh.
template <class T>
bool read_member(JsonReader& in, T& out) {
  if constexpr (!kReadReplacesWhole<T>) out = T{};
  return read_json(in, out);
}
template <class T>
bool read_member(JsonReader& in, std::optional<T>& out) {
  return read_json(in, out.emplace());
}

// Whether `text` is the JSON null, white space around it allowed.
bool is_null_text(std::string_view text);

// ---- any codec type ---------------------------------------------------------------------

// Decodes `text` (one JSON value) into `out`, naming paths from `root`. Throws DecodeError as
// decode_from() on the parsed DOM would, word for word; text that is not JSON within the
// reader's limits is a DecodeError at `root` that says where and why.
template <class T>
void decode_text(std::string_view text, T& out, std::string_view root);

namespace detail {
// The slow path's parse: `text` validated within the reader's limits (so that the DOM parse
// cannot recurse past them), then parsed; text that is not JSON is a DecodeError at `root`.
JsonValue parse_for_decode(std::string_view text, std::string_view root);
}  // namespace detail

template <class T>
void decode_text(std::string_view text, T& out, std::string_view root) {
  try {
    JsonReader in(text);
    if (read_json(in, out)) {
      in.expect_end();
      return;
    }
  } catch (const JsonError&) {    // the slow path reports it
  } catch (const DecodeError&) {  // a constraint: the slow path reports it at its path
  }
  out = T{};
  JsonValue dom = detail::parse_for_decode(text, root);
  decode_from(dom.get(), out, root);
}

}  // namespace rpckit::codec
