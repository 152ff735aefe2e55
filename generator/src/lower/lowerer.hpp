#pragma once
// Lowerer: the state of one lowering run (lower.hpp) and its steps, one file per job:
//   lower.cpp           the run, protocol constants, declaration order
//   lower_types.cpp     declared types: structs, enums, unions, named maps, defaults
//   lower_uses.cpp      where a type is used: references, arrays, maps, primitives, constraints
//   lower_messages.cpp  message descriptors, dispatch tables, role surfaces
// Private to lower/.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ir/ir.hpp"
#include "lower/lower.hpp"
#include "model.hpp"

namespace rpckit::gen {

using ir::Primitive;
using ir::TypeDecl;
using ir::TypeRef;

class Lowerer {
 public:
  Lowerer(const SchemaSet& schema, LowerOptions options) : schema_(schema), options_(options) {}

  ir::Module run();

 private:
  // lower.cpp
  void lower_constants(const Node& root);
  // x-type-schemas: each struct's JSON Schema on its own (type_schema.hpp).
  void lower_type_schemas(const Node& root);
  // Declaration order, except that a type comes after every type it holds by value.
  std::vector<TypeDecl> sorted_types();

  // lower_types.cpp
  static bool integer_enum(const Node& n);
  static std::string name_for(const Node& n);
  static bool declarable(const Node& n);
  void declare_file(const Node& file, bool root_is_type = true);
  void reserve_name(const Node& n, const std::string& name);
  std::string declare(const Node& n, const std::string& name);
  const TypeDecl* find_decl(const std::string& name) const;
  ir::Struct lower_struct(const Node& n, const std::string& owner);
  void lower_error_data(const model::Protocol& protocol, const Node& codes);
  void lower_required_alternatives(const Node& n, const std::string& owner, ir::Struct& s);
  std::optional<std::string> default_expression(const Node& d, const TypeRef& type);
  ir::Enum lower_enum(const Node& n, const std::string& name);
  ir::Union lower_union(const Node& n, const std::string& owner);
  std::string discriminator_value(const Node& member, const std::string& key);
  std::string match_key(const Node& m, const TypeRef& t);

  // lower_uses.cpp
  void depend(const std::string& name);
  TypeRef named(const std::string& name);
  TypeRef lower_use(const Node& n, const std::string& hint);
  static std::optional<std::uint64_t> count(const Node& n, std::string_view key);
  static std::optional<double> number(const Node& n, std::string_view key);
  static ir::Pattern pattern(const Node& n);
  // x-error-messages: the readable text for a failed `pattern` / `not` (schema/README.md).
  static void error_messages(const Node& n, ir::Constraints& constraints);
  TypeRef lower_primitive(const Node& n);

  // lower_messages.cpp
  void lower_message(const model::Message& message);
  void lower_surfaces();
  std::string duration_constant(const Node& n);
  void lower_direction(const model::Message& message, ir::Message& m);
  void lower_gate(const model::Message& message, ir::Message& m);
  void lower_results_when(const model::Message& message, ir::Message& m);
  std::string descriptor_owner(const std::string& name, const ir::Message& current) const;
  void lower_errors(const model::Message& message, ir::Message& m);

  const SchemaSet& schema_;
  LowerOptions options_;
  ir::Module module_;
  std::map<std::string, std::string> declared_;     // location -> name
  std::map<std::string, std::string> names_;        // name -> location
  std::vector<TypeDecl> decls_;                     // in declaration order
  std::set<std::string> following_;                 // $ref targets being followed (cycles)
  // Stack, one entry per declaration in progress: the types it holds, in schema order.
  std::vector<std::vector<std::string>> current_deps_;
};

}  // namespace rpckit::gen
