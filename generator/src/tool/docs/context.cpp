#include "tool/docs/context.hpp"

#include <charconv>

#include "tool/docs/markdown.hpp"

namespace rpckit::docs {
namespace {

std::string number(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back as v
  return std::string(buf, r.ptr);
}

std::string scalar(const gen::Json& j) {
  return j.dump(-1, ' ', false, nlohmann::detail::error_handler_t::replace);
}

// `j` at `indent`, its first line starting `lead` columns in (after its key): flat when it
// fits, else one member per line.
std::string fitted(const gen::Json& j, std::size_t indent, std::size_t lead, std::size_t width) {
  std::string flat = json_inline(j);
  if (lead + flat.size() <= width || !j.is_structured() || j.empty()) return flat;
  std::string pad(indent + 2, ' ');
  std::string out = j.is_object() ? "{\n" : "[\n";
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it != j.begin()) out += ",\n";
    std::string key = j.is_object() ? scalar(gen::Json(it.key())) + ": " : "";
    out += pad + key + fitted(*it, indent + 2, pad.size() + key.size(), width);
  }
  return out + "\n" + std::string(indent, ' ') + (j.is_object() ? "}" : "]");
}

}  // namespace

std::string type_key(const std::string& type_name) { return "type:" + type_name; }
std::string message_key(const std::string& method) { return "message:" + method; }

std::string json_inline(const gen::Json& j) {
  if (j.is_object()) {
    if (j.empty()) return "{}";
    std::string out = "{";
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (out.size() > 1) out += ", ";
      out += scalar(gen::Json(it.key())) + ": " + json_inline(*it);
    }
    return out + "}";
  }
  if (j.is_array()) {
    return "[" + join(j, [](const gen::Json& item) { return json_inline(item); }) + "]";
  }
  return scalar(j);
}

std::string json_block(const gen::Json& j, std::size_t width) { return fitted(j, 0, 0, width); }

Context::Context(const gen::SchemaSet& schema_set, const ir::Module& ir_module,
                 const Examples& message_examples)
    : schema(schema_set),
      protocol(model::Protocol::link(schema_set)),
      module(ir_module),
      examples(message_examples) {
  for (const ir::TypeDecl& t : module.types) {
    types_.emplace(t.name, &t);
    if (capabilities_file_.empty() &&
        (t.loc.file == "capabilities.json" || t.loc.file.ends_with("/capabilities.json"))) {
      capabilities_file_ = t.loc.file;
    }
  }
  if (module.error_code_type) error_enum_ = type(*module.error_code_type);
  for (const ir::Message& m : module.messages) {
    auto show = [&](const std::string& name) {
      const ir::TypeDecl* t = type(name);
      if (t && t->kind == ir::TypeDecl::Kind::kStruct && t->loc.file == m.loc.file) {
        shown_in_.emplace(name, &m);
      }
    };
    show(m.params_type);
    if (m.result && m.result->kind == ir::TypeRef::Kind::kNamed) show(m.result->name);
  }
  if (module.profile && !module.profile->grant_member.empty()) {
    const ir::Message* handshake = message_by_descriptor(module.profile->handshake);
    const ir::TypeDecl* params = handshake ? type(handshake->params_type) : nullptr;
    if (params) {
      for (const ir::Field& f : params->struct_.fields) {
        if (f.cpp_name == module.profile->grant_member &&
            f.type.kind == ir::TypeRef::Kind::kNamed) {
          grant_type_ = type(f.type.name);
        }
      }
    }
  }
}

const ir::TypeDecl* Context::type(const std::string& name) const {
  auto it = types_.find(name);
  return it == types_.end() ? nullptr : it->second;
}

const ir::Message* Context::message(const std::string& method) const {
  for (const ir::Message& m : module.messages) {
    if (m.method == method) return &m;
  }
  return nullptr;
}

const ir::Message* Context::message_by_descriptor(const std::string& cpp_name) const {
  for (const ir::Message& m : module.messages) {
    if (m.cpp_name == cpp_name) return &m;
  }
  return nullptr;
}

const ir::Constant* Context::constant(const std::string& cpp_name) const {
  for (const ir::Constant& c : module.constants) {
    if (c.cpp_name == cpp_name) return &c;
  }
  return nullptr;
}

const ir::Constant* Context::constant_by_wire(const std::string& wire_name) const {
  for (const ir::Constant& c : module.constants) {
    if (c.wire_name == wire_name) return &c;
  }
  return nullptr;
}

const ir::EnumValue* Context::error(const std::string& enumerator) const {
  if (!error_enum_) return nullptr;
  for (const ir::EnumValue& v : error_enum_->enum_.values) {
    if (v.cpp_name == enumerator) return &v;
  }
  return nullptr;
}

const ir::Message* Context::shown_in_message(const std::string& type_name) const {
  auto it = shown_in_.find(type_name);
  return it == shown_in_.end() ? nullptr : it->second;
}

std::string Context::grant_list_enum(const std::string& list) const {
  if (!grant_type_) return "";
  for (const ir::Field& f : grant_type_->struct_.fields) {
    if (f.wire_name != list) continue;
    const ir::TypeRef* t = &f.type;
    if (t->kind == ir::TypeRef::Kind::kArray && t->element) t = t->element.get();
    if (t->kind == ir::TypeRef::Kind::kNamed) return t->name;
  }
  return "";
}

std::string Context::type_link(const std::string& name) const {
  return md::Document::link(md::code(name), type_key(name));
}

std::string Context::message_link(const std::string& method) const {
  return md::Document::link(md::code(method), message_key(method));
}

