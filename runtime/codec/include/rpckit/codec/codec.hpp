#pragma once
// Building blocks of generated codecs (included by generated .cpp files, not by their public
// headers). decode() overloads check the JSON kind and track the path; check_*() enforce the
// schema's constraints with messages that say what was expected.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "rpckit/codec/decode_error.hpp"
#include "rpckit/codec/pattern.hpp"
#include "rpckit/codec/value_codec.hpp"
#include "rpckit/values/json_value.hpp"
#include "rpckit/values/nullable.hpp"
#include "rpckit/values/nullable_json.hpp"

namespace rpckit::codec {

// ---- JSON kinds -------------------------------------------------------------------------

// "string", "object", ... as JSON Schema names them, for error messages.
std::string_view kind_name(const nlohmann::json& j);
// A value's JSON text for an error message, cut at `max_chars` ("...": a peer's value may be
// megabytes long).
std::string snippet(const nlohmann::json& j, std::size_t max_chars = 64);
[[noreturn]] void fail_kind(const nlohmann::json& j, std::string_view expected,
                            const DecodePath& path);

inline const nlohmann::json& expect_object(const nlohmann::json& j, const DecodePath& path) {
  if (!j.is_object()) fail_kind(j, "object", path);
  return j;
}

// ---- primitives -------------------------------------------------------------------------

// std::string, bool, double, JsonValue and null: rpckit/codec/value_codec.hpp.

// Any JSON integer (or a float with an integral value, as JSON Schema's "integer" allows)
// that fits the C++ type.
std::int64_t decode_int64(const nlohmann::json& j, std::int64_t min, std::int64_t max,
                          DecodePath& path);
template <class Int>
  requires std::is_integral_v<Int> && (!std::is_same_v<Int, bool>) && (sizeof(Int) <= 4 || std::is_signed_v<Int>)
void decode(const nlohmann::json& j, Int& out, DecodePath& path) {
  out = static_cast<Int>(decode_int64(j, static_cast<std::int64_t>(std::numeric_limits<Int>::min()),
                                      static_cast<std::int64_t>(std::numeric_limits<Int>::max()),
                                      path));
}

// ---- containers -------------------------------------------------------------------------

// Declared before any definition so that each finds the others whatever the nesting
// (std::vector<rpckit::Nullable<T>>, std::map<std::string, std::vector<T>>, ...).
template <class T>
void decode(const nlohmann::json& j, std::vector<T>& out, DecodePath& path);
template <class T>
void decode(const nlohmann::json& j, std::map<std::string, T>& out, DecodePath& path);
template <class T>
void decode(const nlohmann::json& j, Nullable<T>& out, DecodePath& path);

template <class T>
void decode(const nlohmann::json& j, std::vector<T>& out, DecodePath& path) {
  if (!j.is_array()) fail_kind(j, "array", path);
  out.clear();
  out.resize(j.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    DecodePath::Index scope(path, i);
    contained(path, [&] { decode(j[i], out[i], path); });
  }
}

template <class T>
void decode(const nlohmann::json& j, std::map<std::string, T>& out, DecodePath& path) {
  if (!j.is_object()) fail_kind(j, "object", path);
  out.clear();
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();  // not a structured binding: lambdas capture it
    DecodePath::Key scope(path, key);
    contained(path, [&] { decode(*it, out[key], path); });
  }
}

template <class T>
void decode(const nlohmann::json& j, Nullable<T>& out, DecodePath& path) {
  if (j.is_null()) {
    out.reset();
    return;
  }
  T value{};
  decode(j, value, path);
  out = std::move(value);
}

template <class T>
void encode_into(nlohmann::json& j, const std::vector<T>& values) {
  j = nlohmann::json::array();
  for (const T& value : values) encode_into(j.emplace_back(), value);
}

template <class T>
void encode_into(nlohmann::json& j, const std::map<std::string, T>& members) {
  j = nlohmann::json::object();
  for (const auto& [key, value] : members) encode_into(j[key], value);
}

// ---- object members ---------------------------------------------------------------------

// Missing members are reported at the member's own path: "params.channel.login: missing
// required field". Returns whether the member decoded (always, unless the path collects:
// then its constraints are checked only when it did).
template <class T>
bool decode_required(const nlohmann::json& object, std::string_view key, T& out,
                     DecodePath& path) {
  DecodePath::Key scope(path, key);
  return contained(path, [&] {
    auto it = object.find(key);
    if (it == object.end()) fail(path, "missing required field");
    decode(*it, out, path);
  });
}

