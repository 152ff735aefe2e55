#include "tool/trace/schema_docs.hpp"

#include <map>
#include <string>

namespace rpckit::trace {

using nlohmann::json;
using validate::SchemaRef;
using SchemaJson = model::Json;  // the loaded schema's nodes

namespace {

constexpr std::size_t kMaxNodes = 20000;  // a schema is far smaller; this only bounds a cycle
constexpr std::size_t kMaxEnum = 40;

class DocsBuilder {
 public:
  explicit DocsBuilder(const validate::SchemaStore& store) : store_(store) {}

  // The node's index; its members are added when first seen.
  int add(const SchemaRef& ref) {
    if (!ref.json || !ref.json->is_object()) return -1;
    auto [it, added] = index_.try_emplace(ref.loc().str(), static_cast<int>(nodes_.size()));
    if (!added) return it->second;
    if (nodes_.size() >= kMaxNodes) return -1;
    const int self = it->second;
    nodes_.push_back(json::object());
    json out = describe(ref);
    nodes_[static_cast<std::size_t>(self)] = std::move(out);
    return self;
  }

  json take() { return std::move(nodes_); }

 private:
  json describe(const SchemaRef& ref) {
    const SchemaJson& n = *ref.json;
    json out = json::object();
    if (auto d = n.find("description"); d != n.end() && d->is_string()) out["d"] = *d;
    if (auto t = n.find("title"); t != n.end() && t->is_string()) out["n"] = *t;
    if (auto t = n.find("type"); t != n.end()) {
      out["t"] = t->is_string() ? t->get<std::string>() : t->dump();
    }
    if (auto f = n.find("format"); f != n.end() && f->is_string()) out["f"] = *f;
    if (auto c = n.find("const"); c != n.end()) out["c"] = c->dump();
    if (auto e = n.find("enum"); e != n.end() && e->is_array()) {
      json values = json::array();
      for (const auto& v : *e) {
        if (values.size() == kMaxEnum) break;
        values.push_back(v.dump());
      }
      out["e"] = std::move(values);
    }
    if (auto r = n.find("required"); r != n.end() && r->is_array()) out["r"] = *r;
    json alternatives = json::array();
    if (auto r = n.find("$ref"); r != n.end() && r->is_string()) {
      try {
        if (int i = add(store_.resolve(ref, r->get<std::string>())); i >= 0) alternatives.push_back(i);
      } catch (const validate::SchemaLoadError&) {
      }
    }
    if (auto p = n.find("properties"); p != n.end() && p->is_object()) {
      json members = json::object();
      const SchemaRef props = ref.child("properties");
      for (const auto& [key, value] : p->items()) {
        if (int i = add(props.child(key)); i >= 0) members[key] = i;
      }
      out["p"] = std::move(members);
    }
    if (auto items = n.find("items"); items != n.end() && items->is_object()) {
      if (int i = add(ref.child("items")); i >= 0) out["i"] = i;
    }
    if (auto a = n.find("additionalProperties"); a != n.end() && a->is_object()) {
      if (int i = add(ref.child("additionalProperties")); i >= 0) out["a"] = i;
    }
    for (const char* key : {"allOf", "anyOf", "oneOf", "then", "else"}) {
      auto k = n.find(key);
      if (k == n.end()) continue;
      if (k->is_array()) {
        const SchemaRef list = ref.child(key);
        for (std::size_t j = 0; j < k->size(); ++j) {
          if (int i = add(list.item(j)); i >= 0) alternatives.push_back(i);
        }
      } else if (k->is_object()) {
        if (int i = add(ref.child(key)); i >= 0) alternatives.push_back(i);
      }
    }
    if (!alternatives.empty()) out["x"] = std::move(alternatives);
    return out;
  }

  const validate::SchemaStore& store_;
  std::map<std::string, int> index_;
  json nodes_ = json::array();
};

std::string text(const SchemaJson& node, const char* key) {
  auto it = node.find(key);
  return it != node.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

json schema_docs(const validate::ProtocolSchema& protocol) {
  DocsBuilder nodes(*protocol.store());
  json methods = json::object();
  for (const auto& [name, m] : protocol.messages()) {
    json entry = {{"d", text(*m.envelope.json, "description")},
                  {"kind", m.request ? "request" : "notification"},
                  {"from", m.sender()},
                  {"routes", m.routes_text()},
                  {"env", nodes.add(m.envelope)}};
    if (m.result) entry["res"] = nodes.add(*m.result);
    // x-result-when, in the order written: [member, node]; the page picks the result by the
    // params of the request a response answers.
    for (const auto& [member, schema] : m.results_when) {
      entry["rw"].push_back({member, nodes.add(schema)});
    }
    methods[name] = std::move(entry);
  }
  if (const auto& x = protocol.exchange()) {
    for (const auto& step : x->steps) {
      const std::string to = step.from == protocol.spawned_role() ? protocol.spawner_role()
                                                                  : protocol.spawned_role();
      methods[step.type] = {{"d", text(*step.schema.json, "description")},
                            {"kind", step.answers >= 0 ? "response" : "message"},
                            {"from", step.from},
                            {"to", to},
                            {"env", nodes.add(step.schema)}};
    }
  }
  json out = {{"methods", std::move(methods)}};
  if (const auto& error = protocol.error_object()) out["error"] = nodes.add(*error);
  out["nodes"] = nodes.take();
  return out;
}

}  // namespace rpckit::trace
