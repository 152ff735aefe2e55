#pragma once
// Reading schema nodes for lowering: typed access to annotation values (failing with a
// SchemaError that names the node) and what C++ shape a node takes.
#include <string>
#include <string_view>
#include <vector>

#include "model.hpp"

namespace rpckit::gen {

std::string text(const Node& n, std::string_view key);           // a required string
std::string optional_text(const Node& n, std::string_view key);  // "" when absent
std::vector<std::string> string_list(const Node& n, std::string_view key);

bool is_null_schema(const Json& j);
// The non-null member of a two-member oneOf/anyOf with one {"type": "null"}, or -1.
int nullable_member(const Node& n);
// "oneOf", "anyOf" or nullptr. An anyOf of required lists is a rule on an object, not a union
// (rpckit/model/required_alternatives.hpp).
const char* union_keyword(const Node& n);

// What a schema node becomes in C++.
enum class Shape { kAny, kPrimitive, kArray, kMap, kStruct, kEnum, kUnion, kNullableWrapper };

// The node's one "type" ("" when absent); [T, "null"] is T with *nullable set.
std::string single_type(const Node& n, bool* nullable);
// `declared_position`: a named declaration, where a bare object is a struct (in a use it is
// free-form JSON).
Shape shape_of(const Node& n, bool declared_position);

}  // namespace rpckit::gen