// Absent, or a member that failed while collecting, leaves `out` empty.
template <class T>
void decode_optional(const nlohmann::json& object, std::string_view key, std::optional<T>& out,
                     DecodePath& path) {
  out.reset();
  auto it = object.find(key);
  if (it == object.end()) return;
  DecodePath::Key scope(path, key);
  T value{};
  if (contained(path, [&] { decode(*it, value, path); })) out = std::move(value);
}

// A member whose value is fixed by the schema ("const"); absent is an error unless optional.
void decode_const(const nlohmann::json& object, std::string_view key,
                  const nlohmann::json& expected, bool required, DecodePath& path);
// The same, `expected` given as JSON text.
void decode_const_text(const nlohmann::json& object, std::string_view key,
                       std::string_view expected_json, bool required, DecodePath& path);
// The same for a string const without escapes (`expected` its text, `expected_json` quoted):
// compared as text, the JSON parsed only to report a mismatch.
void decode_const_string(const nlohmann::json& object, std::string_view key,
                         std::string_view expected, std::string_view expected_json, bool required,
                         DecodePath& path);

// The string tag of a tagged union ("missing required field" / "expected string" at its path).
const std::string& discriminator(const nlohmann::json& object, std::string_view key,
                                 DecodePath& path);

// Whether `j` has the JSON kind an untagged union member is chosen by: "boolean", "integer",
// "number", "string", "object", "null", or "array:<kind>" (an empty array matches any).
bool matches(const nlohmann::json& j, std::string_view kind);

// Writes an optional member only when present.
template <class T>
void encode_optional(nlohmann::json& object, const char* key, const std::optional<T>& v) {
  if (v.has_value()) object[key] = *v;
}

// ---- constraints ------------------------------------------------------------------------

// Length in Unicode code points, as JSON Schema counts it.
std::size_t code_points(std::string_view utf8);
void check_length(std::string_view s, std::optional<std::size_t> min,
                  std::optional<std::size_t> max, const DecodePath& path);
// `message`: the schema's x-error-messages text, said instead of "expected a string matching
// <regex>" (a reader of a manifest error should not have to read a regex).
void check_pattern(std::string_view s, const Pattern& pattern, const DecodePath& path,
                   std::string_view message = {});
void check_not_pattern(std::string_view s, const Pattern& pattern, const DecodePath& path,
                       std::string_view message = {});
void check_range(double v, std::optional<double> min, std::optional<double> max,
                 const DecodePath& path);
void check_items(std::size_t size, std::optional<std::size_t> min,
                 std::optional<std::size_t> max, const DecodePath& path);
void check_date_time(std::string_view s, const DecodePath& path);
// A free-form object ({"type": "object"} without properties, kept as a JsonValue): the value
// must still be an object.
void check_object(const nlohmann::json& j, const DecodePath& path);

struct Duplicate {
  std::size_t earlier, later;
};
// Every item that equals an earlier one, by index, each with the earliest item it equals.
std::vector<Duplicate> duplicates(const std::vector<nlohmann::json>& items);

// uniqueItems: reports an item that repeats an earlier one at its own index, naming the
// earliest item it repeats: the first such item, or every one when collecting. O(n log n):
// the items are compared as JSON values (1 and 1.0 are the same item, as JSON Schema says),
// sorted, and neighbours checked.
template <class T>
void check_unique(const std::vector<T>& items, DecodePath& path) {
  if (items.size() < 2) return;
  std::vector<nlohmann::json> encoded;
  encoded.reserve(items.size());
  for (const T& item : items) encoded.emplace_back(item);
  for (const Duplicate& duplicate : duplicates(encoded)) {
    DecodePath::Index scope(path, duplicate.later);
    reject(path, "expected unique items (same as [" + std::to_string(duplicate.earlier) + "])");
  }
}

// Strict enums (DecodePath::strict_enums): an integer enum's value that is not `known` is
// rejected, naming the listed ones: "expected one of -32700, -32600, got 5" (`entries` holding
// `.value`). String enums: check_listed (value_codec.hpp).
template <class Entries>
void check_listed_code(bool known, std::int32_t got, const Entries& entries,
                       const DecodePath& path) {
  if (known || !path.strict_enums()) return;
  std::string listed;
  for (const auto& entry : entries) {
    listed += (listed.empty() ? "" : ", ") + std::to_string(static_cast<std::int32_t>(entry.value));
  }
  reject(path, "expected one of " + listed + ", got " + std::to_string(got));
}

// RFC 3339 date-time ("2026-11-20T23:36:52Z", "...+01:00", fractional seconds allowed).
bool is_rfc3339_date_time(std::string_view s);

}  // namespace rpckit::codec
