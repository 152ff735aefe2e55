#include "lower/type_schema.hpp"

#include "rpckit/model/annotations.hpp"

namespace rpckit::gen {
namespace {

using model::Json;
using model::KeywordValue;
using model::Node;

class Bundler {
 public:
  explicit Bundler(const model::SchemaSet& set) : set_(set) {}

  Json schema(const Node& node) {
    const Json& j = *node.json;
    if (!j.is_object()) return j;  // true / false
    if (j.contains("$ref")) return referenced(node);
    Json out = Json::object();
    for (const auto& [key, value] : j.items()) {
      if (model::is_annotation_key(key) || key == "definitions") continue;
      switch (model::keyword_value(key)) {
        case KeywordValue::kSchema:
          out[key] = schema(node.child(key));
          break;
        case KeywordValue::kSchemaMap: {
          Json members = Json::object();
          const Node map = node.child(key);
          for (const auto& [name, member] : value.items()) members[name] = schema(map.child(name));
          out[key] = std::move(members);
          break;
        }
        case KeywordValue::kSchemaArray: {
          Json items = Json::array();
          const Node list = node.child(key);
          for (std::size_t i = 0; i < value.size(); ++i) items.push_back(schema(list.item(i)));
          out[key] = std::move(items);
          break;
        }
        case KeywordValue::kData:
        case KeywordValue::kUnsupported:
          out[key] = value;
          break;
      }
    }
    return out;
  }

 private:
  // draft-07: a $ref's siblings are ignored, but for the description a property gives it.
  // No type reaches itself (the lowering refuses one that does), so following $refs ends.
  Json referenced(const Node& node) {
    const Node target = set_.resolve(node, node.json->at("$ref").get<std::string>());
    Json out = schema(target);
    if (out.is_object() && !out.contains("description") && node.has("description")) {
      out["description"] = node.json->at("description");
    }
    return out;
  }

  const model::SchemaSet& set_;
};

}  // namespace

std::string self_contained_schema(const model::SchemaSet& set, const Node& node) {
  return Bundler(set).schema(node).dump();
}

}  // namespace rpckit::gen
