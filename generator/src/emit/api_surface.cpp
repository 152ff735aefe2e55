#include "emit/api_surface.hpp"

#include "emit/common.hpp"
#include "emit/declarations.hpp"

namespace rpckit::gen {
namespace {

class Facts {
 public:
  explicit Facts(std::string ns) : ns_(std::move(ns)) {}
  // `scope` under the module's namespace ("" = the namespace itself).
  void add(const std::string& scope, const std::string& symbol, std::string spelling) {
    list_.push_back({scope.empty() ? ns_ : ns_ + "::" + scope, symbol, std::move(spelling)});
  }
  std::vector<ApiFact> take() { return std::move(list_); }

 private:
  std::string ns_;
  std::vector<ApiFact> list_;
};

void struct_facts(Facts& facts, const ir::TypeDecl& d) {
  facts.add("", d.name, "struct " + d.name);
  for (const ir::Field& f : d.struct_.fields) {
    if (f.const_json) {  // no member: the codec writes and checks the value
      facts.add(d.name, f.cpp_name, "\"" + f.wire_name + "\" is always " + *f.const_json);
      continue;
    }
    facts.add(d.name, f.cpp_name, field_type(f) + " " + f.cpp_name);
    if (f.default_json) {
      facts.add(d.name, f.default_accessor,
                cpp_type(f.type) + " " + f.default_accessor + "() const");
    }
  }
  if (d.struct_.rest) {
    facts.add(d.name, ir::kRestMember, rest_type(d.struct_) + " " + ir::kRestMember);
  }
}

void enum_facts(Facts& facts, const ir::TypeDecl& d) {
  if (d.enum_.integer) {
    facts.add("", d.name, "enum class " + d.name + " : std::int32_t");
    for (const ir::EnumValue& v : d.enum_.values) {
      facts.add(d.name, v.cpp_name, v.cpp_name + " = " + v.wire);
    }
    return;
  }
  // A string enum's C++ values are its positions, counted from 1 (0 is kUnknown).
  facts.add("", d.name,
            "class " + d.name + " : public rpckit::OpenEnum<" + d.name + ", " +
                d.enum_.values_struct + ">");
  const std::string scope = d.enum_.values_struct + "::Value";
  int n = 1;
  for (const ir::EnumValue& v : d.enum_.values) {
    facts.add(scope, v.cpp_name, v.cpp_name + " = " + std::to_string(n++));
  }
}

void type_facts(Facts& facts, const ir::TypeDecl& d) {
  switch (d.kind) {
    case ir::TypeDecl::Kind::kStruct:
      struct_facts(facts, d);
      break;
    case ir::TypeDecl::Kind::kEnum:
      enum_facts(facts, d);
      break;
    case ir::TypeDecl::Kind::kUnion:
      facts.add("", d.name, "std::variant<" + union_alternatives(d) + "> value");
      break;
    case ir::TypeDecl::Kind::kAlias:
      facts.add("", d.name, "using " + d.name + " = " + cpp_type(d.alias_));
      break;
  }
}

// x-result-when's descriptors say which of them answers given params (emit_messages.cpp).
constexpr const char* kAnsweredBy =
    "static std::string_view answered_by(const Params& params) noexcept";

void message_facts(Facts& facts, const ir::Module& m, const ir::Message& msg) {
  const std::string scope = "messages::" + msg.cpp_name;
  facts.add("messages", msg.cpp_name, "struct " + msg.cpp_name);
  facts.add(scope, "kMethod", "kMethod = \"" + msg.method + "\"");
  facts.add(scope, "kKind",
            msg.request ? "kKind = rpckit::MessageKind::kRequest"
                        : "kKind = rpckit::MessageKind::kNotification");
  const std::string role = spell_in_messages(m, "Role");
  if (msg.routes.size() == 1) {
    facts.add(scope, "kFrom", "kFrom = " + role + "::" + m.role_enumerator(msg.routes[0].from));
    facts.add(scope, "kTo", "kTo = " + role + "::" + m.role_enumerator(msg.routes[0].to));
  }
  facts.add(scope, "kRoutes", routes_declaration(m, msg, role));
  facts.add(scope, "Params", "using Params = " + spell_in_messages(m, msg.params_type));
  facts.add(scope, "kParamsPresence",
            std::string("kParamsPresence = rpckit::ParamsPresence::") +
                params_presence_name(msg.params_presence));
  if (msg.request) facts.add(scope, "Result", "using Result = " + descriptor_result_type(m, msg));
  for (const ir::Message::ResultWhen& r : msg.results_when) {
    const std::string when = "messages::" + r.cpp_name;
    facts.add("messages", r.cpp_name, "struct " + r.cpp_name + " : " + msg.cpp_name);
    facts.add(when, "Result", "using Result = " + descriptor_type(m, r.result));
    facts.add(when, "answered_by", kAnsweredBy);
  }
  if (!msg.results_when.empty()) facts.add(scope, "answered_by", kAnsweredBy);
  if (msg.deadline) {
    facts.add(scope, "kDeadline", "std::chrono::milliseconds kDeadline = " + *msg.deadline);
  }
  // Views: a gate clause or an error added to a message changes neither (the wire comparison
  // judges those).
  facts.add(scope, "kGate", "std::span<const rpckit::GateClause> kGate");
  if (m.error_code_type) {
    facts.add(scope, "kErrors",
              "std::span<const " + spell_in_messages(m, *m.error_code_type) + "> kErrors");
  }
}

}  // namespace

std::vector<ApiFact> api_surface(const ir::Module& m) {
  Facts facts(m.cpp_namespace);
  for (const std::string& role : m.role_enumerators) facts.add("Role", role, role);
  for (const ir::Constant& c : m.constants) facts.add("", c.cpp_name, constant_declaration(c));
  for (const ir::TypeDecl& d : m.types) type_facts(facts, d);
  for (const ir::Message& msg : m.messages) message_facts(facts, m, msg);
  // A direction's message list grows with every message added to it: only its name and
  // its two roles are API.
  for (const ir::Direction& d : m.directions) {
    facts.add("", d.cpp_name,
              "struct " + d.cpp_name + " : rpckit::Direction<Role, Role::" +
                  m.role_enumerator(d.from) + ", Role::" + m.role_enumerator(d.to) + ",");
  }
  for (const ir::RoleSurface& s : m.surfaces) {
    facts.add("", s.handler, "class " + s.handler);
    facts.add("", s.client, "class " + s.client);
    for (const ir::Message* msg : received_by(m, s.role)) {
      facts.add(s.handler, msg->function_name, handler_declaration(*msg));
      facts.add(s.client, msg->function_name, client_declaration(*msg));
      for (const ir::Message::ResultWhen& r : msg->results_when) {
        facts.add(s.handler, r.function_name, handler_declaration(*msg, r));
        facts.add(s.client, r.function_name, client_declaration(*msg, r));
      }
    }
  }
  return facts.take();
}

}  // namespace rpckit::gen
