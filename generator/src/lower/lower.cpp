#include "lower/lower.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "lower/names.hpp"
#include "lower/pattern.hpp"
#include "lower/profile.hpp"

namespace rpckit::gen {
namespace {

using ir::Primitive;
using ir::TypeDecl;
using ir::TypeRef;

std::string text(const Node& n, std::string_view key) {
  Node c = n.child(key);
  if (!c.json->is_string()) c.fail("expected a string");
  return c.json->get<std::string>();
}

std::string optional_text(const Node& n, std::string_view key) {
  return n.has(key) ? text(n, key) : std::string();
}

std::vector<std::string> string_list(const Node& n, std::string_view key) {
  std::vector<std::string> out;
  if (!n.has(key)) return out;
  Node c = n.child(key);
  if (!c.json->is_array()) c.fail("expected an array of strings");
  for (const Json& v : *c.json) {
    if (!v.is_string()) c.fail("expected an array of strings");
    out.push_back(v.get<std::string>());
  }
  return out;
}

bool is_null_schema(const Json& j) {
  return j.is_object() && j.size() == 1 && j.contains("type") && j["type"] == "null";
}

// The non-null member of a two-member oneOf/anyOf with one {"type": "null"}, or -1.
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
  if (n.has("anyOf")) return "anyOf";
  return nullptr;
}

// What a schema node becomes in C++.
enum class Shape { kAny, kPrimitive, kArray, kMap, kStruct, kEnum, kUnion, kNullableWrapper };

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
  n.child("type").fail("a list of types is only supported as [<type>, \"null\"]");
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

class Lowerer {
 public:
  explicit Lowerer(const SchemaSet& schema) : schema_(schema) {}

  ir::Module run() {
    Node root = schema_.root();
    module_.title = optional_text(root, "title");
    module_.doc = optional_text(root, "description");
    module_.cpp_namespace = text(root, "x-namespace");
    module_.name = text(root, "x-module");
    module_.roles = string_list(root, "x-roles");
    module_.schema_hash = schema_.hash();
    lower_constants(root);
    if (root.has("x-error-codes")) {
      Node target = schema_.resolve(root.child("x-error-codes"), text(root, "x-error-codes"));
      if (shape_of(target, true) != Shape::kEnum || !integer_enum(target)) {
        root.child("x-error-codes").fail("must reference an integer enum");
      }
      module_.error_code_type = declare(target, name_for(target));
    }
    for (const std::string& file : string_list(root, "x-types")) declare_file(schema_.file(file));
    for (const std::string& file : string_list(root, "x-messages")) {
      lower_message(schema_.file(file));
    }
    module_.types = sorted_types();
    lower_surfaces();
    if (root.has("x-profile")) module_.profile = lower_profile(root.child("x-profile"), module_);
    return std::move(module_);
  }

 private:
  // ---- constants ------------------------------------------------------------------------

  void lower_constants(const Node& root) {
    if (!root.has("properties")) return;
    Node props = root.child("properties");
    for (const auto& [key, value] : props.json->items()) {
      Node n = props.child(key);
      if (!n.has("const")) n.fail("a protocol constant needs \"const\"");
      ir::Constant c;
      c.wire_name = key;
      c.cpp_name = constant_name(key);
      c.doc = optional_text(n, "description");
      const Json& v = (*n.json)["const"];
      c.array = v.is_array();
      Json items = c.array ? v : Json::array({v});
      if (items.empty()) n.child("const").fail("an array constant cannot be empty");
      const Json& first = items[0];
      bool ms = n.has("x-unit");
      if (ms && text(n, "x-unit") != "ms") n.child("x-unit").fail("only \"ms\" is supported");
      for (const Json& item : items) {
        // nlohmann stores 1 as unsigned and -1 as signed: both are JSON integers.
        bool same =
            item.type() == first.type() || (item.is_number_integer() && first.is_number_integer());
        if (!same) n.child("const").fail("array items differ in type");
        c.values.push_back(item.is_string() ? Json(item.get<std::string>()).dump() : item.dump());
      }
      if (first.is_number_integer() || first.is_number_unsigned()) {
        c.kind = ms ? ir::Constant::Kind::kDurationMs : ir::Constant::Kind::kInteger;
      } else if (ms) {
        n.child("x-unit").fail("a duration must be an integer number of ms");
      } else if (first.is_number_float()) {
        c.kind = ir::Constant::Kind::kNumber;
      } else if (first.is_string()) {
        c.kind = ir::Constant::Kind::kString;
      } else if (first.is_boolean()) {
        c.kind = ir::Constant::Kind::kBool;
      } else {
        n.child("const").fail("a constant must be an integer, number, string or boolean");
      }
      constants_[key] = c;
      module_.constants.push_back(std::move(c));
    }
  }

