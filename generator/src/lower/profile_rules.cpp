#include "lower/profile_rules.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "lower/profile_values.hpp"
#include "model.hpp"

namespace rpckit::gen {

namespace {

using TimingKind = ir::Profile::Timing::Kind;

// A setting given once for both sides (a string) or per receiving role ({"<role>": ...});
// a role left out of the object keeps `fallback` (empty: it must be given).
void per_role(const Node& profile, std::string_view key,
              std::initializer_list<std::string_view> values,
              std::initializer_list<std::string_view> enumerators, const ir::Profile& p,
              std::string ir::Profile::Receive::*field, ir::Profile::Receive& spawned,
              ir::Profile::Receive& spawner, std::string_view fallback) {
  auto enumerator = [&](const Node& n) {
    return std::string(*(enumerators.begin() + static_cast<std::ptrdiff_t>(one_of(n, values))));
  };
  if (!profile.has(key)) {
    if (fallback.empty()) profile.fail("missing \"" + std::string(key) + "\"");
    spawned.*field = spawner.*field = std::string(fallback);
    return;
  }
  Node n = profile.child(key);
  if (n.json->is_string()) {
    spawned.*field = spawner.*field = enumerator(n);
    return;
  }
  if (!n.json->is_object()) n.reject("expected one of " + quoted_list(values) + ", or an object by receiving role");
  for (const auto& item : n.json->items()) {
    if (item.key() != p.spawned_role && item.key() != p.spawner_role) {
      n.child(item.key()).fail("\"" + item.key() + "\" is not a role of x-roles (" +
                               quoted_list(std::array{p.spawned_role, p.spawner_role}) + ")");
    }
  }
  for (const auto& [role, receive] :
       {std::pair{p.spawned_role, &spawned}, std::pair{p.spawner_role, &spawner}}) {
    if (n.has(role)) {
      receive->*field = enumerator(n.child(role));
    } else if (fallback.empty()) {
      n.fail("missing \"" + role + "\"");
    } else {
      receive->*field = std::string(fallback);
    }
  }
}

bool sends_requests(const ir::Module& m, const std::string& role) {
  return std::any_of(m.messages.begin(), m.messages.end(),
                     [&](const ir::Message& msg) { return msg.request && msg.sent_by(role); });
}

constexpr std::array<std::string_view, 6> kReasonKeys = {
    "parse_error",      "batch",          "invalid_request",
    "method_not_found", "invalid_params", "internal_error"};

void lower_error_data(const Node& n, ir::Profile& p) {
  if (!n.json->is_object()) n.reject("expected {\"member\": ..., \"values\": {...}}");
  for (const auto& item : n.json->items()) {
    if (item.key() != "member" && item.key() != "values") {
      n.child(item.key()).fail("unknown error_data key");
    }
  }
  p.error_data_member = string_of(n.child("member"));
  if (p.error_data_member.empty()) n.child("member").reject("expected a member name");
  Node values = n.child("values");
  if (!values.json->is_object()) values.reject("expected an object");
  for (const auto& item : values.json->items()) {
    if (std::find(kReasonKeys.begin(), kReasonKeys.end(), item.key()) == kReasonKeys.end()) {
      values.child(item.key())
          .fail("unknown runtime error (expected one of " + quoted_list(kReasonKeys) + ")");
    }
  }
  for (std::string_view key : kReasonKeys) {
    p.error_data_values.push_back(values.has(key) ? string_of(values.child(key)) : "");
  }
}

// A timing value: the name of a constant of the right kind, or "none".
std::string timer(const Node& n, TimingKind kind, const ir::Module& m) {
  if (n.json->is_string() && n.json->get<std::string>() == "none") return "";
  return timing_constant(n, kind, m);
}

struct TimingKey {
  std::string_view key;
  std::string_view trait;
  TimingKind kind;
};
constexpr std::array<TimingKey, 8> kProfileTimings = {{
    {"handshake_timeout", "kHandshakeTimeout", TimingKind::kDuration},
    {"handshake_failure_exit_wait", "kHandshakeFailureExitWait", TimingKind::kDuration},
    {"health_check_interval", "kHealthCheckInterval", TimingKind::kDuration},
    {"health_check_misses", "kHealthCheckMisses", TimingKind::kCount},
    {"restart_backoff", "kRestartBackoff", TimingKind::kDurations},
    {"restart_window", "kRestartWindow", TimingKind::kDuration},
    {"restarts_in_window", "kRestartsInWindow", TimingKind::kCount},
    {"shutdown_timeout", "kShutdownTimeout", TimingKind::kDuration},
}};

// Whether a count constant is zero (restarts_in_window: 0 means no restarts at all).
bool is_zero(const std::string& cpp_name, const ir::Module& m) {
  for (const ir::Constant& c : m.constants) {
    if (c.cpp_name == cpp_name) return c.values.size() == 1 && c.values.front() == "0";
  }
  return false;
}

}  // namespace

void lower_wire_rules(const Node& profile, const ir::Module& m, ir::Profile& p) {
  Node ids = profile.child("ids");
  if (ids.has("match")) {
    p.id_match = one_of(ids.child("match"), {"exact", "string_form"}) == 0 ? "kExact"
                                                                           : "kStringForm";
  }
  if (profile.has("jsonrpc_member")) {
    p.jsonrpc_optional = one_of(profile.child("jsonrpc_member"), {"required", "optional"}) == 1;
  }
  if (profile.has("blank_method")) {
    p.blank_method_invalid = one_of(profile.child("blank_method"), {"valid", "invalid"}) == 1;
  }
  if (profile.has("invalid_request_id")) {
    p.invalid_request_id_null = one_of(profile.child("invalid_request_id"), {"echo", "null"}) == 1;
  }
  if (profile.has("unknown_id")) {
    Node n = profile.child("unknown_id");
    p.unknown_id_omitted = one_of(n, {"null", "omit"}) == 1;
    if (p.unknown_id_omitted &&
        std::find(p.ids_accepted.begin(), p.ids_accepted.end(), "kNull") != p.ids_accepted.end()) {
      n.fail("\"omit\" cannot tell an unknown id from a null one: ids.accept takes null");
    }
  }
  if (profile.has("line_breaks")) {
    Node n = profile.child("line_breaks");
    p.split_on_cr = one_of(n, {"lf", "any"}) == 1;
    if (p.split_on_cr && p.framing != "kNewlineDelimited") {
      n.fail("\"any\" line breaks need ndjson framing");
    }
  }
  if (profile.has("error_data")) lower_error_data(profile.child("error_data"), p);

  using R = ir::Profile::Receive;
  per_role(profile, "not_json", {"answer", "log"}, {"kAnswer", "kLog"}, p, &R::not_json,
           p.spawned_receives, p.spawner_receives, "kAnswer");
  per_role(profile, "oversize", {"close", "discard", "answer"}, {"kClose", "kDiscard", "kAnswer"},
           p, &R::oversize, p.spawned_receives, p.spawner_receives, "");
  per_role(profile, "stray_response", {"log", "answer"}, {"kLog", "kAnswer"}, p,
           &R::stray_response, p.spawned_receives, p.spawner_receives, "kLog");
  for (const auto& [role, receive] : {std::pair{p.spawned_role, &p.spawned_receives},
                                      std::pair{p.spawner_role, &p.spawner_receives}}) {
    if (receive->stray_response == "kAnswer" && sends_requests(m, role)) {
      profile.child("stray_response")
          .fail("\"" + role + "\" sends requests, so a response to it is not stray: it must "
                "be \"log\"");
    }
  }

  if (profile.has("output_cap")) p.output_cap = integer_constant(profile.child("output_cap"), m);

  if (profile.has("after_shutdown")) {
    Node n = profile.child("after_shutdown");
    static constexpr std::array<const char*, 3> kNames = {"kServe", "kStop", "kIgnoreInput"};
    p.after_shutdown = kNames[one_of(n, {"serve", "stop", "ignore_input"})];
    if (p.shutdown.empty()) n.fail("after_shutdown needs lifecycle.shutdown");
    if (p.stops_on_shutdown && p.after_shutdown != "kStop") {
      n.fail("contradicts stops_on \"shutdown\"");
    }
  }
  if (p.stops_on_shutdown) p.after_shutdown = "kStop";
}

void lower_stop(const Node& profile, const ir::Module& m, ir::Profile& p) {
  Node stop = profile.child("stop");
  if (!stop.json->is_array() || stop.json->empty()) stop.reject("expected a non-empty array");
  bool closed = false, killed = false;
  for (std::size_t i = 0; i < stop.json->size(); ++i) {
    Node step = stop.item(i);
    if (killed) step.fail("nothing can follow \"kill\"");
    if (step.json->is_object()) {
      if (step.json->size() != 1 || !step.has("wait")) step.reject("expected {\"wait\": <constant>}");
      p.stop.push_back({"kWait", timing_constant(step.child("wait"), TimingKind::kDuration, m)});
      continue;
    }
    static constexpr std::array<const char*, 5> kKinds = {"kShutdown", "kExit", "kCloseStdin",
                                                          "kSigterm", "kKill"};
    std::size_t kind = one_of(step, {"shutdown", "exit", "close_stdin", "sigterm", "kill"});
    if (kind == 0 && p.shutdown.empty()) step.fail("\"shutdown\" needs lifecycle.shutdown");
    if (kind == 1 && p.exit.empty()) step.fail("\"exit\" needs lifecycle.exit");
    if (kind == 2 && closed) step.fail("stdin is closed already");
    if ((kind == 0 || kind == 1) && closed) step.fail("cannot send once stdin is closed");
    if (kind == 3 && (i + 1 >= stop.json->size() || !stop.item(i + 1).json->is_object())) {
      step.fail("\"sigterm\" needs a {\"wait\": ...} after it, or it is a kill");
    }
    closed = closed || kind == 2;
    killed = kind == 4;
    p.stop.push_back({kKinds[kind], ""});
  }
  if (!killed) stop.fail("the last step must be \"kill\" (so that every stop ends)");
}

void lower_timings(const Node& profile, const ir::Module& m, ir::Profile& p) {
  Node timings = profile.child("timings");
  if (!timings.json->is_object()) timings.reject("expected an object");
  for (const auto& item : timings.json->items()) {
    auto known = [&](const TimingKey& k) { return k.key == item.key(); };
    if (item.key() == "exit_grace") {
      timings.child(item.key())
          .fail("not used: the stop sequence's {\"wait\": ...} steps say how long");
    }
    if (std::none_of(kProfileTimings.begin(), kProfileTimings.end(), known)) {
      timings.child(item.key()).fail("unknown timing");
    }
  }
  // Which timers apply: each must then be named (a constant or "none"); one that cannot
  // apply must not be.
  const bool health = !p.health_check.empty();
  const bool shutdown = std::any_of(p.stop.begin(), p.stop.end(),
                                    [](const auto& s) { return s.kind == "kShutdown"; });
  bool restarts = true;
  if (timings.has("restarts_in_window")) {
    std::string n = timer(timings.child("restarts_in_window"), TimingKind::kCount, m);
    restarts = !n.empty() && !is_zero(n, m);
  }
  auto applies = [&](std::string_view key) -> const char* {
    if (key == "health_check_interval" || key == "health_check_misses") {
      return health ? nullptr : "the protocol has no lifecycle.health_check";
    }
    if (key == "restart_backoff" || key == "restart_window") {
      return restarts ? nullptr : "restarts_in_window allows no restart";
    }
    if (key == "shutdown_timeout") return shutdown ? nullptr : "the stop sequence sends no shutdown";
    return nullptr;
  };
  for (const TimingKey& k : kProfileTimings) {
    const char* why_not = applies(k.key);
    if (why_not != nullptr) {
      if (timings.has(k.key)) timings.child(k.key).fail(std::string("not used: ") + why_not);
      p.timings.push_back({std::string(k.trait), "", k.kind});
      continue;
    }
    if (!timings.has(k.key)) {
      timings.fail("missing \"" + std::string(k.key) + "\" (a constant, or \"none\")");
    }
    const Node value = timings.child(k.key);
    if (k.key == "handshake_failure_exit_wait" && value.json->is_string() &&
        value.json->get<std::string>() == "stop") {
      p.handshake_failure_stops = true;  // the stop sequence, not a wait: no timer of its own
      p.timings.push_back({std::string(k.trait), "", k.kind});
      continue;
    }
    p.timings.push_back({std::string(k.trait), timer(value, k.kind, m), k.kind});
  }
  // Checks without a count of misses could never find a plugin unhealthy.
  if (health && !p.timings[2].constant.empty() && p.timings[3].constant.empty()) {
    timings.child("health_check_misses").fail("a health_check_interval needs a count of misses");
  }
}

}  // namespace rpckit::gen
