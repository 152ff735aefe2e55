#include "ir/dump.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <ostream>
#include <sstream>
#include <utility>

#include "rpckit/model/required_alternatives.hpp"

namespace rpckit::gen {
namespace {

const char* primitive_name(ir::Primitive p) {
  switch (p) {
    case ir::Primitive::kString: return "string";
    case ir::Primitive::kBool: return "bool";
    case ir::Primitive::kInt64: return "int64";
    case ir::Primitive::kUInt32: return "uint32";
    case ir::Primitive::kDouble: return "double";
    case ir::Primitive::kNull: return "null";
    case ir::Primitive::kAny: return "any";
  }
  return "";
}

// Shortest text that reads back as `v` ("0", "4294967295", "0.5", "1e-07"): std::to_string
// would print every bound with six decimals and collapse distinct small bounds.
std::string number(double v) {
  std::array<char, 32> buf{};
  auto result = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return std::string(buf.data(), result.ptr);
}

std::string constraints(const ir::Constraints& c) {
  std::ostringstream out;
  auto add = [&out](const std::string& item) { out << (out.tellp() == 0 ? "" : ",") << item; };
  if (c.min_length) add("minLength=" + std::to_string(*c.min_length));
  if (c.max_length) add("maxLength=" + std::to_string(*c.max_length));
  auto message = [](const ir::Pattern& p) {
    return p.message.empty() ? std::string() : " message=\"" + p.message + "\"";
  };
  if (c.pattern) add("pattern=" + c.pattern->source + " re2=" + c.pattern->re2 + message(*c.pattern));
  if (c.not_pattern) {
    add("notPattern=" + c.not_pattern->source + " re2=" + c.not_pattern->re2 +
        message(*c.not_pattern));
  }
  if (c.minimum) add("minimum=" + number(*c.minimum));
  if (c.maximum) add("maximum=" + number(*c.maximum));
  if (c.min_items) add("minItems=" + std::to_string(*c.min_items));
  if (c.max_items) add("maxItems=" + std::to_string(*c.max_items));
  if (c.unique_items) add("uniqueItems");
  if (c.date_time) add("date-time");
  if (c.object) add("object");
  return out.str();
}

}  // namespace

std::string describe(const ir::TypeRef& t) {
  std::string s;
  if (!t.alias.empty()) return t.nullable ? "nullable<" + t.alias + ">" : t.alias;
  switch (t.kind) {
    case ir::TypeRef::Kind::kPrimitive: s = primitive_name(t.primitive); break;
    case ir::TypeRef::Kind::kNamed: s = t.name; break;
    case ir::TypeRef::Kind::kArray: s = "array<" + describe(*t.element) + ">"; break;
    case ir::TypeRef::Kind::kMap: s = "map<" + describe(*t.element) + ">"; break;
  }
  if (t.nullable) s = "nullable<" + s + ">";
  std::string c = constraints(t.constraints);
  return c.empty() ? s : s + "{" + c + "}";
}

namespace {

// The x-profile, one line per concern, so a golden shows what the roles will be told.
void dump_profile(std::ostream& out, const ir::Profile& p) {
  auto optional = [](const std::string& v) { return v.empty() ? std::string("-") : v; };
  out << "profile framing " << p.framing << " max-frame " << p.max_frame_bytes << " max-depth "
      << optional(p.max_json_depth) << "\n";
  out << "profile ids sent " << p.id_sent << " accepted";
  for (const auto& id : p.ids_accepted) out << " " << id;
  out << "\n";
  out << "profile roles " << p.spawner_role << " spawns " << p.spawned_role << " to-spawned "
      << optional(p.to_spawned) << " to-spawner " << optional(p.to_spawner) << "\n";
  out << "profile lifecycle handshake " << optional(p.handshake) << " done "
      << optional(p.handshake_done) << " health " << optional(p.health_check) << " shutdown "
      << optional(p.shutdown) << " exit " << optional(p.exit) << " grant "
      << optional(p.grant_member)
      << (p.result_grant_member.empty() ? "" : " result-grant " + p.result_grant_member) << "\n";
  if (!p.version.result_member.empty()) {
    out << "profile version " << p.version.result_member << " " << p.version.constant << " "
        << (p.version.match == "kExact" ? "exact" : "major") << "\n";
  }
  if (p.before_handshake_done) {
    // A set: the order written means nothing.
    std::vector<std::string> methods = *p.before_handshake_done;
    std::sort(methods.begin(), methods.end());
    out << "profile before-handshake-done";
    for (const std::string& method : methods) out << " " << method;
    out << "\n";
  }
  if (const ir::Profile::GateOnReceipt& g = p.gate_on_receipt;
      !g.capability.empty() || !g.keyed.empty() || !g.param.empty()) {
    out << "profile gate-on-receipt capability " << optional(g.capability) << " keyed "
        << optional(g.keyed) << " param " << optional(g.param) << "\n";
  }
  out << "profile error-objects "
      << (p.missing_error_code.empty() ? std::string("strict")
                                       : p.missing_error_code + " " + p.missing_error_message)
      << "\n";
  out << "profile stops" << (p.stops_on_stdin_eof ? " stdin-eof" : "")
      << (p.stops_on_sigterm ? " sigterm" : "") << (p.stops_on_exit ? " exit" : "")
      << (p.stops_on_shutdown ? " shutdown" : "") << " after-shutdown " << p.after_shutdown
      << "\n";
  out << "profile envelope id-match " << (p.id_match == "kExact" ? "exact" : "string-form")
      << " jsonrpc " << (p.jsonrpc_optional ? "optional" : "required") << " blank-method "
      << (p.blank_method_invalid ? "invalid" : "valid") << " invalid-request-id "
      << (p.invalid_request_id_null ? "null" : "echo") << " unknown-id "
      << (p.unknown_id_omitted ? "omit" : "null") << " line-breaks "
      << (p.split_on_cr ? "any" : "lf") << "\n";
  if (!p.progress.method.empty()) {
    out << "profile progress " << p.progress.method << " token " << p.progress.token_member
        << " request-token " << p.progress.request_token << "\n";
  }
  if (!p.cancel.method.empty()) {
    out << "profile cancel " << p.cancel.method << " id " << p.cancel.id_member << " reason "
        << optional(p.cancel.reason_member) << " on-timeout "
        << (p.cancel.on_timeout ? "cancel" : "nothing") << " uncancellable "
        << optional(p.cancel.uncancellable) << "\n";
  }
  if (!p.error_data_member.empty()) {
    out << "profile error-data " << p.error_data_member;
    for (const auto& v : p.error_data_values) out << " " << optional(v);
    out << "\n";
  }
  for (const auto& [role, r] : {std::pair{p.spawned_role, &p.spawned_receives},
                                std::pair{p.spawner_role, &p.spawner_receives}}) {
    out << "profile receives " << role << " not-json " << r->not_json << " oversize "
        << r->oversize << " stray-response " << r->stray_response << "\n";
  }
  out << "profile output-cap " << optional(p.output_cap) << "\n";
  out << "profile stop";
  for (const auto& step : p.stop) out << " " << step.kind << (step.wait.empty() ? "" : "(" + step.wait + ")");
  out << "\n";
  for (const auto& t : p.timings) {
    const char* kind = t.kind == ir::Profile::Timing::Kind::kDuration    ? "duration"
                       : t.kind == ir::Profile::Timing::Kind::kDurations ? "durations"
                                                                          : "count";
    out << "profile timing " << t.trait << " = " << (t.constant.empty() ? "none" : t.constant)
        << " (" << kind << ")\n";
  }
  if (p.handshake_failure_stops) out << "profile handshake-failure stop-sequence\n";
}

// The x-exchange, one line per concern and one per step.
void dump_exchange(std::ostream& out, const ir::Exchange& x) {
  auto optional = [](const std::string& v) { return v.empty() ? std::string("-") : v; };
  out << "exchange framing " << x.framing << " max-frame " << x.max_frame_bytes << " lines "
      << (x.strict_lines ? "strict" : "lenient") << "\n";
  out << "exchange roles " << x.spawner_role << " spawns " << x.spawned_role << " discriminator "
      << x.discriminator << " correlation " << optional(x.correlation) << " ends " << x.ends << "\n";
  for (std::size_t i = 0; i < x.steps.size(); ++i) {
    const ir::Exchange::Step& s = x.steps[i];
    out << "exchange step " << i << " " << s.from << " " << s.type << " tag " << s.tag
        << (s.correlated ? " correlated" : "") << " answers " << s.answers << " within "
        << optional(s.timeout) << "\n";
  }
  out << "exchange timings invoke " << optional(x.invoke_timeout) << " launch "
      << optional(x.launch_timeout) << " teardown " << optional(x.teardown_timeout) << " reap "
      << optional(x.reap_timeout) << "\n";
}

}  // namespace

std::string dump_ir(const ir::Module& m) {
  std::ostringstream out;
  out << "module " << m.name << " namespace " << m.cpp_namespace << " roles";
  for (const auto& r : m.roles) out << " " << r;
  out << "\n";
  if (m.error_code_type) out << "error-codes " << *m.error_code_type << "\n";
  for (const ir::ErrorData& e : m.error_data) {
    out << "error-data " << e.wire << " " << e.label << ": " << describe(e.type) << "\n";
  }
  for (const ir::Constant& c : m.constants) {
    out << "constant " << c.cpp_name << (c.array ? " array" : "") << " =";
    for (const auto& v : c.values) out << " " << v;
    out << (c.kind == ir::Constant::Kind::kDurationMs ? " ms" : "") << "\n";
  }
  for (const ir::TypeDecl& d : m.types) {
    switch (d.kind) {
      case ir::TypeDecl::Kind::kStruct:
        out << "struct " << d.name << " @" << d.loc.str() << "\n";
        for (const ir::Field& f : d.struct_.fields) {
          out << "  field " << f.wire_name;
          if (f.cpp_name != f.wire_name) out << " as " << f.cpp_name;
          if (f.const_json) {
            out << " const " << *f.const_json;
          } else {
            out << ": " << describe(f.type);
          }
          out << (f.required ? " required" : " optional");
          if (f.default_cpp) {
            out << " default " << *f.default_cpp;
          } else if (f.default_json) {
            out << " default json " << *f.default_json;  // decoded by the accessor
          }
          out << "\n";
        }
        if (d.struct_.rest) out << "  other members: " << describe(*d.struct_.rest) << "\n";
        if (!d.struct_.required_any_of.empty()) {
          out << "  present: " << model::describe_alternatives(d.struct_.required_any_of) << "\n";
        }
        break;
      case ir::TypeDecl::Kind::kEnum:
        out << (d.enum_.integer ? "enum-int " : "enum ") << d.name << " @" << d.loc.str() << "\n";
        for (const auto& v : d.enum_.values) out << "  " << v.cpp_name << " = " << v.wire << "\n";
        break;
      case ir::TypeDecl::Kind::kAlias:
        out << "alias " << d.name << " @" << d.loc.str() << " = " << describe(d.alias_) << "\n";
        break;
      case ir::TypeDecl::Kind::kUnion:
        out << "union " << d.name << " @" << d.loc.str();
        if (d.union_.discriminator) out << " tag " << *d.union_.discriminator;
        out << "\n";
        for (const auto& u : d.union_.members) {
          out << "  member " << describe(u.type) << " when "
              << (d.union_.discriminator ? u.tag : u.match) << "\n";
        }
        break;
    }
  }
  for (const ir::Message& msg : m.messages) {
    out << (msg.request ? "request " : "notification ") << msg.method << " as " << msg.cpp_name
        << "/" << msg.function_name;
    for (const ir::Message::Route& r : msg.routes) out << " " << r.from << "->" << r.to;
    out << " params " << msg.params_type;
    switch (msg.params_presence) {
      case ir::Message::ParamsPresence::kRequired: out << "(required)"; break;
      case ir::Message::ParamsPresence::kOptionalSendEmpty: out << "(optional, send {})"; break;
      case ir::Message::ParamsPresence::kOptionalOmit: out << "(optional, omit)"; break;
    }
    if (msg.result) out << " result " << describe(*msg.result);
    for (const ir::Message::ResultWhen& r : msg.results_when) {
      out << " result-when params." << r.member << " " << describe(r.result) << " as " << r.cpp_name
          << "/" << r.function_name;
    }
    if (msg.deadline) out << " deadline " << *msg.deadline;
    for (const auto& e : msg.errors) out << " error " << e;
    for (const auto& g : msg.gate) {
      if (g.kind == ir::GateClause::Kind::kCapability ||
          g.kind == ir::GateClause::Kind::kParamCapability) {
        out << " gate capability " << g.list;
        if (!g.param.empty()) out << " if params." << g.param;
        continue;
      }
      if (g.kind == ir::GateClause::Kind::kSenderCapability) {
        out << " gate sender-capability " << g.list;
        continue;
      }
      if (g.kind == ir::GateClause::Kind::kKeyedCapability) {
        out << " gate capability " << g.list << ".<params." << g.param << "|" << g.value << ">";
        continue;
      }
      out << " gate " << g.list << (g.kind == ir::GateClause::Kind::kDeclaredParam ? "(declared)" : "")
          << " has " << (g.param.empty() ? g.value : "params." + g.param);
    }
    out << "\n";
  }
  if (m.profile) dump_profile(out, *m.profile);
  if (m.exchange) dump_exchange(out, *m.exchange);
  return out.str();
}

std::string dump_profile(const ir::Profile& p) {
  std::ostringstream out;
  dump_profile(out, p);
  return out.str();
}

}  // namespace rpckit::gen
