// Lowering of declared types: structs, enums, unions and named maps, with their defaults.
#include <algorithm>
#include <set>
#include <vector>

#include "lower/lowerer.hpp"
#include "lower/names.hpp"
#include "lower/schema_node.hpp"
#include "model.hpp"

namespace rpckit::gen {

bool Lowerer::integer_enum(const Node& n) { return single_type(n, nullptr) == "integer"; }

// A declared type's name: its definitions key, else its title.
std::string Lowerer::name_for(const Node& n) {
  auto slash = n.pointer.rfind('/');
  if (slash != std::string::npos && n.pointer.substr(0, slash) == "/definitions") {
    return n.pointer.substr(slash + 1);
  }
  if (!n.has("title")) n.fail("a declared type needs a \"title\" (its C++ name)");
  return text(n, "title");
}

bool Lowerer::declarable(const Node& n) {
  Shape s = shape_of(n, true);
  return s == Shape::kStruct || s == Shape::kEnum || s == Shape::kUnion || s == Shape::kMap;
}

// A type file declares its root (when it is a type) and its definitions; a message file
// (whose root is the envelope) only its definitions.
void Lowerer::declare_file(const Node& file, bool root_is_type) {
  if (root_is_type &&
      (file.has("type") || file.has("oneOf") || file.has("anyOf") || file.has("enum"))) {
    declare(file, name_for(file));
  }
  if (!file.has("definitions")) return;
  Node defs = file.child("definitions");
  for (const auto& [key, value] : defs.json->items()) {
    Node d = defs.child(key);
    if (declarable(d)) declare(d, key);
  }
}

// Claims a C++ type name for the declaration at `n`; two declarations never share one.
void Lowerer::reserve_name(const Node& n, const std::string& name) {
  // What the generator itself declares in the module's namespace.
  bool own = name == "Role" || name == "Protocol";
  for (const std::string& role : module_.roles) {
    own = own || name == handler_name(role) || name == client_name(role);
    for (const std::string& to : module_.roles) {
      own = own || (to != role && name == direction_name(role, to));
    }
  }
  if (own) {
    n.fail("type name \"" + name + "\" is a name the generated code declares itself (the " +
           "role enum, the protocol traits, a dispatch table or a role surface): give the " +
           "type another title");
  }
  if (auto it = names_.find(name); it != names_.end()) {
    n.fail("type name \"" + name + "\" is already used by " + it->second);
  }
  names_[name] = n.loc().str();
}

// Declares the type at `n` (once) and returns its name.
std::string Lowerer::declare(const Node& n, const std::string& name) {
  std::string key = n.loc().str();
  if (auto it = declared_.find(key); it != declared_.end()) return it->second;
  reserve_name(n, name);
  declared_[key] = name;
  std::size_t index = decls_.size();
  decls_.emplace_back();
  TypeDecl decl;
  decl.name = name;
  decl.doc = optional_text(n, "description");
  decl.loc = n.loc();
  current_deps_.emplace_back();
  switch (shape_of(n, true)) {
    case Shape::kStruct:
      decl.kind = TypeDecl::Kind::kStruct;
      decl.struct_ = lower_struct(n, name);
      break;
    case Shape::kEnum:
      decl.kind = TypeDecl::Kind::kEnum;
      decl.enum_ = lower_enum(n, name);
      if (!decl.enum_.values_struct.empty()) reserve_name(n, decl.enum_.values_struct);
      break;
    case Shape::kUnion:
      decl.kind = TypeDecl::Kind::kUnion;
      decl.union_ = lower_union(n, name);
      break;
    case Shape::kMap:
      decl.kind = TypeDecl::Kind::kAlias;
      decl.alias_ = lower_use(n, name);
      break;
    default:
      n.fail("cannot declare a type here");
  }
  decl.depends_on = std::move(current_deps_.back());
  current_deps_.pop_back();
  decls_[index] = std::move(decl);
  return name;
}

ir::Struct Lowerer::lower_struct(const Node& n, const std::string& owner) {
  ir::Struct s;
  std::set<std::string> required;
  for (const std::string& r : string_list(n, "required")) required.insert(r);
  std::set<std::string> members;
  if (n.has("properties")) {
    Node props = n.child("properties");
    for (const auto& [key, value] : props.json->items()) {
      Node p = props.child(key);
      ir::Field f;
      f.wire_name = key;
      f.cpp_name = member_name(key);
      f.doc = optional_text(p, "description");
      f.required = required.count(key) != 0;
      f.loc = p.loc();
      if (p.has("const")) {
        f.const_json = (*p.json)["const"].dump();
      } else {
        f.type = lower_use(p, owner + pascal_case(key));
      }
      if (p.has("default") && !f.required && !f.const_json) {
        f.default_json = (*p.json)["default"].dump();
        f.default_cpp = default_expression(p.child("default"), f.type);
        f.default_accessor = member_name(key + "_or_default");
      }
      if (!members.insert(f.cpp_name).second ||
          (f.default_json && !members.insert(f.default_accessor).second)) {
        p.fail("C++ member name \"" + f.cpp_name + "\" is used twice in " + owner);
      }
      s.fields.push_back(std::move(f));
    }
  }
  if (n.has("additionalProperties") && (*n.json)["additionalProperties"] != false) {
    Node rest = n.child("additionalProperties");  // a schema or true (the loader checked)
    if (!members.insert(ir::kRestMember).second) {
      rest.fail(std::string("an open struct keeps its other members in \"") + ir::kRestMember +
                "\": a property of " + owner + " has that C++ name");
    }
    s.rest = lower_use(rest, owner + "Value");
  }
  for (const std::string& r : required) {
    if (!n.has("properties") || !(*n.json)["properties"].contains(r)) {
      n.child("required").fail("required field \"" + r + "\" has no schema in properties");
    }
  }
  lower_required_alternatives(n, owner, s);
  return s;
}

// An "anyOf" of required lists beside the properties: each name a property, within what the
// codec's presence mask holds (rpckit::codec::with_any_of: 8 alternatives of 8 names).
void Lowerer::lower_required_alternatives(const Node& n, const std::string& owner, ir::Struct& s) {
  auto alternatives = required_alternatives(*n.json);
  if (!alternatives) return;
  constexpr std::size_t kMax = 8;
  Node list = n.child("anyOf");
  if (alternatives->size() > kMax) {
    list.fail("an anyOf of required lists has at most " + std::to_string(kMax) +
              " alternatives here, got " + std::to_string(alternatives->size()));
  }
  for (std::size_t a = 0; a < alternatives->size(); ++a) {
    Node names = list.item(a).child("required");
    if ((*alternatives)[a].size() > kMax) {
      names.fail("an alternative names at most " + std::to_string(kMax) + " members here");
    }
    for (std::size_t i = 0; i < (*alternatives)[a].size(); ++i) {
      const std::string& name = (*alternatives)[a][i];
      if (!n.has("properties") || !(*n.json)["properties"].contains(name)) {
        names.item(i).fail("\"" + name + "\" is not a property of " + owner +
                           ": an alternative of an anyOf of required lists names its members");
      }
    }
  }
  s.required_any_of = std::move(*alternatives);
}

// A C++ expression for a default value, or nullopt when it has no simple one.
std::optional<std::string> Lowerer::default_expression(const Node& d, const TypeRef& type) {
  const Json& v = *d.json;
  if (type.kind == TypeRef::Kind::kArray && v.is_array() && v.empty()) return "{}";
  if (type.kind == TypeRef::Kind::kNamed) {
    const TypeDecl* decl = find_decl(type.name);
    if (decl != nullptr && decl->kind == TypeDecl::Kind::kEnum && v.is_string()) {
      for (const ir::EnumValue& e : decl->enum_.values) {
        if (e.wire == v.get<std::string>()) return type.name + "::" + e.cpp_name;
      }
      std::vector<std::string> wires;
      for (const ir::EnumValue& e : decl->enum_.values) wires.push_back(e.wire);
      d.reject("default is not one of the enum's values (" + quoted_list(wires) + ")");
    }
    return std::nullopt;
  }
  if (type.kind != TypeRef::Kind::kPrimitive) return std::nullopt;
  switch (type.primitive) {
    case Primitive::kString:
      if (!v.is_string()) d.reject("default does not match the type (string)");
      return "std::string(" + v.dump() + ")";
    case Primitive::kBool:
      if (!v.is_boolean()) d.reject("default does not match the type (boolean)");
      return v.dump();
    case Primitive::kInt64:
    case Primitive::kUInt32:
      if (!v.is_number_integer()) d.reject("default does not match the type (integer)");
      return v.dump();
    case Primitive::kDouble:
      if (!v.is_number()) d.reject("default does not match the type (number)");
      return v.is_number_float() ? v.dump() : v.dump() + ".0";
    default:
      return std::nullopt;
  }
}

ir::Enum Lowerer::lower_enum(const Node& n, const std::string& name) {
  ir::Enum e;
  e.integer = integer_enum(n);
  if (e.integer) {
    e.from_name_function = snake_case(name) + "_from_string";
  } else {
    e.values_struct = name + "Values";
  }
  if (!e.integer && single_type(n, nullptr) != "string" && n.has("type")) {
    n.child("type").reject("enums must be of type string or integer");
  }
  Node values = n.child("enum");
  if (!values.json->is_array() || values.json->empty()) values.reject("expected a non-empty array");
  std::vector<std::string> names = string_list(n, kw(Annotation::kEnumNames));
  std::vector<std::string> docs = string_list(n, kw(Annotation::kEnumDescriptions));
  std::size_t count = values.json->size();
  if (const auto written = model::annotation(n, Annotation::kEnumNames);
      written && names.size() != count) {
    written->fail("needs one name per enum value (" + std::to_string(count) + "), got " +
                  std::to_string(names.size()));
  }
  if (const auto written = model::annotation(n, Annotation::kEnumDescriptions);
      written && docs.size() != count) {
    written->fail("needs one description per enum value (" + std::to_string(count) + "), got " +
                  std::to_string(docs.size()));
  }
  if (e.integer && names.empty()) n.fail("an integer enum needs \"x-enum-names\"");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < count; ++i) {
    const Json& v = (*values.json)[i];
    ir::EnumValue value;
    if (e.integer) {
      if (!v.is_number_integer()) values.item(i).reject("expected an integer");
      value.wire = v.dump();
    } else {
      if (!v.is_string()) values.item(i).reject("expected a string");
      value.wire = v.get<std::string>();
    }
    value.label = names.empty() ? value.wire : names[i];
    value.cpp_name = constant_name(value.label);
    if (!docs.empty()) value.doc = docs[i];
    if (value.cpp_name == "kUnknown" && !e.integer) {
      values.fail("value \"" + value.wire + "\" would be named kUnknown, which open enums reserve");
    }
    if (!seen.insert(value.cpp_name).second) {
      auto first = std::find_if(e.values.begin(), e.values.end(),
                                [&](const ir::EnumValue& other) { return other.cpp_name == value.cpp_name; });
      values.fail("values " + quoted_list(std::vector{first->label, value.label}) +
                  " map to the same C++ name " + value.cpp_name);
    }
    e.values.push_back(std::move(value));
  }
  return e;
}

