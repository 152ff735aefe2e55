#pragma once
// JsonValue: any JSON value, held behind a pointer so that public headers only need
// nlohmann/json_fwd.hpp. Include <nlohmann/json.hpp> to use get().
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace rpckit {

class JsonValue {
 public:
  JsonValue();  // null
  JsonValue(const nlohmann::json& value);  // NOLINT: implicit, a JsonValue is a json
  JsonValue(nlohmann::json&& value);       // NOLINT
  JsonValue(const JsonValue& other);
  JsonValue(JsonValue&& other) noexcept;
  JsonValue& operator=(const JsonValue& other);
  JsonValue& operator=(JsonValue&& other) noexcept;
  ~JsonValue();

  const nlohmann::json& get() const noexcept;
  nlohmann::json& get();

  bool is_null() const noexcept;
  // Compact serialisation, for logs and tests.
  std::string dump() const;
  static JsonValue parse(std::string_view text);  // throws nlohmann::json::parse_error

  friend bool operator==(const JsonValue& a, const JsonValue& b) noexcept;
  // Exact, so that comparing with a json is not ambiguous (each converts to the other).
  friend bool operator==(const JsonValue& a, const nlohmann::json& b) noexcept;

 private:
  std::unique_ptr<nlohmann::json> value_;  // nullptr means JSON null (cheap moves)
};

void to_json(nlohmann::json& j, const JsonValue& v);
// No from_json: with one, nlohmann's templated conversion operator competes with the
// converting constructor and `JsonValue v = j;` becomes ambiguous (-Wconversion). Decoding
// goes through the constructor or rpckit::codec::decode.

}  // namespace rpckit
