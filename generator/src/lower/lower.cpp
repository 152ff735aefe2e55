#include "lower/lower.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include "lower/exchange.hpp"
#include "lower/lowerer.hpp"
#include "lower/names.hpp"
#include "lower/profile.hpp"
#include "lower/schema_node.hpp"
#include "lower/type_schema.hpp"

namespace rpckit::gen {

ir::Module Lowerer::run() {
  const model::Protocol protocol = model::Protocol::link(schema_);
  Node root = schema_.root();
  module_.title = optional_text(root, "title");
  module_.doc = optional_text(root, "description");
  module_.cpp_namespace = text(root, kw(Annotation::kNamespace));
  module_.name = text(root, kw(Annotation::kModule));
  module_.roles = string_list(root, kw(Annotation::kRoles));
  for (const std::string& role : module_.roles) {
    module_.role_enumerators.push_back(constant_name(role));
  }
  module_.schema_hash = schema_.hash();
  lower_constants(root);
  std::optional<Node> error_codes;
  if (const auto codes = protocol.annotation(Annotation::kErrorCodes)) {
    error_codes = schema_.resolve(*codes, text(root, kw(Annotation::kErrorCodes)));
    if (shape_of(*error_codes, true) != Shape::kEnum || !integer_enum(*error_codes)) {
      codes->reject("must reference an integer enum");
    }
    module_.error_code_type = declare(*error_codes, name_for(*error_codes));
  }
  // The loader has checked both lists' form and loaded every file they name.
  for (const Node& file : protocol.type_files()) declare_file(file);
  for (const model::Message& message : protocol.messages()) lower_message(message);
  // After the messages: a data type no message uses is declared last.
  if (error_codes) lower_error_data(protocol, *error_codes);
  module_.types = sorted_types();
  lower_type_schemas(root);
  lower_surfaces();
  if (const auto& profile = protocol.profile()) {
    module_.profile = lower_profile(*profile, module_, options_.accept_legacy_profile);
  }
  if (const auto exchange = protocol.annotation(Annotation::kExchange)) {
    if (module_.profile) exchange->fail("a protocol has x-profile or x-exchange, not both");
    module_.exchange = lower_exchange(*exchange, module_);
  }
  return std::move(module_);
}

// x-error-data on the error codes: each key one of their names, each value the schema of
// error.data under that code.
void Lowerer::lower_error_data(const model::Protocol& protocol, const Node& codes) {
  const auto written = model::annotation(codes, Annotation::kErrorData);
  if (!written) return;  // an object of schemas (the loader checked)
  // A copy: lowering a schema below may declare types, which moves the declarations.
  const std::vector<ir::EnumValue> values = find_decl(*module_.error_code_type)->enum_.values;
  std::vector<std::string> labels(values.size());
  std::transform(values.begin(), values.end(), labels.begin(),
                 [](const ir::EnumValue& v) { return v.label; });
  for (const auto& item : written->json->items()) {
    const std::string& name = item.key();
    if (std::find(labels.begin(), labels.end(), name) == labels.end()) {
      written->child(name).fail("\"" + name + "\" is not an error name of " +
                                *module_.error_code_type + " (" + quoted_list(labels) + ")");
    }
  }
  for (const model::ErrorDataSchema& d : protocol.error_data()) {
    for (const ir::EnumValue& v : values) {
      if (v.label != d.name) continue;
      TypeRef type = lower_use(d.schema, pascal_case(v.label) + "Data");
      // errors.hpp's reader decodes the data; the checks of a constrained use are written
      // where a member holds it, so the data's own constraints must live in a declared type.
      for (const TypeRef* t = &type; t != nullptr; t = t->element.get()) {
        if (!t->constraints.empty()) {
          d.schema.fail(
              "constraints on error data itself are not checked: make it a declared "
              "type (a $ref to an object) that holds them");
        }
      }
      module_.error_data.push_back({.wire = v.wire,
                                    .label = v.label,
                                    .enumerator = v.cpp_name,
                                    .cpp_name = member_name(v.label),
                                    .type = std::move(type)});
    }
  }
}

void Lowerer::lower_type_schemas(const Node& root) {
  const auto flag = model::annotation(root, Annotation::kTypeSchemas);
  if (!flag) return;
  if (!flag->json->is_boolean()) flag->reject("expected true or false");
  if (!flag->json->get<bool>()) return;
  for (ir::TypeDecl& d : module_.types) {
    if (d.kind != ir::TypeDecl::Kind::kStruct) continue;
    const Node at = schema_.resolve(schema_.file(d.loc.file), "#" + d.loc.pointer);
    d.json_schema = self_contained_schema(schema_, at);
  }
}

void Lowerer::lower_constants(const Node& root) {
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
    const auto unit = model::annotation(n, Annotation::kUnit);
    const bool ms = unit.has_value();
    if (ms && text(n, kw(Annotation::kUnit)) != "ms") unit->reject("only \"ms\" is supported");
    for (const Json& item : items) {
      // nlohmann stores 1 as unsigned and -1 as signed: both are JSON integers.
      bool same =
          item.type() == first.type() || (item.is_number_integer() && first.is_number_integer());
      if (!same) n.child("const").reject("array items differ in type");
      c.values.push_back(item.is_string() ? Json(item.get<std::string>()).dump() : item.dump());
    }
    if (first.is_number_integer() || first.is_number_unsigned()) {
      c.kind = ms ? ir::Constant::Kind::kDurationMs : ir::Constant::Kind::kInteger;
    } else if (ms) {
      n.child("const").reject("a duration (x-unit \"ms\") must be an integer number of ms");
    } else if (first.is_number_float()) {
      c.kind = ir::Constant::Kind::kNumber;
    } else if (first.is_string()) {
      c.kind = ir::Constant::Kind::kString;
    } else if (first.is_boolean()) {
      c.kind = ir::Constant::Kind::kBool;
    } else {
      n.child("const").reject("a constant must be an integer, number, string or boolean");
    }
    module_.constants.push_back(std::move(c));
  }
}

// Declaration order, except that a type comes after every type it holds by value.
std::vector<TypeDecl> Lowerer::sorted_types() {
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

ir::Module lower(const SchemaSet& schema, LowerOptions options) {
  return Lowerer(schema, options).run();
}

}  // namespace rpckit::gen
