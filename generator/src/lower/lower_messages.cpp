// Lowering of the message files (descriptor, direction, gate, errors, deadline) and of the
// dispatch tables and role surfaces they make.
#include <algorithm>

#include "lower/lowerer.hpp"
#include "lower/names.hpp"
#include "lower/profile_values.hpp"
#include "lower/schema_node.hpp"
#include "model.hpp"

namespace rpckit::gen {

void Lowerer::lower_message(const model::Message& message) {
  const Node& file = message.file;
  ir::Message m;
  m.loc = file.loc();
  m.doc = optional_text(file, "description");
  Node props = file.child("properties");
  Node method = props.child("method");
  m.method = text(method, "const");
  m.cpp_name = pascal_case(m.method);
  if (const std::string owner = descriptor_owner(m.cpp_name, m); !owner.empty()) {
    method.fail("method \"" + m.method + "\" maps to the same descriptor name as " + owner);
  }
  // Unique whenever cpp_name is: both keep the method's letters and digits, word breaks
  // and all (the check above covers both).
  m.function_name = member_name(m.method);
  std::string kind = text(file, kw(Annotation::kKind));
  if (kind != "request" && kind != "notification") {
    message.kind->reject("expected \"request\" or \"notification\"");
  }
  m.request = kind == "request";
  lower_direction(message, m);
  declare_file(file, false);  // params, result and helpers live in the message's definitions

  Node params = props.child("params");
  Node params_type = params;
  if (int member = nullable_member(params); member >= 0) {
    params_type = params.child(union_keyword(params)).item(static_cast<std::size_t>(member));
  }
  TypeRef p = lower_use(params_type, m.cpp_name + "Params");
  if (p.kind != TypeRef::Kind::kNamed || find_decl(p.name)->kind != TypeDecl::Kind::kStruct) {
    params.reject("params must be an object type");
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

  if (m.request != message.result.has_value()) {
    file.fail(m.request ? "a request needs \"x-result\"" : "a notification has no \"x-result\"");
  }
  if (m.request) m.result = lower_use(*message.result, m.cpp_name + "Result");
  lower_results_when(message, m);
  lower_gate(message, m);
  lower_errors(message, m);
  if (message.deadline) {
    if (!m.request) message.deadline->fail("only requests have a deadline");
    // "none": a request answered when it is done, however long (MCP's tasks/result), not the
    // protocol's x-default-deadline; a caller may still give one per call.
    if (*message.deadline->json != "none") m.deadline = duration_constant(*message.deadline);
  } else if (const auto fallback = model::annotation(schema_.root(), Annotation::kDefaultDeadline);
             fallback && m.request) {
    m.deadline = duration_constant(*fallback);
  }
  module_.messages.push_back(std::move(m));
}

// Who already has the descriptor name `name`: "\"<method>\"", or "\"<method>\"'s
// x-result-when entry \"<member>\"" (of the messages lowered so far, and of `current`'s
// entries so far); "" when nobody.
std::string Lowerer::descriptor_owner(const std::string& name, const ir::Message& current) const {
  auto entry_owner = [&](const ir::Message& msg) -> std::string {
    for (const ir::Message::ResultWhen& r : msg.results_when) {
      if (r.cpp_name == name)
        return "\"" + msg.method + "\"'s x-result-when entry \"" + r.member + "\"";
    }
    return "";
  };
  for (const ir::Message& other : module_.messages) {
    if (other.cpp_name == name) return "\"" + other.method + "\"";
    if (std::string owner = entry_owner(other); !owner.empty()) return owner;
  }
  return entry_owner(current);
}

// x-result-when: {"<params member>": <result schema>}: an optional member of the params, each
// answered with a result of its own, through a descriptor of its own.
void Lowerer::lower_results_when(const model::Message& message, ir::Message& m) {
  if (!message.result_when) return;
  const Node& when = *message.result_when;
  if (!m.request) when.fail("a notification has no result");
  if (!when.json->is_object() || when.json->empty()) {
    when.reject("expected {\"<params member>\": <the result a request carrying it gets>}");
  }
  // A copy: lowering a result below may add declarations, which moves the params' own.
  const std::vector<ir::Field> fields = find_decl(m.params_type)->struct_.fields;
  for (const auto& [written, schema] : message.results_when()) {
    const std::string& member = written;  // a name the lambda below can capture (clang 14)
    const Node entry = when.child(member);
    auto field = std::find_if(fields.begin(), fields.end(),
                              [&](const ir::Field& f) { return f.wire_name == member; });
    if (field == fields.end()) entry.fail(m.method + "'s params have no member \"" + member + "\"");
    if (field->required || field->const_json) {
      entry.fail("params." + member + " is always there: every request would get this result");
    }
    ir::Message::ResultWhen r;
    r.member = member;
    r.field = field->cpp_name;
    r.cpp_name = m.cpp_name + "With" + pascal_case(member);
    r.function_name = m.function_name + "_with_" + member_name(member);
    if (const std::string owner = descriptor_owner(r.cpp_name, m); !owner.empty()) {
      entry.fail("its descriptor " + r.cpp_name + " has the name of " + owner);
    }
    r.result = lower_use(schema, r.cpp_name + "Result");
    m.results_when.push_back(std::move(r));
  }
}

// Dispatch tables per direction and role surfaces per receiving role, in role order.
void Lowerer::lower_surfaces() {
  auto receives = [this](const std::string& from, const std::string& to) {
    return std::any_of(module_.messages.begin(), module_.messages.end(), [&](const ir::Message& m) {
      return from.empty() ? m.received_by(to) : m.goes(from, to);
    });
  };
  for (const std::string& from : module_.roles) {
    for (const std::string& to : module_.roles) {
      if (from != to && receives(from, to)) {
        module_.directions.push_back({from, to, direction_name(from, to)});
      }
    }
  }
  for (const std::string& role : module_.roles) {
    if (receives("", role)) {
      module_.surfaces.push_back({role, handler_name(role), client_name(role)});
    }
  }
}

// The C++ name of the duration constant a string node names.
std::string Lowerer::duration_constant(const Node& n) {
  if (!n.json->is_string()) n.reject("expected the name of a duration constant");
  return timing_constant(n, ir::Profile::Timing::Kind::kDuration, module_);
}

// x-direction: "<role>_to_<role>", or an array of those for a message both sides send.
void Lowerer::lower_direction(const model::Message& message, ir::Message& m) {
  std::vector<std::string> directions;
  for (const std::string& from : module_.roles) {
    for (const std::string& to : module_.roles) {
      if (from != to) directions.push_back(from + "_to_" + to);
    }
  }
  auto route = [&](const Node& n) {
    const std::string text = n.json->is_string() ? n.json->get<std::string>() : "";
    if (std::find(directions.begin(), directions.end(), text) == directions.end()) {
      n.reject("expected \"<role>_to_<role>\" with roles from x-roles (" + quoted_list(directions) +
               ")");
    }
    const auto at = text.find("_to_");
    ir::Message::Route r{text.substr(0, at), text.substr(at + 4)};
    if (m.goes(r.from, r.to)) n.fail("direction \"" + text + "\" is listed twice");
    m.routes.push_back(std::move(r));
  };
  const Node direction = message.file.child(kw(Annotation::kDirection));
  if (!direction.json->is_array()) return route(direction);
  if (direction.json->empty()) direction.reject("expected at least one direction");
  for (std::size_t i = 0; i < direction.json->size(); ++i) route(direction.item(i));
}

void Lowerer::lower_gate(const model::Message& message, ir::Message& m) {
  if (!message.gate) return;
  const Node& gate = *message.gate;
  if (!gate.json->is_array()) gate.reject("expected an array of gate clauses");
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
    } else if (c.has("sender_capability") && c.json->size() == 1) {
      // What the sender declared of itself in the handshake (profile grant / result_grant,
      // read from the sender's side: MCP's list_changed notifications).
      clause.kind = ir::GateClause::Kind::kSenderCapability;
      clause.list = text(c, "sender_capability");
    } else if (c.has("capability") && c.has("keyed_by") && c.has("default") &&
               c.json->size() == 3) {
      // A capability object whose members are the choices a param makes (MCP's elicitation
      // modes), the param's absence meaning `default`.
      clause.kind = ir::GateClause::Kind::kKeyedCapability;
      clause.list = text(c, "capability");
      clause.param = text(c, "keyed_by");
      clause.value = text(c, "default");
    } else if (c.has("capability") && !c.has("granted") && !c.has("declared") && !c.has("value") &&
               !c.has("keyed_by") && !c.has("default")) {
      // The peer's capabilities from the handshake (profile grant / result_grant).
      clause.kind = c.has("param") ? ir::GateClause::Kind::kParamCapability
                                   : ir::GateClause::Kind::kCapability;
      clause.list = text(c, "capability");
      if (c.has("param")) clause.param = text(c, "param");
    } else {
      c.reject(
          "expected {granted, value}, {granted, param}, {declared, param}, {capability}, "
          "{capability, param}, {capability, keyed_by, default} or {sender_capability}");
    }
    m.gate.push_back(std::move(clause));
  }
}

void Lowerer::lower_errors(const model::Message& message, ir::Message& m) {
  std::vector<std::string> names = string_list(message.file, kw(Annotation::kErrors));
  if (names.empty()) return;
  if (!module_.error_code_type) {
    message.errors->fail(std::string(kw(Annotation::kErrors)) +
                         " needs \"x-error-codes\" in the protocol file");
  }
  const TypeDecl* codes = find_decl(*module_.error_code_type);
  for (std::size_t i = 0; i < names.size(); ++i) {
    m.errors.push_back(error_enumerator(message.errors->item(i), *codes));
  }
}

}  // namespace rpckit::gen
