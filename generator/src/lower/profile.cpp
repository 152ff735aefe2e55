#include "lower/profile.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>

#include "lower/names.hpp"
#include "lower/profile_rules.hpp"
#include "lower/profile_values.hpp"
#include "model.hpp"

namespace rpckit::gen {

namespace {

// clang-format off
constexpr std::array<std::string_view, 28> kProfileKeys = {
    "framing",        "max_frame_bytes", "max_json_depth",     "ids",         "spawned",
    "lifecycle",      "grant",           "result_grant",       "error_objects", "version",
    "stops_on",       "timings",
    "jsonrpc_member", "blank_method",    "invalid_request_id", "line_breaks", "error_data",
    "not_json",       "oversize",        "stray_response",     "output_cap",  "after_shutdown",
    "stop",           "unknown_id",      "cancel",             "progress",
    "before_handshake_done", "gate_on_receipt"};
// clang-format on
constexpr std::array<std::string_view, 5> kLifecycle = {"handshake", "handshake_done",
                                                        "health_check", "shutdown", "exit"};

const ir::Message& message(const Node& n, const ir::Module& m) {
  std::string method = string_of(n);
  std::vector<std::string> methods;
  for (const ir::Message& msg : m.messages) {
    if (msg.method == method) return msg;
    methods.push_back(msg.method);
  }
  n.fail("\"" + method + "\" is not a message of the protocol (" + quoted_list(methods) + ")");
}

const char* id_kind(const Node& n) {
  static constexpr std::array<const char*, 3> kNames = {"kInteger", "kString", "kNull"};
  return kNames[one_of(n, {"integer", "string", "null"})];
}

// "strict", or {"missing_code": <error name>, "missing_message": <text>} for a protocol
// whose peers may send error objects without `code`.
void lower_error_objects(const Node& n, const ir::Module& m, ir::Profile& p) {
  if (n.json->is_string()) {
    one_of(n, {"strict"});
    return;
  }
  if (!n.json->is_object()) n.reject("expected \"strict\" or {missing_code, missing_message}");
  for (const auto& item : n.json->items()) {
    if (item.key() != "missing_code" && item.key() != "missing_message") {
      n.child(item.key()).fail("unknown error_objects key");
    }
  }
  Node code = n.child("missing_code");
  string_of(code);
  if (!m.error_code_type) code.fail("missing_code needs \"x-error-codes\" in the protocol file");
  for (const ir::TypeDecl& d : m.types) {
    if (d.name == *m.error_code_type) p.missing_error_code = d.name + "::" + error_enumerator(code, d);
  }
  p.missing_error_message = Json(string_of(n.child("missing_message"))).dump();  // C++ literal
}

// A profile written before "stop" and "oversize" existed (rpckit 0.1's first form, as in the
// released streamnook-v1.0 schema), restated in today's terms with the meaning it had then:
// an over-long frame ended the connection; the stop was shutdown (when the protocol had it),
// then exit or, without an exit message, closing stdin, the exit grace, and a kill. Timers it
// did not name were the supervisor's defaults then; today they read as none. Only `compat`
// meets such a profile (an old release); the generator refuses to write code from one.
Json upgraded_legacy_profile(const Node& profile) {
  Json p = *profile.json;
  p["oversize"] = "close";
  Json stop = Json::array();
  const Json lifecycle = p.value("lifecycle", Json::object());
  if (lifecycle.contains("shutdown")) stop.push_back("shutdown");
  stop.push_back(lifecycle.contains("exit") ? "exit" : "close_stdin");
  Json& timings = p["timings"];
  if (!timings.is_object()) timings = Json::object();
  if (!timings.contains("exit_grace")) {
    profile.fail("a profile without \"stop\" must name timings.exit_grace (or give a stop "
                 "sequence)");
  }
  stop.push_back(Json{{"wait", timings["exit_grace"]}});
  timings.erase("exit_grace");
  stop.push_back("kill");
  p["stop"] = std::move(stop);
  const bool health = lifecycle.contains("health_check");
  const bool shutdown = lifecycle.contains("shutdown");
  for (const char* key : {"handshake_timeout", "handshake_failure_exit_wait", "restarts_in_window"}) {
    if (!timings.contains(key)) timings[key] = "none";
  }
  const bool restarts = timings["restarts_in_window"] != "none";
  for (const auto& [key, applies] :
       {std::pair{"health_check_interval", health}, std::pair{"health_check_misses", health},
        std::pair{"restart_backoff", restarts}, std::pair{"restart_window", restarts},
        std::pair{"shutdown_timeout", shutdown}}) {
    if (applies && !timings.contains(key)) timings[key] = "none";
    if (!applies) timings.erase(key);
  }
  return p;
}

// A params member of `msg` named `wire`, or a diagnostic at `n` naming the members there are.
const ir::Field& params_member(const Node& n, const ir::Message& msg, const ir::Module& m) {
  std::string wire = string_of(n);
  std::vector<std::string> names;
  for (const ir::TypeDecl& d : m.types) {
    if (d.name != msg.params_type || d.kind != ir::TypeDecl::Kind::kStruct) continue;
    for (const ir::Field& f : d.struct_.fields) {
      if (f.wire_name == wire) return f;
      names.push_back(f.wire_name);
    }
  }
  n.fail("\"" + wire + "\" is not a member of the params of \"" + msg.method + "\" (" +
         quoted_list(names) + ")");
}

// `n` names a member of the handshake's result struct, or a diagnostic naming those there are.
void check_handshake_result_member(const Node& n, const ir::Module& m, const ir::Profile& p) {
  std::string wire = string_of(n);
  std::vector<std::string> names;
  for (const ir::Message& msg : m.messages) {
    if (msg.cpp_name != p.handshake || !msg.result) continue;
    for (const ir::TypeDecl& d : m.types) {
      if (d.name != msg.result->name || d.kind != ir::TypeDecl::Kind::kStruct) continue;
      for (const ir::Field& f : d.struct_.fields) {
        if (f.wire_name == wire) return;
        names.push_back(f.wire_name);
      }
    }
    n.fail("\"" + wire + "\" is not a member of the result of \"" + msg.method + "\" (" +
           quoted_list(names) + ")");
  }
}

bool is_string(const ir::TypeRef& t) {
  return t.kind == ir::TypeRef::Kind::kPrimitive && t.primitive == ir::Primitive::kString;
}

// {"result": <handshake result member>, "constant": <string constant>, "accepts": "exact" |
// "major"}: the spawner leaves a session whose answered version it does not speak.
void lower_version(const Node& n, const ir::Module& m, ir::Profile& p) {
  if (!n.json->is_object()) n.reject("expected {result, constant, accepts}");
  for (const auto& item : n.json->items()) {
    if (item.key() != "result" && item.key() != "constant" && item.key() != "accepts") {
      n.child(item.key()).fail("unknown version key (result, constant, accepts)");
    }
  }
  check_handshake_result_member(n.child("result"), m, p);
  p.version.result_member = string_of(n.child("result"));
  Node constant = n.child("constant");
  const std::string name = string_of(constant);
  std::vector<std::string> strings;
  for (const ir::Constant& c : m.constants) {
    if (c.kind != ir::Constant::Kind::kString || c.array) continue;
    if (c.wire_name == name) p.version.constant = c.cpp_name;
    strings.push_back(c.wire_name);
  }
  if (p.version.constant.empty()) {
    constant.fail("\"" + name + "\" is not a string constant of protocol.json (" +
                  quoted_list(strings) + ")");
  }
  p.version.match = one_of(n.child("accepts"), {"exact", "major"}) == 0 ? "kExact" : "kMajor";
}

// [<method>, ...]: what the spawned role may send before it has received the handshake-done
// message (MCP: only ping and logging before notifications/initialized).
void lower_before_handshake_done(const Node& n, const ir::Module& m, ir::Profile& p) {
  if (p.handshake_done.empty()) n.fail("needs lifecycle.handshake_done");
  if (!n.json->is_array()) n.reject("expected an array of methods");
  std::vector<std::string> methods;
  for (std::size_t i = 0; i < n.json->size(); ++i) {
    const Node item = n.item(i);
    const ir::Message& msg = message(item, m);
    if (!msg.sent_by(p.spawned_role)) {
      item.fail("\"" + msg.method + "\" is not sent by the spawned role (\"" + p.spawned_role +
                "\")");
    }
    if (std::find(methods.begin(), methods.end(), msg.method) != methods.end()) {
      item.fail("\"" + msg.method + "\" is listed twice");
    }
    methods.push_back(msg.method);
  }
  p.before_handshake_done = std::move(methods);
}

// {"capability": <error>, "keyed": <error>, "param": <error>}, each optional: what a receiver
// answers when what it declared of itself in the handshake (the grant member of the params it
// sent, or the result_grant member of its answer) refuses a gate clause of that kind.
void lower_gate_on_receipt(const Node& n, const ir::Module& m, ir::Profile& p) {
  if (!n.json->is_object()) n.reject("expected {\"capability\", \"keyed\", \"param\": <error>}");
  if (p.grant_member.empty() && p.result_grant_member.empty()) {
    n.fail("needs \"grant\" or \"result_grant\": the declarations a receiver checks against");
  }
  if (!m.error_code_type) n.fail("needs \"x-error-codes\" in the protocol file");
  const ir::TypeDecl* codes = nullptr;
  for (const ir::TypeDecl& d : m.types) {
    if (d.name == *m.error_code_type) codes = &d;
  }
  for (const auto& item : n.json->items()) {
    const Node code = n.child(item.key());
    std::string* slot = item.key() == "capability" ? &p.gate_on_receipt.capability
                        : item.key() == "keyed"    ? &p.gate_on_receipt.keyed
                        : item.key() == "param"    ? &p.gate_on_receipt.param
                                                   : nullptr;
    if (slot == nullptr)
      code.fail("unknown gate_on_receipt key (\"capability\", \"keyed\", \"param\")");
    string_of(code);
    if (codes != nullptr) *slot = codes->name + "::" + error_enumerator(code, *codes);
  }
}

// {"notification": <method>, "id_member": <member>, "reason_member": <member>,
//  "on_timeout": "cancel" | "nothing"}: how a peer cancels a request it sent.
void lower_cancel(const Node& n, const ir::Module& m, ir::Profile& p) {
  if (!n.json->is_object()) {
    n.reject("expected {notification, id_member, reason_member, on_timeout}");
  }
  for (const auto& item : n.json->items()) {
    if (item.key() != "notification" && item.key() != "id_member" &&
        item.key() != "reason_member" && item.key() != "on_timeout") {
      n.child(item.key()).fail("unknown cancel key");
    }
  }
  Node method = n.child("notification");
  const ir::Message& msg = message(method, m);
  if (msg.request) method.fail("\"" + msg.method + "\" is a request: a cancel is a notification");
  p.cancel.method = msg.method;
  const ir::Field& id = params_member(n.child("id_member"), msg, m);
  const bool id_like =
      id.type.kind == ir::TypeRef::Kind::kNamed ||
      (id.type.kind == ir::TypeRef::Kind::kPrimitive &&
       (id.type.primitive == ir::Primitive::kString || id.type.primitive == ir::Primitive::kInt64 ||
        id.type.primitive == ir::Primitive::kAny));
  if (!id_like) n.child("id_member").fail("\"" + id.wire_name + "\" cannot hold a request id");
  p.cancel.id_member = id.wire_name;
  if (n.has("reason_member")) {
    const ir::Field& reason = params_member(n.child("reason_member"), msg, m);
    if (!is_string(reason.type)) n.child("reason_member").fail("expected a string member");
    p.cancel.reason_member = reason.wire_name;
  }
  if (n.has("on_timeout")) {
    p.cancel.on_timeout = one_of(n.child("on_timeout"), {"nothing", "cancel"}) == 1;
  }
  for (const ir::Message& handshake : m.messages) {
    if (handshake.cpp_name == p.handshake) p.cancel.uncancellable = handshake.method;
  }
}

// {"notification": <method>, "token_member": <member>, "request_token": "<member>.<member>"}:
// how a peer reports progress on a request that carries a token at that path of its params.
void lower_progress(const Node& n, const ir::Module& m, ir::Profile& p) {
  if (!n.json->is_object()) n.reject("expected {notification, token_member, request_token}");
  for (const auto& item : n.json->items()) {
    if (item.key() != "notification" && item.key() != "token_member" &&
        item.key() != "request_token") {
      n.child(item.key()).fail("unknown progress key");
    }
  }
  Node method = n.child("notification");
  const ir::Message& msg = message(method, m);
  if (msg.request) {
    method.fail("\"" + msg.method + "\" is a request: a progress report is a notification");
  }
  p.progress.method = msg.method;
  const ir::Field& token = params_member(n.child("token_member"), msg, m);
  if (token.type.kind != ir::TypeRef::Kind::kNamed &&
      !(token.type.kind == ir::TypeRef::Kind::kPrimitive &&
        (token.type.primitive == ir::Primitive::kString ||
         token.type.primitive == ir::Primitive::kInt64 ||
         token.type.primitive == ir::Primitive::kAny))) {
    n.child("token_member").fail("\"" + token.wire_name + "\" cannot hold a request id");
  }
  p.progress.token_member = token.wire_name;
  Node path = n.child("request_token");
  const std::string where = string_of(path);
  if (where.empty() || where.front() == '.' || where.back() == '.' ||
      where.find("..") != std::string::npos) {
    path.fail("expected a dotted path of params members, such as \"_meta.progressToken\"");
  }
  // The first step is a member of some request's params: a path no request has is a typo.
  const std::string first = where.substr(0, where.find('.'));
  bool found = false;
  for (const ir::Message& request : m.messages) {
    if (!request.request) continue;
    for (const ir::TypeDecl& d : m.types) {
      if (d.name != request.params_type || d.kind != ir::TypeDecl::Kind::kStruct) continue;
      for (const ir::Field& f : d.struct_.fields) found = found || f.wire_name == first;
    }
  }
  if (!found) path.fail("no request's params have a member \"" + first + "\"");
  p.progress.request_token = where;
}

}  // namespace

ir::Profile lower_profile(const Node& given, const ir::Module& m, bool accept_legacy) {
  std::optional<Json> upgraded;
  Node profile = given;
  if (accept_legacy && given.json->is_object() && !given.has("stop") && !given.has("oversize")) {
    upgraded = upgraded_legacy_profile(given);
    profile.json = &*upgraded;
  }
  only_keys(profile, kProfileKeys, "profile key");
  ir::Profile p;
  p.framing = one_of(profile.child("framing"), {"content-length", "ndjson"}) == 0
                  ? "kContentLength"
                  : "kNewlineDelimited";
  p.max_frame_bytes = integer_constant(profile.child("max_frame_bytes"), m);
  if (profile.has("max_json_depth")) {
    p.max_json_depth = integer_constant(profile.child("max_json_depth"), m);
  }

  Node ids = profile.child("ids");
  for (const auto& item : ids.json->items()) {
    if (item.key() != "send" && item.key() != "accept" && item.key() != "match") {
      ids.child(item.key()).fail("unknown ids key");
    }
  }
  p.id_sent = id_kind(ids.child("send"));
  Node accept = ids.child("accept");
  if (!accept.json->is_array() || accept.json->empty()) accept.reject("expected a non-empty array");
  for (std::size_t i = 0; i < accept.json->size(); ++i) {
    p.ids_accepted.emplace_back(id_kind(accept.item(i)));
  }

  Node spawned = profile.child("spawned");
  p.spawned_role = string_of(spawned);
  if (std::find(m.roles.begin(), m.roles.end(), p.spawned_role) == m.roles.end()) {
    spawned.fail("\"" + p.spawned_role + "\" is not a role of x-roles (" + quoted_list(m.roles) + ")");
  }
  if (m.roles.size() != 2) spawned.fail("a profile needs exactly two roles in x-roles");
  p.spawner_role = m.roles[0] == p.spawned_role ? m.roles[1] : m.roles[0];
  for (const ir::Direction& d : m.directions) {
    if (d.to == p.spawned_role) p.to_spawned = d.cpp_name;
    if (d.to == p.spawner_role) p.to_spawner = d.cpp_name;
  }
  for (const ir::RoleSurface& s : m.surfaces) {
    if (s.role == p.spawned_role) std::tie(p.spawned_handler, p.spawned_client) = std::tie(s.handler, s.client);
    if (s.role == p.spawner_role) std::tie(p.spawner_handler, p.spawner_client) = std::tie(s.handler, s.client);
  }

  Node lifecycle = profile.child("lifecycle");
  if (!lifecycle.json->is_object()) lifecycle.reject("expected an object");
  std::array<std::string*, 5> slots = {&p.handshake, &p.handshake_done, &p.health_check,
                                       &p.shutdown, &p.exit};
  for (const auto& item : lifecycle.json->items()) {
    auto it = std::find(kLifecycle.begin(), kLifecycle.end(), item.key());
    if (it == kLifecycle.end()) lifecycle.child(item.key()).fail("unknown lifecycle message");
    const ir::Message& msg = message(lifecycle.child(item.key()), m);
    bool must_be_request = *it == "handshake" || *it == "health_check" || *it == "shutdown";
    // The health check may also go the other way (MCP's ping: either side checks the other).
    const bool two_way = *it == "health_check" && msg.routes.size() == 2 &&
                         msg.sent_by(p.spawner_role) && msg.sent_by(p.spawned_role);
    if (msg.request != must_be_request ||
        (!two_way && (msg.routes.size() != 1 || msg.sent_by(p.spawned_role)))) {
      std::string routes;
      for (const ir::Message::Route& r : msg.routes) {
        routes += (routes.empty() ? " " : ", ") + r.from + "_to_" + r.to;
      }
      lifecycle.child(item.key())
          .fail(std::string("expected a ") + (must_be_request ? "request" : "notification") +
                " to the spawned role (\"" + p.spawned_role + "\")" +
                (*it == "health_check" ? " or both ways" : " only") + ", got \"" + msg.method +
                "\": a " + (msg.request ? "request" : "notification") + routes);
    }
    *slots[static_cast<std::size_t>(it - kLifecycle.begin())] = msg.cpp_name;
  }
  if (p.handshake.empty()) lifecycle.fail("missing \"handshake\"");

  if (profile.has("grant")) p.grant_member = member_name(string_of(profile.child("grant")));
  if (profile.has("result_grant")) {
    p.result_grant_member = string_of(profile.child("result_grant"));
    check_handshake_result_member(profile.child("result_grant"), m, p);
  }
  if (profile.has("error_objects")) lower_error_objects(profile.child("error_objects"), m, p);
  if (profile.has("version")) lower_version(profile.child("version"), m, p);
  if (profile.has("before_handshake_done")) {
    lower_before_handshake_done(profile.child("before_handshake_done"), m, p);
  }
  if (profile.has("gate_on_receipt")) {
    lower_gate_on_receipt(profile.child("gate_on_receipt"), m, p);
  }
  Node stops = profile.child("stops_on");
  if (!stops.json->is_array()) stops.reject("expected an array");
  for (std::size_t i = 0; i < stops.json->size(); ++i) {
    switch (one_of(stops.item(i), {"stdin_eof", "sigterm", "exit", "shutdown"})) {
      case 0: p.stops_on_stdin_eof = true; break;
      case 1: p.stops_on_sigterm = true; break;
      case 2: p.stops_on_exit = true; break;
      default: p.stops_on_shutdown = true; break;
    }
  }
  if (p.stops_on_exit && p.exit.empty()) stops.fail("\"exit\" needs lifecycle.exit");
  if (p.stops_on_shutdown && p.shutdown.empty()) {
    stops.fail("\"shutdown\" needs lifecycle.shutdown");
  }

  lower_wire_rules(profile, m, p);
  if (profile.has("cancel")) lower_cancel(profile.child("cancel"), m, p);
  if (profile.has("progress")) lower_progress(profile.child("progress"), m, p);
  lower_stop(profile, m, p);
  lower_timings(profile, m, p);
  return p;
}

}  // namespace rpckit::gen
