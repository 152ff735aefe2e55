// The payload comparison's shared readers (payload_shape.hpp) and PayloadDiff::shape_of: a
// schema node read for comparison, $refs followed and a nullable wrapper unwrapped.
#include "tool/compat/payload_shape.hpp"

#include <algorithm>

#include "rpckit/model/required_alternatives.hpp"

namespace rpckit::compat {

using gen::Json;
using gen::Node;

std::string quoted(const std::string& s) { return "`" + s + "`"; }

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool is_required(const Node& object, const std::string& key) {
  if (object.json == nullptr || !object.json->is_object() || !object.has("required")) {
    return false;
  }
  const Json& r = object.json->at("required");
  return r.is_array() && std::find(r.begin(), r.end(), Json(key)) != r.end();
}

bool has_member(const Node& object, const std::string& key) {
  return object.json != nullptr && object.has("properties") &&
         object.json->at("properties").contains(key);
}

Node member(const Node& object, const std::string& key) {
  return object.child("properties").child(key);
}

std::string json_type(const Json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "boolean";
  if (v.is_number_integer()) return "integer";
  if (v.is_number()) return "number";
  if (v.is_string()) return "string";
  if (v.is_array()) return "array";
  return "object";
}

bool accepts(const std::vector<std::string>& set, const std::string& t) {
  return contains(set, t) || (t == "integer" && contains(set, "number"));
}

bool all_accepted(const std::vector<std::string>& from, const std::vector<std::string>& by) {
  return std::all_of(from.begin(), from.end(),
                     [&](const std::string& t) { return accepts(by, t); });
}

std::string joined(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string type_name(const Node& target) {
  auto slash = target.pointer.rfind('/');
  if (target.pointer.starts_with("/definitions/") && slash == std::string("/definitions").size()) {
    return target.pointer.substr(slash + 1);
  }
  if (target.json->is_object() && target.json->contains("title") &&
      target.json->at("title").is_string()) {
    return target.json->at("title").get<std::string>();
  }
  std::string file = target.file.substr(target.file.rfind('/') + 1);
  return file.substr(0, file.rfind('.')) + target.pointer;
}

const char* kind_word(const PayloadDiff::Shape& s) {
  using K = PayloadDiff::Shape::Kind;
  switch (s.kind) {
    case K::kAny:
      return "any JSON";
    case K::kScalar:
      return "scalar";
    case K::kEnum:
      return "enum";
    case K::kConst:
      return "constant";
    case K::kObject:
      return "object";
    case K::kMap:
      return "map";
    case K::kArray:
      return "array";
    case K::kUnion:
      return "union";
  }
  return "?";
}

std::string describe(const PayloadDiff::Shape& s) {
  using K = PayloadDiff::Shape::Kind;
  const Json& j = *s.node.json;
  switch (s.kind) {
    case K::kScalar:
      return joined(s.types);
    case K::kEnum:
      return "enum " + json_text(j.at("enum"));
    case K::kConst:
      return "const " + json_text(j.at("const"));
    default:
      return kind_word(s);
  }
}

std::vector<std::string> value_types(const PayloadDiff::Shape& s) {
  std::vector<std::string> out;
  const Json& j = *s.node.json;
  if (s.kind == PayloadDiff::Shape::Kind::kConst) out.push_back(json_type(j.at("const")));
  if (s.kind == PayloadDiff::Shape::Kind::kEnum) {
    for (const Json& v : j.at("enum")) {
      if (!contains(out, json_type(v))) out.push_back(json_type(v));
    }
  }
  return out;
}

std::vector<Json> values_of(const PayloadDiff::Shape& s) {
  const Json& j = *s.node.json;
  if (s.kind == PayloadDiff::Shape::Kind::kConst) return {j.at("const")};
  return std::vector<Json>(j.at("enum").begin(), j.at("enum").end());
}

// ---- shapes -------------------------------------------------------------------------------

PayloadDiff::Shape PayloadDiff::shape_of(const Node& start, const gen::SchemaSet& set, Ctx& ctx,
                                         bool is_new) {
  std::set<std::string>& reached = is_new ? reached_after_ : reached_before_;
  Shape s;
  Node n = start;
  for (int hops = 0; n.has("$ref") && hops < 64; ++hops) {
    Node target = set.resolve(n, n.json->at("$ref").get<std::string>());
    reached.insert(location(target));
    s.name = type_name(target);
    // Paths restart at a type of another file, so a shared type's change is one row.
    if (target.file != ctx.anchor_file) {
      ctx.anchor = s.name;
      ctx.anchor_file = target.file;
      ctx.anchor_is_message = false;
      ctx.path.clear();
    }
    n = target;
  }
  reached.insert(location(n));
  s.node = n;
  const Json& j = *n.json;
  if (!j.is_object()) return s;  // `true`: any JSON
  if (j.contains("title") && j.at("title").is_string() && !start.has("$ref")) {
    s.name = j.at("title").get<std::string>();  // an inline type (NotifyLevel)
  }
  for (const char* key : {"oneOf", "anyOf"}) {
    if (!j.contains(key) || !j.at(key).is_array() || j.at(key).size() != 2) continue;
    for (std::size_t i = 0; i < 2; ++i) {
      const Json& m = j.at(key)[i];
      if (m.is_object() && m.size() == 1 && m.value("type", Json()) == "null") {
        Shape inner = shape_of(n.child(key).item(1 - i), set, ctx, is_new);
        inner.nullable = true;
        return inner;
      }
    }
  }
  std::vector<std::string> types;
  if (j.contains("type")) {
    const Json& t = j.at("type");
    if (t.is_string()) types.push_back(t.get<std::string>());
    if (t.is_array()) {
      for (const Json& e : t) {
        if (e.is_string()) types.push_back(e.get<std::string>());
      }
    }
  }
  if (types.size() > 1 && contains(types, "null")) {
    s.nullable = true;
    types.erase(std::remove(types.begin(), types.end(), "null"), types.end());
  }
  using K = Shape::Kind;
  if (j.contains("enum")) {
    s.kind = K::kEnum;
  } else if (j.contains("const")) {
    s.kind = K::kConst;
  } else if (j.contains("oneOf") || (j.contains("anyOf") && !model::required_alternatives(j))) {
    s.kind = K::kUnion;
  } else if (types == std::vector<std::string>{"object"} ||
             (types.empty() && (j.contains("properties") || j.contains("additionalProperties")))) {
    bool map = !j.contains("properties") && j.contains("additionalProperties") &&
               j.at("additionalProperties").is_object();
    s.kind = map ? K::kMap : K::kObject;
  } else if (types == std::vector<std::string>{"array"} || (types.empty() && j.contains("items"))) {
    s.kind = K::kArray;
  } else if (!types.empty()) {
    s.kind = K::kScalar;
    s.types = types;
  }
  return s;
}

}  // namespace rpckit::compat