  // ---- declarations ---------------------------------------------------------------------

  static bool integer_enum(const Node& n) { return single_type(n, nullptr) == "integer"; }

  // A declared type's name: its definitions key, else its title.
  static std::string name_for(const Node& n) {
    auto slash = n.pointer.rfind('/');
    if (slash != std::string::npos && n.pointer.substr(0, slash) == "/definitions") {
      return n.pointer.substr(slash + 1);
    }
    if (!n.has("title")) n.fail("a declared type needs a \"title\" (its C++ name)");
    return text(n, "title");
  }

  static bool declarable(const Node& n) {
    Shape s = shape_of(n, true);
    return s == Shape::kStruct || s == Shape::kEnum || s == Shape::kUnion || s == Shape::kMap;
  }

  // A type file declares its root (when it is a type) and its definitions; a message file
  // (whose root is the envelope) only its definitions.
  void declare_file(const Node& file, bool root_is_type = true) {
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

  // Declares the type at `n` (once) and returns its name.
  std::string declare(const Node& n, const std::string& name) {
    std::string key = n.loc().str();
    if (auto it = declared_.find(key); it != declared_.end()) return it->second;
    if (auto it = names_.find(name); it != names_.end()) {
      n.fail("type name \"" + name + "\" is already used by " + it->second);
    }
    declared_[key] = name;
    names_[name] = key;
    std::size_t index = decls_.size();
    decls_.emplace_back();
    TypeDecl decl;
    decl.name = name;
    decl.doc = optional_text(n, "description");
    decl.loc = n.loc();
    current_deps_.push_back({});
    switch (shape_of(n, true)) {
      case Shape::kStruct:
        decl.kind = TypeDecl::Kind::kStruct;
        decl.struct_ = lower_struct(n, name);
        break;
      case Shape::kEnum:
        decl.kind = TypeDecl::Kind::kEnum;
        decl.enum_ = lower_enum(n);
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

  ir::Struct lower_struct(const Node& n, const std::string& owner) {
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
    for (const std::string& r : required) {
      if (!n.has("properties") || !(*n.json)["properties"].contains(r)) {
        n.child("required").fail("required field \"" + r + "\" has no schema in properties");
      }
    }
    return s;
  }

  // A C++ expression for a default value, or nullopt when it has no simple one.
  std::optional<std::string> default_expression(const Node& d, const TypeRef& type) {
    const Json& v = *d.json;
    if (type.kind == TypeRef::Kind::kArray && v.is_array() && v.empty()) return "{}";
    if (type.kind == TypeRef::Kind::kNamed) {
      const TypeDecl* decl = find_decl(type.name);
      if (decl != nullptr && decl->kind == TypeDecl::Kind::kEnum && v.is_string()) {
        for (const ir::EnumValue& e : decl->enum_.values) {
          if (e.wire == v.get<std::string>()) return type.name + "::" + e.cpp_name;
        }
        d.fail("default is not one of the enum's values");
      }
      return std::nullopt;
    }
    if (type.kind != TypeRef::Kind::kPrimitive) return std::nullopt;
    switch (type.primitive) {
      case Primitive::kString:
        if (!v.is_string()) d.fail("default does not match the type (string)");
        return "std::string(" + v.dump() + ")";
      case Primitive::kBool:
        if (!v.is_boolean()) d.fail("default does not match the type (boolean)");
        return v.dump();
      case Primitive::kInt64:
      case Primitive::kUInt32:
        if (!v.is_number_integer()) d.fail("default does not match the type (integer)");
        return v.dump();
      case Primitive::kDouble:
        if (!v.is_number()) d.fail("default does not match the type (number)");
        return v.is_number_float() ? v.dump() : v.dump() + ".0";
      default:
        return std::nullopt;
    }
  }

  const TypeDecl* find_decl(const std::string& name) const {
    for (const TypeDecl& d : decls_) {
      if (d.name == name) return &d;
    }
    return nullptr;
  }

  ir::Enum lower_enum(const Node& n) {
    ir::Enum e;
    e.integer = integer_enum(n);
    if (!e.integer && single_type(n, nullptr) != "string" && n.has("type")) {
      n.child("type").fail("enums must be of type string or integer");
    }
    Node values = n.child("enum");
    if (!values.json->is_array() || values.json->empty()) values.fail("expected a non-empty array");
    std::vector<std::string> names = string_list(n, "x-enum-names");
    std::vector<std::string> docs = string_list(n, "x-enum-descriptions");
    std::size_t count = values.json->size();
    if (n.has("x-enum-names") && names.size() != count) {
      n.child("x-enum-names").fail("needs one name per enum value");
    }
    if (n.has("x-enum-descriptions") && docs.size() != count) {
      n.child("x-enum-descriptions").fail("needs one description per enum value");
    }
    if (e.integer && names.empty()) n.fail("an integer enum needs \"x-enum-names\"");
    std::set<std::string> seen;
    for (std::size_t i = 0; i < count; ++i) {
      const Json& v = (*values.json)[i];
      ir::EnumValue value;
      if (e.integer) {
        if (!v.is_number_integer()) values.fail("expected integers");
        value.wire = v.dump();
      } else {
        if (!v.is_string()) values.fail("expected strings");
        value.wire = v.get<std::string>();
      }
      value.label = names.empty() ? value.wire : names[i];
      value.cpp_name = constant_name(value.label);
      if (!docs.empty()) value.doc = docs[i];
      if (value.cpp_name == "kUnknown" && !e.integer) {
        values.fail("value \"" + value.wire + "\" would be named kUnknown, which open enums reserve");
      }
      if (!seen.insert(value.cpp_name).second) {
        values.fail("two values map to the C++ name " + value.cpp_name);
      }
      e.values.push_back(std::move(value));
    }
    return e;
  }

  ir::Union lower_union(const Node& n, const std::string& owner) {
    ir::Union u;
    const char* keyword = union_keyword(n);
    Node members = n.child(keyword);
    if (n.has("x-discriminator")) u.discriminator = text(n, "x-discriminator");
    std::set<std::string> keys;
    for (std::size_t i = 0; i < members.json->size(); ++i) {
      Node m = members.item(i);
      ir::UnionMember member;
      member.type = lower_use(m, owner + "Member" + std::to_string(i));
      if (member.type.nullable) m.fail("union members cannot be nullable");
      if (u.discriminator) {
        member.tag = discriminator_value(m, *u.discriminator);
        if (!keys.insert(member.tag).second) m.fail("discriminator value used twice");
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

  std::string discriminator_value(const Node& member, const std::string& key) {
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
  std::string match_key(const Node& m, const TypeRef& t) {
    switch (t.kind) {
      case TypeRef::Kind::kMap:
        return "object";
      case TypeRef::Kind::kArray:
        return "array:" + match_key(m, *t.element);
      case TypeRef::Kind::kNamed: {
        const TypeDecl* d = find_decl(t.name);
        if (d == nullptr) m.fail("union member type is not declared yet (recursive union?)");
        if (d->kind == TypeDecl::Kind::kEnum) return d->enum_.integer ? "integer" : "string";
        if (d->kind == TypeDecl::Kind::kUnion) m.fail("a union cannot be a member of a union");
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

  // ---- uses ----------------------------------------------------------------------------

  void depend(const std::string& name) {
    if (current_deps_.empty()) return;
    auto& deps = current_deps_.back();
    if (std::find(deps.begin(), deps.end(), name) == deps.end()) deps.push_back(name);
  }

  TypeRef named(const std::string& name) {
    depend(name);
    TypeRef t;
    t.kind = TypeRef::Kind::kNamed;
    t.name = name;
    return t;
  }

  TypeRef lower_use(const Node& n, const std::string& hint) {
    if (n.has("$ref")) {
      Node target = schema_.resolve(n, text(n, "$ref"));
      if (!declarable(target)) {
        // A chain of $refs to non-declared schemas: follow it, but not around a cycle.
        std::string key = target.loc().str();
        if (!following_.insert(key).second) n.child("$ref").fail("$ref cycle through " + key);
        TypeRef t = lower_use(target, hint);
        following_.erase(key);
        return t;
      }
      std::string name = declare(target, name_for(target));
      if (shape_of(target, true) != Shape::kMap) return named(name);
      // A named map stays a map (its values' constraints are checked at each use).
      depend(name);
      TypeRef t = lower_use(target, name);
      t.alias = name;
      return t;
    }
    switch (shape_of(n, false)) {
      case Shape::kAny:
        return TypeRef{};
      case Shape::kNullableWrapper: {
        Node inner = n.child(union_keyword(n)).item(static_cast<std::size_t>(nullable_member(n)));
        TypeRef t = lower_use(inner, hint);
        if (t.nullable || (t.kind == TypeRef::Kind::kPrimitive && t.primitive == Primitive::kAny)) {
          n.fail("nullable of a type that already admits null");
        }
        t.nullable = true;
        return t;
      }
      case Shape::kStruct:
      case Shape::kUnion:
        if (!n.has("title")) n.fail("an inline object or union needs a \"title\" (its C++ name)");
        return named(declare(n, text(n, "title")));
      case Shape::kEnum: {
        bool nullable = false;
        single_type(n, &nullable);
        TypeRef t = named(declare(n, n.has("title") ? text(n, "title") : hint));
        t.nullable = nullable;
        return t;
      }
      case Shape::kMap: {
        TypeRef t;
        t.kind = TypeRef::Kind::kMap;
        t.element = std::make_shared<TypeRef>(
            lower_use(n.child("additionalProperties"), hint + "Value"));
        single_type(n, &t.nullable);
        return t;
      }
      case Shape::kArray: {
        TypeRef t;
        t.kind = TypeRef::Kind::kArray;
        t.element = n.has("items") ? std::make_shared<TypeRef>(lower_use(n.child("items"), hint + "Item"))
                                   : std::make_shared<TypeRef>();
        single_type(n, &t.nullable);
        t.constraints.min_items = count(n, "minItems");
        t.constraints.max_items = count(n, "maxItems");
        t.constraints.unique_items = n.has("uniqueItems") && (*n.json)["uniqueItems"] == true;
        return t;
      }
      case Shape::kPrimitive:
        return lower_primitive(n);
    }
    return TypeRef{};
  }

  static std::optional<std::uint64_t> count(const Node& n, std::string_view key) {
    if (!n.has(key)) return std::nullopt;
    Node c = n.child(key);
    if (!c.json->is_number_unsigned() && !(c.json->is_number_integer() && c.json->get<std::int64_t>() >= 0)) {
      c.fail("expected a non-negative integer");
    }
    return c.json->get<std::uint64_t>();
  }

  static std::optional<double> number(const Node& n, std::string_view key) {
    if (!n.has(key)) return std::nullopt;
    Node c = n.child(key);
    if (!c.json->is_number()) c.fail("expected a number");
    return c.json->get<double>();
  }

  // The `pattern` of n, translated for RE2 and compiled once to prove it.
  static ir::Pattern pattern(const Node& n) {
    ir::Pattern p;
    p.source = text(n, "pattern");
    auto translated = ecmascript_to_re2(p.source);
    if (const PatternError* e = std::get_if<PatternError>(&translated)) {
      n.child("pattern").fail("pattern not supported at offset " + std::to_string(e->offset) +
                              ": " + e->reason);
    }
    p.re2 = std::get<std::string>(translated);
    if (std::string error = re2_error(p.re2); !error.empty()) {
      n.child("pattern").fail("pattern does not compile: " + error);
    }
    return p;
  }

  TypeRef lower_primitive(const Node& n) {
    TypeRef t;
    std::string type = single_type(n, &t.nullable);
    if (type == "string") {
      t.primitive = Primitive::kString;
      t.constraints.min_length = count(n, "minLength");
      t.constraints.max_length = count(n, "maxLength");
      if (n.has("pattern")) t.constraints.pattern = pattern(n);
      if (n.has("not")) t.constraints.not_pattern = pattern(n.child("not"));
      if (n.has("format")) {
        std::string format = text(n, "format");
        if (format == "date-time") {
          t.constraints.date_time = true;
        } else if (format != "uri") {
          n.child("format").fail("unsupported format \"" + format + "\" (date-time, uri)");
        }
      }
    } else if (type == "integer") {
      t.constraints.minimum = number(n, "minimum");
      t.constraints.maximum = number(n, "maximum");
      bool fits_u32 = t.constraints.minimum && *t.constraints.minimum >= 0 &&
                      t.constraints.maximum && *t.constraints.maximum <= 4294967295.0;
      t.primitive = fits_u32 ? Primitive::kUInt32 : Primitive::kInt64;
    } else if (type == "number") {
      t.primitive = Primitive::kDouble;
      t.constraints.minimum = number(n, "minimum");
      t.constraints.maximum = number(n, "maximum");
    } else if (type == "boolean") {
      t.primitive = Primitive::kBool;
    } else if (type == "null") {
      t.primitive = Primitive::kNull;
    } else {
      n.child("type").fail("unsupported type \"" + type + "\"");
    }
    return t;
  }

  // ---- messages ------------------------------------------------------------------------

  void lower_message(const Node& file) {
    ir::Message m;
    m.loc = file.loc();
    m.doc = optional_text(file, "description");
    Node props = file.child("properties");
    Node method = props.child("method");
    m.method = text(method, "const");
    m.cpp_name = pascal_case(m.method);
    for (const ir::Message& other : module_.messages) {
      if (other.cpp_name == m.cpp_name) {
        method.fail("method \"" + m.method + "\" maps to the same descriptor name as \"" +
                    other.method + "\"");
      }
    }
    // Unique whenever cpp_name is: both keep the method's letters and digits, word breaks
    // and all (the check above covers both).
    m.function_name = member_name(m.method);
    std::string kind = text(file, "x-kind");
    if (kind != "request" && kind != "notification") {
      file.child("x-kind").fail("expected \"request\" or \"notification\"");
    }
    m.request = kind == "request";
    lower_direction(file, m);
    declare_file(file, false);  // params, result and helpers live in the message's definitions

    Node params = props.child("params");
    Node params_type = params;
    if (int member = nullable_member(params); member >= 0) {
      params_type = params.child(union_keyword(params)).item(static_cast<std::size_t>(member));
    }
    TypeRef p = lower_use(params_type, m.cpp_name + "Params");
    if (p.kind != TypeRef::Kind::kNamed || find_decl(p.name)->kind != TypeDecl::Kind::kStruct) {
      params.fail("params must be an object type");
    }
    m.params_type = p.name;
    const std::vector<ir::Field>& fields = find_decl(p.name)->struct_.fields;
    m.params_all_optional = std::none_of(fields.begin(), fields.end(),
                                         [](const ir::Field& f) { return f.required; });
    std::vector<std::string> required = string_list(file, "required");
    if (std::find(required.begin(), required.end(), "params") != required.end()) {
      m.params_presence = ir::Message::ParamsPresence::kRequired;
    } else {
      m.params_presence = params.has("default") ? ir::Message::ParamsPresence::kOptionalSendEmpty
                                                : ir::Message::ParamsPresence::kOptionalOmit;
    }

    if (m.request != file.has("x-result")) {
      file.fail(m.request ? "a request needs \"x-result\"" : "a notification has no \"x-result\"");
    }
    if (m.request) m.result = lower_use(file.child("x-result"), m.cpp_name + "Result");
    lower_gate(file, m);
    lower_errors(file, m);
    if (file.has("x-deadline")) {
      if (!m.request) file.child("x-deadline").fail("only requests have a deadline");
      m.deadline = duration_constant(file.child("x-deadline"));
    } else if (m.request && schema_.root().has("x-default-deadline")) {
      m.deadline = duration_constant(schema_.root().child("x-default-deadline"));
    }
    module_.messages.push_back(std::move(m));
  }

  // Dispatch tables per direction and role surfaces per receiving role, in role order.
  void lower_surfaces() {
    auto receives = [this](const std::string& from, const std::string& to) {
      return std::any_of(module_.messages.begin(), module_.messages.end(),
                         [&](const ir::Message& m) {
                           return m.to == to && (from.empty() || m.from == from);
                         });
    };
    for (const std::string& from : module_.roles) {
      for (const std::string& to : module_.roles) {
        if (from != to && receives(from, to)) {
          module_.directions.push_back({from, to, pascal_case(from) + "To" + pascal_case(to)});
        }
      }
    }
    for (const std::string& role : module_.roles) {
      if (receives("", role)) {
        module_.surfaces.push_back({role, pascal_case(role) + "Handler", pascal_case(role) + "Client"});
      }
    }
  }

  // The C++ name of the duration constant a string node names.
  std::string duration_constant(const Node& n) {
    if (!n.json->is_string()) n.fail("expected the name of a duration constant");
    std::string name = n.json->get<std::string>();
    auto it = constants_.find(name);
    if (it == constants_.end() || it->second.kind != ir::Constant::Kind::kDurationMs ||
        it->second.array) {
      n.fail("\"" + name + "\" is not a duration constant of the protocol");
    }
    return it->second.cpp_name;
  }

  void lower_direction(const Node& file, ir::Message& m) {
    std::string direction = text(file, "x-direction");
    for (const std::string& from : module_.roles) {
      for (const std::string& to : module_.roles) {
        if (from != to && direction == from + "_to_" + to) {
          m.from = from;
          m.to = to;
          return;
        }
      }
    }
    file.child("x-direction").fail("expected \"<role>_to_<role>\" with roles from x-roles");
  }

  void lower_gate(const Node& file, ir::Message& m) {
    if (!file.has("x-gate")) return;
    Node gate = file.child("x-gate");
    if (!gate.json->is_array()) gate.fail("expected an array of gate clauses");
    for (std::size_t i = 0; i < gate.json->size(); ++i) {
      Node c = gate.item(i);
      ir::GateClause clause;
      if (c.has("granted") && c.has("value") && !c.has("param")) {
        clause.kind = ir::GateClause::Kind::kGrantedValue;
        clause.list = text(c, "granted");
        clause.value = text(c, "value");
      } else if (c.has("granted") && c.has("param") && !c.has("value")) {
        clause.kind = ir::GateClause::Kind::kGrantedParam;
        clause.list = text(c, "granted");
        clause.param = text(c, "param");
      } else if (c.has("declared") && c.has("param")) {
        clause.kind = ir::GateClause::Kind::kDeclaredParam;
        clause.list = text(c, "declared");
        clause.param = text(c, "param");
      } else {
        c.fail("expected {granted, value}, {granted, param} or {declared, param}");
      }
      m.gate.push_back(std::move(clause));
    }
  }

  void lower_errors(const Node& file, ir::Message& m) {
    std::vector<std::string> names = string_list(file, "x-errors");
    if (names.empty()) return;
    if (!module_.error_code_type) {
      file.child("x-errors").fail("x-errors needs \"x-error-codes\" in the protocol file");
    }
    const TypeDecl* codes = find_decl(*module_.error_code_type);
    for (const std::string& name : names) {
      std::string cpp = constant_name(name);
      bool known = std::any_of(codes->enum_.values.begin(), codes->enum_.values.end(),
                               [&](const ir::EnumValue& v) { return v.cpp_name == cpp; });
      if (!known) file.child("x-errors").fail("unknown error name \"" + name + "\"");
      m.errors.push_back(cpp);
    }
  }

  // ---- ordering ------------------------------------------------------------------------

  // Declaration order, except that a type comes after every type it holds by value.
  std::vector<TypeDecl> sorted_types() {
    std::vector<TypeDecl> out;
    std::map<std::string, int> state;  // 1 = visiting, 2 = done
    std::function<void(const TypeDecl&)> visit = [&](const TypeDecl& d) {
      int& s = state[d.name];
      if (s == 2) return;
      if (s == 1) throw SchemaError(d.loc.file, d.loc.pointer, "type " + d.name + " contains itself");
      s = 1;
      for (const std::string& dep : d.depends_on) visit(*find_decl(dep));
      state[d.name] = 2;
      out.push_back(d);
    };
    for (const TypeDecl& d : decls_) visit(d);
    return out;
  }

  const SchemaSet& schema_;
  ir::Module module_;
  std::map<std::string, ir::Constant> constants_;   // by wire name
  std::map<std::string, std::string> declared_;     // location -> name
  std::map<std::string, std::string> names_;        // name -> location
  std::vector<TypeDecl> decls_;                     // in declaration order
  std::set<std::string> following_;                 // $ref targets being followed (cycles)
  // Stack, one entry per declaration in progress: the types it holds, in schema order.
  std::vector<std::vector<std::string>> current_deps_;
};

}  // namespace

ir::Module lower(const SchemaSet& schema) { return Lowerer(schema).run(); }

}  // namespace rpckit::gen
