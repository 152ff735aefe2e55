#include "lower/schema_node.hpp"

namespace rpckit::gen {

std::string text(const Node& n, std::string_view key) {
  Node c = n.child(key);
  if (!c.json->is_string()) c.reject("expected a string");
  return c.json->get<std::string>();
}

std::string optional_text(const Node& n, std::string_view key) {
  return n.has(key) ? text(n, key) : std::string();
}

std::vector<std::string> string_list(const Node& n, std::string_view key) {
  std::vector<std::string> out;
  if (!n.has(key)) return out;
  Node c = n.child(key);
  if (!c.json->is_array()) c.reject("expected an array of strings");
  for (std::size_t i = 0; i < c.json->size(); ++i) {
    Node v = c.item(i);
    if (!v.json->is_string()) v.reject("expected a string");
    out.push_back(v.json->get<std::string>());
  }
  return out;
}

bool is_null_schema(const Json& j) {
  return j.is_object() && j.size() == 1 && j.contains("type") && j["type"] == "null";
}

int nullable_member(const Node& n) {
  for (const char* key : {"oneOf", "anyOf"}) {
    if (!n.has(key)) continue;
    const Json& members = (*n.json)[key];
    if (members.size() != 2) return -1;
    if (is_null_schema(members[1])) return 0;
    if (is_null_schema(members[0])) return 1;
  }
  return -1;
}

const char* union_keyword(const Node& n) {
  if (n.has("oneOf")) return "oneOf";
  if (n.has("anyOf") && !required_alternatives(*n.json)) return "anyOf";
  return nullptr;
}

std::string single_type(const Node& n, bool* nullable) {
  if (!n.has("type")) return "";
  const Json& t = (*n.json)["type"];
  if (t.is_string()) return t.get<std::string>();
  if (t.is_array() && t.size() == 2 && t[0].is_string() && t[1].is_string()) {
    if (t[1] == "null") {
      if (nullable) *nullable = true;
      return t[0].get<std::string>();
    }
    if (t[0] == "null") {
      if (nullable) *nullable = true;
      return t[1].get<std::string>();
    }
  }
  n.child("type").reject("a list of types is only supported as [<type>, \"null\"]");
}

Shape shape_of(const Node& n, bool declared_position) {
  if (n.json->is_boolean()) return Shape::kAny;
  if (nullable_member(n) >= 0) return Shape::kNullableWrapper;
  if (union_keyword(n) != nullptr) return Shape::kUnion;
  if (n.has("enum")) return Shape::kEnum;
  std::string type = single_type(n, nullptr);
  if (type == "object" || (type.empty() && n.has("properties"))) {
    if (n.has("properties")) return Shape::kStruct;
    if (n.has("additionalProperties") && (*n.json)["additionalProperties"].is_object()) {
      return Shape::kMap;
    }
    return declared_position ? Shape::kStruct : Shape::kAny;
  }
  if (type == "array") return Shape::kArray;
  if (type.empty()) return Shape::kAny;
  return Shape::kPrimitive;
}

}  // namespace rpckit::gen
