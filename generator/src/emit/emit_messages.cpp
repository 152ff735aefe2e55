// messages.hpp: one descriptor struct per message (method, kind, roles, params/result types,
// params policy, capability gate, deadline, errors), and the Role enum.
#include <algorithm>

#include "emit/common.hpp"
#include "emit/declarations.hpp"
#include "emit/emit.hpp"
#include "emit/preamble.hpp"

namespace rpckit::gen {
namespace {

const char* clause_kind(ir::GateClause::Kind k) {
  switch (k) {
    case ir::GateClause::Kind::kGrantedValue: return "kGrantedValue";
    case ir::GateClause::Kind::kGrantedParam: return "kGrantedParam";
    case ir::GateClause::Kind::kDeclaredParam: return "kDeclaredParam";
    case ir::GateClause::Kind::kCapability:
      return "kCapability";
    case ir::GateClause::Kind::kParamCapability:
      return "kParamCapability";
    case ir::GateClause::Kind::kSenderCapability:
      return "kSenderCapability";
    case ir::GateClause::Kind::kKeyedCapability:
      return "kKeyedCapability";
  }
  return "";
}

// kRoutes always; kFrom and kTo too when the message goes one way only.
std::string routes_members(const ir::Module& m, const ir::Message& msg, const std::string& role) {
  std::string out;
  if (msg.routes.size() == 1) {
    out += "static constexpr " + role + " kFrom = " + role +
           "::" + m.role_enumerator(msg.routes[0].from) + ";\n";
    out += "static constexpr " + role + " kTo = " + role +
           "::" + m.role_enumerator(msg.routes[0].to) + ";\n";
  }
  return out + "static constexpr " + routes_declaration(m, msg, role) + ";\n";
}

// x-result-when: "" when the Result of descriptor `self` answers `params`, else the name of the
// descriptor whose Result does (the first entry whose member the params carry). Typed calls
// refuse params their descriptor's Result does not answer (rpckit/endpoint/typed.hpp).
void emit_answered_by(Printer& p, const ir::Message& msg, const std::string& self) {
  p.print(
      "/// \"\" when Result answers these params; else the descriptor whose Result does\n"
      "/// (x-result-when: a request carrying its member is answered with another result).\n"
      "static std::string_view answered_by(const Params& params) noexcept {\n");
  for (const ir::Message::ResultWhen& r : msg.results_when) {
    p.print("  if (params.$field$.has_value()) return \"$name$\";\n",
            {{"field", r.field}, {"name", r.cpp_name == self ? "" : r.cpp_name}});
  }
  p.print("  return \"$name$\";\n}\n", {{"name", msg.cpp_name == self ? "" : msg.cpp_name}});
}

// The descriptor of a request whose params carry r.member: the message's, answered with
// r.result.
void emit_result_when(Printer& p, const ir::Module& m, const ir::Message& msg,
                      const ir::Message::ResultWhen& r) {
  doc_comment(p, msg.method + " whose params carry " + r.member +
                     " (x-result-when): answered with " + cpp_type(r.result) + " instead of " +
                     msg.cpp_name + "::Result.");
  p.print("struct $name$ : $base$ {\n", {{"base", msg.cpp_name}, {"name", r.cpp_name}});
  {
    Printer::Indent in(p);
    p.print("using Result = $result$;\n", {{"result", descriptor_type(m, r.result)}});
    emit_answered_by(p, msg, r.cpp_name);
  }
  p.print("};\n\n");
}

void emit_descriptor(Printer& p, const ir::Module& m, const ir::Message& msg) {
  std::string role = spell_in_messages(m, "Role");
  doc_comment(p, msg.doc);
  p.print("struct $name$ {\n", {{"name", msg.cpp_name}});
  {
    Printer::Indent in(p);
    p.print(
        "static constexpr std::string_view kMethod = \"$method$\";\n"
        "static constexpr rpckit::MessageKind kKind = rpckit::MessageKind::$kind$;\n"
        "$routes$"
        "using Params = $params$;\n"
        "static constexpr rpckit::ParamsPresence kParamsPresence = "
        "rpckit::ParamsPresence::$presence$;\n",
        {{"method", msg.method},
         {"kind", msg.request ? "kRequest" : "kNotification"},
         {"role", role},
         {"routes", routes_members(m, msg, role)},
         {"params", spell_in_messages(m, msg.params_type)},
         {"presence", params_presence_name(msg.params_presence)}});
    if (msg.request) {
      p.print("using Result = $result$;\n", {{"result", descriptor_result_type(m, msg)}});
      if (msg.deadline) {
        p.print("static constexpr std::chrono::milliseconds kDeadline = $deadline$;\n",
                {{"deadline", *msg.deadline}});
      }
      if (!msg.results_when.empty()) emit_answered_by(p, msg, msg.cpp_name);
    }
  }
  // kGate and kErrors are views of arrays the descriptor keeps to itself: a clause or an error
  // added in a later version of the schema changes no declaration a user's code can name.
  std::string gate;
  for (const ir::GateClause& c : msg.gate) {
    gate += "\n    rpckit::GateClause{rpckit::GateClause::Kind::" + std::string(clause_kind(c.kind)) +
            ", \"" + c.list + "\", \"" + c.value + "\", \"" + c.param + "\"},";
  }
  const std::string error_type =
      m.error_code_type ? spell_in_messages(m, *m.error_code_type) : std::string();
  std::string errors;
  for (const std::string& e : msg.errors) {
    errors += (errors.empty() ? "" : ", ") + error_type + "::" + e;
  }
  const bool gated = !msg.gate.empty();
  const bool has_errors = m.error_code_type && !msg.errors.empty();
  if (gated || has_errors) {
    p.print("\n private:\n");
    Printer::Indent in(p);
    if (gated) {
      p.print("static constexpr rpckit::GateClause kGateClauses[] = {$gate$\n};\n",
              {{"gate", gate}});
    }
    if (has_errors) {
      p.print("static constexpr $type$ kErrorCodes[] = {$errors$};\n",
              {{"type", error_type}, {"errors", errors}});
    }
  }
  if (gated || has_errors) p.print("\n public:\n");
  Printer::Indent in(p);
  p.print("static constexpr std::span<const rpckit::GateClause> kGate = $gate$;\n",
          {{"gate", gated ? "kGateClauses" : "{}"}});
  if (m.error_code_type) {
    p.print("static constexpr std::span<const $type$> kErrors = $errors$;\n",
            {{"type", error_type}, {"errors", has_errors ? "kErrorCodes" : "{}"}});
  }
}

}  // namespace

std::string emit_messages_header(const ir::Module& m) {
  Printer p;
  // A result that is a map or an array as a whole (no generated type of its own) is encoded
  // and decoded by the codec's container templates, which the typed roles must see.
  auto whole = [](const ir::TypeRef& t) {
    return t.kind == ir::TypeRef::Kind::kMap || t.kind == ir::TypeRef::Kind::kArray;
  };
  const bool whole_containers =
      std::any_of(m.messages.begin(), m.messages.end(), [&](const ir::Message& msg) {
        return (msg.result && whole(*msg.result)) ||
               std::any_of(msg.results_when.begin(), msg.results_when.end(),
                           [&](const ir::Message::ResultWhen& r) { return whole(r.result); });
      });
  std::vector<std::string> rpckit = {"descriptors/message.hpp"};
  if (whole_containers) rpckit.insert(rpckit.begin(), "codec/codec.hpp");
  open_file(p, m,
            {.standard = {"array", "chrono", "cstdint", "span", "string_view"},
             .module = {"constants.hpp", "types.hpp"},
             .rpckit = rpckit});
  p.print("enum class Role : std::uint8_t {");
  for (std::size_t i = 0; i < m.roles.size(); ++i) {
    p.print(i == 0 ? " $r$" : ", $r$", {{"r", m.role_enumerators[i]}});
  }
  p.print(" };\n\nconstexpr std::string_view to_string(Role role) noexcept {\n  switch (role) {\n");
  for (const std::string& r : m.roles) {
    p.print("    case Role::$c$: return \"$r$\";\n", {{"c", m.role_enumerator(r)}, {"r", r}});
  }
  p.print(
      "  }\n"
      "  return {};\n"
      "}\n"
      "\n"
      "// One descriptor per message (rpckit/descriptors/message.hpp): its method, kind, roles,\n"
      "// params and result types, params policy, the capability gate (allowed when every\n"
      "// clause holds; empty = ungated), the default deadline of a request, and the errors it\n"
      "// may return besides the generic ones.\n"
      "namespace messages {\n\n");
  for (const ir::Message& msg : m.messages) {
    emit_descriptor(p, m, msg);
    p.print("};\n\n");
    for (const ir::Message::ResultWhen& r : msg.results_when) emit_result_when(p, m, msg, r);
  }
  p.print("}  // namespace messages\n\n");
  return close_file(p, m);
}

}  // namespace rpckit::gen
