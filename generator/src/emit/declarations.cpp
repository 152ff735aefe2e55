#include "emit/declarations.hpp"

#include "emit/common.hpp"

namespace rpckit::gen {

std::string constant_type(const ir::Constant& c) {
  switch (c.kind) {
    case ir::Constant::Kind::kInteger:
      return "std::int64_t";
    case ir::Constant::Kind::kNumber:
      return "double";
    case ir::Constant::Kind::kString:
      return "std::string_view";
    case ir::Constant::Kind::kBool:
      return "bool";
    case ir::Constant::Kind::kDurationMs:
      return "std::chrono::milliseconds";
  }
  return "";
}

std::string constant_value(const ir::Constant& c, const std::string& literal) {
  return c.kind == ir::Constant::Kind::kDurationMs ? "std::chrono::milliseconds{" + literal + "}"
                                                   : literal;
}

std::string constant_declaration(const ir::Constant& c) {
  if (!c.array) {
    return "inline constexpr " + constant_type(c) + " " + c.cpp_name + " = " +
           constant_value(c, c.values.front());
  }
  std::string values;
  for (const std::string& v : c.values) {
    values += (values.empty() ? "" : ", ") + constant_value(c, v);
  }
  return "inline constexpr std::array<" + constant_type(c) + ", " +
         std::to_string(c.values.size()) + "> " + c.cpp_name + " = {" + values + "}";
}

std::string union_alternatives(const ir::TypeDecl& d) {
  std::string alternatives;
  for (const ir::UnionMember& m : d.union_.members) alternatives += cpp_type(m.type) + ", ";
  return alternatives + "rpckit::JsonValue";
}

std::string spell_in_messages(const ir::Module& m, const std::string& name) {
  for (const ir::Message& msg : m.messages) {
    if (msg.cpp_name == name) return "::" + m.cpp_namespace + "::" + name;
    for (const ir::Message::ResultWhen& r : msg.results_when) {
      if (r.cpp_name == name) return "::" + m.cpp_namespace + "::" + name;
    }
  }
  return name;
}

std::string descriptor_result_type(const ir::Module& m, const ir::Message& msg) {
  return descriptor_type(m, *msg.result);
}

std::string descriptor_type(const ir::Module& m, const ir::TypeRef& type) {
  return cpp_type(type, [&m](const std::string& name) { return spell_in_messages(m, name); });
}

const char* params_presence_name(ir::Message::ParamsPresence presence) {
  switch (presence) {
    case ir::Message::ParamsPresence::kRequired:
      return "kRequired";
    case ir::Message::ParamsPresence::kOptionalSendEmpty:
      return "kOptionalSendEmpty";
    case ir::Message::ParamsPresence::kOptionalOmit:
      return "kOptionalOmit";
  }
  return "";
}

std::string routes_declaration(const ir::Module& m, const ir::Message& msg,
                               const std::string& role) {
  std::string routes;
  for (const ir::Message::Route& r : msg.routes) {
    routes += (routes.empty() ? "{" : ", {") + role + "::" + m.role_enumerator(r.from) + ", " +
              role + "::" + m.role_enumerator(r.to) + "}";
  }
  return "std::array<rpckit::Route<" + role + ">, " + std::to_string(msg.routes.size()) +
         "> kRoutes = {{" + routes + "}}";
}

std::vector<const ir::Message*> received_by(const ir::Module& m, const std::string& role,
                                            const std::string& from) {
  std::vector<const ir::Message*> out;
  for (const ir::Message& msg : m.messages) {
    if (from.empty() ? msg.received_by(role) : msg.goes(from, role)) out.push_back(&msg);
  }
  return out;
}

std::string result_type(const ir::Message& msg) { return cpp_type(*msg.result); }

std::string handler_declaration(const ir::Message& msg) {
  return "virtual " + (msg.request ? result_type(msg) : std::string("void")) + " " +
         msg.function_name + "(Context&, const " + msg.params_type + "&)";
}

std::string handler_declaration(const ir::Message& msg, const ir::Message::ResultWhen& r) {
  return "virtual std::optional<" + cpp_type(r.result) + "> " + r.function_name +
         "(Context&, const " + msg.params_type + "&)";
}

namespace {
std::string call_declaration(const std::string& result, const std::string& function,
                             const std::string& params) {
  return "rpckit::Result<" + result + "> " + function + "(" + params +
         ", rpckit::CallOptions options = {}) const";
}
}  // namespace

std::string client_declaration(const ir::Message& msg) {
  const std::string params =
      "const " + msg.params_type + "& params" + (msg.params_all_optional ? " = {}" : "");
  if (!msg.request) return "bool " + msg.function_name + "(" + params + ") const";
  return call_declaration(result_type(msg), msg.function_name, params);
}

std::string client_declaration(const ir::Message& msg, const ir::Message::ResultWhen& r) {
  // No default params: they carry r.member.
  return call_declaration(cpp_type(r.result), r.function_name,
                          "const " + msg.params_type + "& params");
}

}  // namespace rpckit::gen