std::string Context::type_text(const ir::TypeRef& t) const {
  auto nested = [this](const ir::TypeRef& e) {
    return (e.nullable ? "nullable " : "") + type_text(e);
  };
  if (!t.alias.empty()) return type_link(t.alias);
  switch (t.kind) {
    case ir::TypeRef::Kind::kNamed:
      return type_link(t.name);
    case ir::TypeRef::Kind::kArray:
      return "array of " + nested(*t.element);
    case ir::TypeRef::Kind::kMap:
      return "map of " + nested(*t.element);
    case ir::TypeRef::Kind::kPrimitive:
      break;
  }
  switch (t.primitive) {
    case ir::Primitive::kString:
      return "string";
    case ir::Primitive::kBool:
      return "boolean";
    case ir::Primitive::kInt64:
    case ir::Primitive::kUInt32:
      return "integer";
    case ir::Primitive::kDouble:
      return "number";
    case ir::Primitive::kNull:
      return "null";
    case ir::Primitive::kAny:
      break;
  }
  return "any JSON";
}

std::string Context::constraints_text(const ir::TypeRef& t) const {
  const ir::Constraints& c = t.constraints;
  std::vector<std::string> parts;
  auto count = [&](const char* name, const std::optional<std::uint64_t>& v) {
    if (v) parts.push_back(std::string(name) + ": " + std::to_string(*v));
  };
  count("minLength", c.min_length);
  count("maxLength", c.max_length);
  if (c.pattern) parts.push_back("pattern: " + md::code(c.pattern->source));
  if (c.not_pattern) parts.push_back("not pattern: " + md::code(c.not_pattern->source));
  if (c.minimum) parts.push_back("minimum: " + number(*c.minimum));
  if (c.maximum) parts.push_back("maximum: " + number(*c.maximum));
  count("minItems", c.min_items);
  count("maxItems", c.max_items);
  if (c.unique_items) parts.emplace_back("uniqueItems");
  if (c.date_time) parts.emplace_back("format: date-time");
  std::string out = join(parts, [](const std::string& s) { return s; });
  if (t.element && t.alias.empty()) {
    std::string inner = constraints_text(*t.element);
    if (!inner.empty()) {
      if (!out.empty()) out += "; ";
      out += (t.kind == ir::TypeRef::Kind::kArray ? "items: " : "values: ") + inner;
    }
  }
  return out;
}

std::string Context::field_constraints(const ir::Field& f) const {
  std::string out = constraints_text(f.type);
  std::string format;
  try {
    const gen::Json& node =
        schema.file(f.loc.file).json->at(gen::Json::json_pointer(f.loc.pointer));
    if (node.is_object() && node.contains("format") && node["format"].is_string()) {
      format = node["format"].get<std::string>();
    }
  } catch (const std::exception&) {
    // A field without a node of its own (none today): the IR's constraints are all there is.
  }
  if (format.empty() || format == "date-time") return out;
  return out.empty() ? "format: " + format : out + ", format: " + format;
}

std::string Context::gate_text(const ir::GateClause& g) const {
  if (g.kind == ir::GateClause::Kind::kCapability) {
    return "the receiver declared " + md::code(g.list) + " in the handshake";
  }
  if (g.kind == ir::GateClause::Kind::kParamCapability) {
    return md::code("params." + g.param) + " only if the receiver declared " + md::code(g.list) +
           " in the handshake";
  }
  if (g.kind == ir::GateClause::Kind::kSenderCapability) {
    return "the sender declared " + md::code(g.list) + " in the handshake";
  }
  if (g.kind == ir::GateClause::Kind::kKeyedCapability) {
    return "the receiver declared " + md::code(g.list + ".<params." + g.param + ">") +
           " in the handshake (" + md::code(g.value) + " when " + md::code("params." + g.param) +
           " is absent; a " + md::code(g.list) + " with no members declares " + md::code(g.value) +
           " only)";
  }
  std::string list = md::code(g.list);
  if (g.kind != ir::GateClause::Kind::kDeclaredParam && grant_type_) {
    list = md::Document::link(md::code(g.list), type_key(grant_type_->name));
  }
  switch (g.kind) {
    case ir::GateClause::Kind::kGrantedValue:
      return md::code(g.value) + " is in the grant's " + list;
    case ir::GateClause::Kind::kGrantedParam:
      return md::code("params." + g.param) + " is in the grant's " + list;
    case ir::GateClause::Kind::kDeclaredParam:
    case ir::GateClause::Kind::kCapability:
    case ir::GateClause::Kind::kParamCapability:
    case ir::GateClause::Kind::kSenderCapability:
    case ir::GateClause::Kind::kKeyedCapability:
      break;
  }
  return md::code("params." + g.param) + " is declared in the manifest's " + list;
}

std::string Context::constant_value(const ir::Constant& c) const {
  std::string value;
  if (const gen::Json* written = protocol.constant(c.wire_name)) {
    value = json_inline(*written);
  } else {
    value = c.array ? "[" + join(c.values, [](const std::string& s) { return s; }) + "]"
                    : join(c.values, [](const std::string& s) { return s; });
  }
  return md::code(value) + (c.kind == ir::Constant::Kind::kDurationMs ? " ms" : "");
}

std::string Context::constant_reference(const std::string& cpp_name) const {
  const ir::Constant* c = constant(cpp_name);
  if (!c) return md::code(cpp_name);
  return constant_value(*c) + " (" + md::Document::link(md::code(c->wire_name), kConstantsKey) +
         ")";
}

std::string Context::error_reference(const std::string& enumerator) const {
  const ir::EnumValue* v = error(enumerator);
  if (!v) return md::code(enumerator);
  return md::Document::link(md::code(v->label), kErrorsKey) + " (" + v->wire + ")";
}

}  // namespace rpckit::docs
