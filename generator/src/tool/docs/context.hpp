#pragma once
// What every section of the reference reads: the inputs, lookups from the IR's C++ names back
// to wire names, and how types, constraints, gates, constants and JSON are spelled.
#include <map>
#include <string>
#include <vector>

#include "rpckit/model/protocol.hpp"
#include "tool/docs/docs.hpp"

namespace rpckit::docs {

namespace ir = gen::ir;

// Link keys of headings (see md::Document).
std::string type_key(const std::string& type_name);
std::string message_key(const std::string& method);
inline constexpr const char* kProfileKey = "section:profile";
inline constexpr const char* kExchangeKey = "section:exchange";
inline constexpr const char* kErrorsKey = "section:errors";
inline constexpr const char* kCapabilitiesKey = "section:capabilities";
inline constexpr const char* kConstantsKey = "section:constants";
inline constexpr const char* kTypesKey = "section:types";

class Context {
 public:
  Context(const gen::SchemaSet& schema, const ir::Module& module, const Examples& examples);

  const gen::SchemaSet& schema;
  const model::Protocol protocol;  // the schema's annotations (x-profile, x-exchange, constants)
  const ir::Module& module;
  const Examples& examples;

  const ir::TypeDecl* type(const std::string& name) const;
  const ir::Message* message(const std::string& method) const;
  const ir::Message* message_by_descriptor(const std::string& cpp_name) const;
  const ir::Constant* constant(const std::string& cpp_name) const;
  const ir::Constant* constant_by_wire(const std::string& wire_name) const;
  const ir::TypeDecl* error_enum() const { return error_enum_; }
  const ir::EnumValue* error(const std::string& enumerator) const;
  // The message whose section shows `type_name` (its params or result, declared in its file).
  const ir::Message* shown_in_message(const std::string& type_name) const;
  // The file of the capability vocabulary ("capabilities.json" among x-types), or "".
  const std::string& capabilities_file() const { return capabilities_file_; }
  // The grant's struct (the handshake params member the profile names), or nullptr.
  const ir::TypeDecl* grant_type() const { return grant_type_; }
  // The enum a grant list holds ("events" -> "EventName"), or "".
  std::string grant_list_enum(const std::string& list) const;

  // Markdown for a use of a type, links to named types ("array of [`Channel`](...)"). The
  // use's own nullability is left to the caller (a column of its own); nested ones are spelled.
  std::string type_text(const ir::TypeRef& t) const;
  // "minLength: 1, pattern: `^[a-z]+$`, items: maxLength: 16" ("" when none).
  std::string constraints_text(const ir::TypeRef& t) const;
  // A field's constraints, with what only the schema keeps (a `format` other than date-time).
  std::string field_constraints(const ir::Field& f) const;
  std::string gate_text(const ir::GateClause& g) const;
  // "`30000` ms" (the schema's const as JSON, with its unit).
  std::string constant_value(const ir::Constant& c) const;
  // "`30000` ms ([`default_request_timeout_ms`](#constants))".
  std::string constant_reference(const std::string& cpp_name) const;
  // "[`capability_denied`](#error-codes) (-32000)".
  std::string error_reference(const std::string& enumerator) const;
  std::string message_link(const std::string& method) const;
  std::string type_link(const std::string& name) const;

 private:
  std::map<std::string, const ir::TypeDecl*> types_;
  std::map<std::string, const ir::Message*> shown_in_;
  const ir::TypeDecl* error_enum_ = nullptr;
  const ir::TypeDecl* grant_type_ = nullptr;
  std::string capabilities_file_;
};

// JSON text for the page: compact with a space after ':' and ',' ({"a": 1, "b": [1, 2]}).
std::string json_inline(const gen::Json& j);
// The same, broken over lines (2-space indent) where a line would pass `width` columns.
std::string json_block(const gen::Json& j, std::size_t width = 90);

// "`a`, `b`" with each item through `f`.
template <typename List, typename F>
std::string join(const List& list, F f, const char* sep = ", ") {
  std::string out;
  for (const auto& item : list) {
    if (!out.empty()) out += sep;
    out += f(item);
  }
  return out;
}

}  // namespace rpckit::docs
