#pragma once
// Encoding and decoding any value the codec knows (generated types, primitives, JsonValue)
// from a header that sees only nlohmann/json_fwd.hpp. The typed layers above the codec
// (router, typed calls, roles) are templates over generated messages, and this is all they
// need, so their public headers stay light: generated to_json/decode are declared out of
// line next to each type (found by ADL), the primitives' here.
#include <cstddef>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rpckit/codec/decode_error.hpp"
#include "rpckit/values/json_value.hpp"

namespace rpckit::codec {

// ---- primitives (defined in primitives.cpp) ---------------------------------------------

void decode(const nlohmann::json& j, std::string& out, DecodePath& path);
void decode(const nlohmann::json& j, bool& out, DecodePath& path);
void decode(const nlohmann::json& j, double& out, DecodePath& path);
void decode(const nlohmann::json& j, JsonValue& out, DecodePath& path);
void decode(const nlohmann::json& j, std::nullptr_t& out, DecodePath& path);

void encode_into(nlohmann::json& j, std::nullptr_t value);
void encode_into(nlohmann::json& j, std::string_view text);  // a JSON string

// Strict enums (DecodePath::strict_enums): a string enum's value that is not `known` is
// rejected, naming the listed ones: "expected one of \"A\", \"B\", got \"D\"".
void reject_unlisted(std::string_view got, std::span<const std::string_view> listed,
                     const DecodePath& path);
inline void check_listed(bool known, std::string_view got,
                         std::span<const std::string_view> listed, const DecodePath& path) {
  if (!known && path.strict_enums()) reject_unlisted(got, listed, path);
}

bool is_null(const nlohmann::json& j) noexcept;

// ---- containers as whole values ---------------------------------------------------------
// A message whose params or result is itself a map or an array (MCP's tasks/result: an
// object of any members). Defined in codec.hpp, which every generated types header includes;
// declared here so that the templates below find them.

template <class T>
void decode(const nlohmann::json& j, std::vector<T>& out, DecodePath& path);
template <class T>
void decode(const nlohmann::json& j, std::map<std::string, T>& out, DecodePath& path);
template <class T>
void encode_into(nlohmann::json& j, const std::vector<T>& values);
template <class T>
void encode_into(nlohmann::json& j, const std::map<std::string, T>& members);

// ---- any codec type ---------------------------------------------------------------------

template <class T>
void encode_into(nlohmann::json& j, const T& value) {
  if constexpr (requires { to_json(j, value); }) {
    to_json(j, value);  // generated, or rpckit::to_json for JsonValue: found by ADL
  } else {
    j = value;  // a string, number or boolean (an error's data may be one)
  }
}

template <class T>
JsonValue encode(const T& value) {
  JsonValue out;
  encode_into(out.get(), value);
  return out;
}

// Decodes `j` into `out`, naming paths from `root` ("params.channel.login"). Throws
// DecodeError at the first problem.
template <class T>
void decode_from(const nlohmann::json& j, T& out, std::string_view root) {
  DecodePath path(root);
  decode(j, out, path);  // generated types by ADL, primitives above
}

// `j` as a T, or nullopt when it is not one: for values whose shape is a hint, not a contract
// (an error's data, read by its code).
template <class T>
std::optional<T> decode_or_none(const nlohmann::json& j, std::string_view root) {
  try {
    T out{};
    decode_from(j, out, root);
    return out;
  } catch (const DecodeError&) {
    return std::nullopt;
  }
}

}  // namespace rpckit::codec