ir::Union Lowerer::lower_union(const Node& n, const std::string& owner) {
  ir::Union u;
  const char* keyword = union_keyword(n);
  Node members = n.child(keyword);
  if (model::annotation(n, Annotation::kDiscriminator)) {
    u.discriminator = text(n, kw(Annotation::kDiscriminator));
  }
  std::set<std::string> keys;
  for (std::size_t i = 0; i < members.json->size(); ++i) {
    Node m = members.item(i);
    ir::UnionMember member;
    member.type = lower_use(m, owner + "Member" + std::to_string(i));
    if (member.type.nullable) m.fail("union members cannot be nullable");
    if (u.discriminator) {
      member.tag = discriminator_value(m, *u.discriminator);
      if (!keys.insert(member.tag).second) m.fail("discriminator value \"" + member.tag + "\" used twice");
    } else {
      member.match = match_key(m, member.type);
      if (!keys.insert(member.match).second) {
        m.fail("members of an untagged union must differ in JSON type (two are " +
               member.match + ")");
      }
    }
    u.members.push_back(std::move(member));
  }
  return u;
}

std::string Lowerer::discriminator_value(const Node& member, const std::string& key) {
  Node target = member;
  if (member.has("$ref")) target = schema_.resolve(member, text(member, "$ref"));
  if (shape_of(target, true) != Shape::kStruct || !target.has("properties") ||
      !(*target.json)["properties"].contains(key) ||
      !(*target.json)["properties"][key].contains("const") ||
      !(*target.json)["properties"][key]["const"].is_string()) {
    member.fail("a tagged union member must be an object whose \"" + key +
                "\" property is a string const");
  }
  return (*target.json)["properties"][key]["const"].get<std::string>();
}

