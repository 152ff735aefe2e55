#pragma once
// The pieces of the payload comparison (PayloadDiff, diff.hpp) its files share: where the walk
// is (Ctx), a schema node read for comparison (Shape) and the small readers of both. Internal
// to rpckit_compat: payload_shape.cpp (these and PayloadDiff::shape_of), payload_diff.cpp (the
// walk, constraints, defaults, unreached types, reporting), payload_types.cpp (the rules per
// kind of type: enums, objects, unions).
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tool/compat/diff.hpp"

namespace rpckit::compat {

struct PayloadDiff::Ctx {
  const Flow* flow = nullptr;
  std::string anchor;       // the message or type the path starts at
  std::string anchor_file;  // the file of that type: a $ref out of it starts a new anchor
  bool anchor_is_message = false;
  std::string path;    // JSON path inside the anchor: ".channels[].login"
  bool grant = false;  // inside the handshake's grant member: enums there name capabilities
  std::set<std::pair<const Json*, const Json*>>* seen = nullptr;

  std::string where() const { return anchor + path; }
  std::string old_sender() const { return "an old " + flow->sender; }
  std::string new_sender() const { return "a new " + flow->sender; }
  std::string old_receiver() const { return "an old " + flow->receiver; }
  std::string new_receiver() const { return "a new " + flow->receiver; }
};

struct PayloadDiff::Shape {
  enum class Kind { kAny, kScalar, kEnum, kConst, kObject, kMap, kArray, kUnion };
  Node node;
  Kind kind = Kind::kAny;
  bool nullable = false;
  std::vector<std::string> types;  // kScalar: the JSON types, "null" apart
  std::string name;                // the named type it is ("" = inline)
};

std::string quoted(const std::string& s);  // `s`, for the change column
bool contains(const std::vector<std::string>& v, const std::string& s);
bool is_required(const gen::Node& object, const std::string& key);
bool has_member(const gen::Node& object, const std::string& key);
gen::Node member(const gen::Node& object, const std::string& key);  // properties/<key>
std::string json_type(const gen::Json& v);                          // "integer", "object", ...
// `set` accepts a value of JSON type `t` (every integer is a number).
bool accepts(const std::vector<std::string>& set, const std::string& t);
bool all_accepted(const std::vector<std::string>& from, const std::vector<std::string>& by);
std::string joined(const std::vector<std::string>& v, const char* sep = " | ");
// The name a $ref target is known by: its definitions key, else its title, else its file.
std::string type_name(const gen::Node& target);
const char* kind_word(const PayloadDiff::Shape& s);  // "enum", "object", ...
// "string", "enum of \"a\", \"b\"", "object": what a shape accepts, for the change column.
std::string describe(const PayloadDiff::Shape& s);
std::vector<std::string> value_types(
    const PayloadDiff::Shape& s);                               // of an enum's or const's values
std::vector<gen::Json> values_of(const PayloadDiff::Shape& s);  // an enum's or const's values

}  // namespace rpckit::compat
