#include "example_values.hpp"

#include <algorithm>
#include <string>

namespace mcp_client {
namespace {

constexpr int kMaxDepth = 16;  // a schema that refers to itself ends here

std::string type_of(const nlohmann::json& schema) {
  if (!schema.contains("type")) {
    if (schema.contains("properties")) return "object";
    if (schema.contains("items")) return "array";
    return "string";
  }
  const nlohmann::json& type = schema["type"];
  if (type.is_string()) return type.get<std::string>();
  if (type.is_array()) {
    // The first kind that is not null: a value says more than null does.
    for (const auto& t : type) {
      if (t.is_string() && t != "null") return t.get<std::string>();
    }
  }
  return "null";
}

nlohmann::json example_string(const nlohmann::json& schema) {
  const std::string format = schema.value("format", "");
  if (format == "email") return "someone@example.com";
  if (format == "uri" || format == "url") return "https://example.com/";
  if (format == "date") return "2026-01-01";
  if (format == "date-time") return "2026-01-01T00:00:00Z";
  std::string text = "x";
  if (schema.contains("minLength") && schema["minLength"].is_number_unsigned()) {
    text.assign(std::min<std::size_t>(schema["minLength"].get<std::size_t>(), 64) + 1, 'x');
  }
  return text;
}

nlohmann::json example_number(const nlohmann::json& schema, bool integer) {
  double value = 1;
  if (schema.contains("minimum") && schema["minimum"].is_number()) {
    value = schema["minimum"].get<double>();
  } else if (schema.contains("exclusiveMinimum") && schema["exclusiveMinimum"].is_number()) {
    value = schema["exclusiveMinimum"].get<double>() + 1;
  } else if (schema.contains("maximum") && schema["maximum"].is_number()) {
    value = std::min(1.0, schema["maximum"].get<double>());
  }
  if (integer) return static_cast<std::int64_t>(value);
  return value;
}

}  // namespace

nlohmann::json example_value(const nlohmann::json& schema, int depth) {
  if (!schema.is_object() || depth > kMaxDepth) return nullptr;
  if (schema.contains("const")) return schema["const"];
  if (schema.contains("enum") && schema["enum"].is_array() && !schema["enum"].empty()) {
    return schema["enum"].front();
  }
  if (schema.contains("default")) return schema["default"];
  for (const char* choice : {"anyOf", "oneOf"}) {
    if (schema.contains(choice) && schema[choice].is_array() && !schema[choice].empty()) {
      return example_value(schema[choice].front(), depth + 1);
    }
  }
  const std::string type = type_of(schema);
  if (type == "string") return example_string(schema);
  if (type == "integer") return example_number(schema, true);
  if (type == "number") return example_number(schema, false);
  if (type == "boolean") return true;
  if (type == "array") {
    nlohmann::json items = nlohmann::json::array();
    const bool needs_one = schema.value("minItems", 0) > 0;
    if (needs_one && schema.contains("items")) {
      items.push_back(example_value(schema["items"], depth + 1));
    }
    return items;
  }
  if (type == "object") {
    nlohmann::json object = nlohmann::json::object();
    const nlohmann::json properties = schema.value("properties", nlohmann::json::object());
    for (const auto& name : schema.value("required", nlohmann::json::array())) {
      if (!name.is_string()) continue;
      const std::string key = name.get<std::string>();
      object[key] = properties.contains(key) ? example_value(properties[key], depth + 1)
                                             : nlohmann::json("x");
    }
    return object;
  }
  return nullptr;
}

}  // namespace mcp_client
