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
  const bool whole_containers =
      std::any_of(m.messages.begin(), m.messages.end(), [](const ir::Message& msg) {
        return msg.result && (msg.result->kind == ir::TypeRef::Kind::kMap ||
                              msg.result->kind == ir::TypeRef::Kind::kArray);
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
  }
  p.print("}  // namespace messages\n\n");
  return close_file(p, m);
}

}  // namespace rpckit::gen