// The JSON kind that selects an untagged union member.
std::string Lowerer::match_key(const Node& m, const TypeRef& t) {
  switch (t.kind) {
    case TypeRef::Kind::kMap:
      return "object";
    case TypeRef::Kind::kArray:
      return "array:" + match_key(m, *t.element);
    case TypeRef::Kind::kNamed: {
      const TypeDecl* d = find_decl(t.name);
      if (d == nullptr) m.fail("union member type is not declared yet (recursive union?)");
      if (d->kind == TypeDecl::Kind::kEnum) return d->enum_.integer ? "integer" : "string";
      // A tagged union is always an object, so it can be the object member of a union of JSON
      // kinds (MCP's content: one block, or an array of blocks). An untagged one has no kind.
      if (d->kind == TypeDecl::Kind::kUnion && !d->union_.discriminator) {
        m.fail("an untagged union cannot be a member of an untagged union");
      }
      return "object";
    }
    case TypeRef::Kind::kPrimitive:
      switch (t.primitive) {
        case Primitive::kString: return "string";
        case Primitive::kBool: return "boolean";
        case Primitive::kInt64:
        case Primitive::kUInt32: return "integer";
        case Primitive::kDouble: return "number";
        case Primitive::kNull: return "null";
        case Primitive::kAny: m.fail("an untagged union member cannot be \"any\"");
      }
  }
  return "";
}

const TypeDecl* Lowerer::find_decl(const std::string& name) const {
  for (const TypeDecl& decl : decls_) {
    if (decl.name == name) return &decl;
  }
  return nullptr;
}

}  // namespace rpckit::gen
