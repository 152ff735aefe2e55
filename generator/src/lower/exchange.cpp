#include "lower/exchange.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "lower/profile_values.hpp"
#include "model.hpp"
#include "rpckit/descriptors/exchange.hpp"

namespace rpckit::gen {
namespace {

constexpr std::array<std::string_view, 10> kExchangeKeys = {
    "description", "framing", "max_frame_bytes", "lines", "spawned",
    "discriminator", "correlation", "steps", "ends", "timings"};
constexpr std::array<std::string_view, 3> kStepKeys = {"from", "type", "within"};
constexpr std::array<std::string_view, 4> kExchangeTimings = {"invoke", "launch", "teardown",
                                                              "reap"};

std::string role(const Node& n, const ir::Module& m) {
  std::string name = string_of(n);
  if (std::find(m.roles.begin(), m.roles.end(), name) == m.roles.end()) {
    n.fail("\"" + name + "\" is not a role of x-roles (" + quoted_list(m.roles) + ")");
  }
  return name;
}

std::string duration(const Node& n, const ir::Module& m) {
  return timing_constant(n, ir::Profile::Timing::Kind::kDuration, m);
}

const ir::Field* field(const ir::TypeDecl& type, const std::string& wire) {
  for (const ir::Field& f : type.struct_.fields) {
    if (f.wire_name == wire) return &f;
  }
  return nullptr;
}

ir::Exchange::Step lower_step(const Node& n, const ir::Exchange& x, const ir::Module& m) {
  only_keys(n, kStepKeys, "step key");
  ir::Exchange::Step step;
  step.from = role(n.child("from"), m);
  Node type = n.child("type");
  step.type = string_of(type);
  auto decl = std::find_if(m.types.begin(), m.types.end(), [&](const ir::TypeDecl& d) {
    return d.name == step.type && d.kind == ir::TypeDecl::Kind::kStruct;
  });
  if (decl == m.types.end()) {
    std::vector<std::string> structs;
    for (const ir::TypeDecl& d : m.types) {
      if (d.kind == ir::TypeDecl::Kind::kStruct) structs.push_back(d.name);
    }
    type.fail("\"" + step.type + "\" is not an object type of the protocol (" +
              quoted_list(structs) + ")");
  }
  const ir::Field* tag = field(*decl, x.discriminator);
  Json tag_value = tag != nullptr && tag->const_json ? Json::parse(*tag->const_json) : Json();
  if (!tag_value.is_string()) {
    type.fail("\"" + step.type + "\" has no \"" + x.discriminator +
              "\" member with a string const (the discriminator)");
  }
  step.tag = tag_value.get<std::string>();
  step.correlated = !x.correlation.empty() && field(*decl, x.correlation) != nullptr;
  if (n.has("within")) step.timeout = duration(n.child("within"), m);
  return step;
}

}  // namespace

ir::Exchange lower_exchange(const Node& exchange, const ir::Module& m) {
  only_keys(exchange, kExchangeKeys, "exchange key");
  ir::Exchange x;
  one_of(exchange.child("framing"), {"ndjson"});  // what the one-shot roles speak so far
  x.framing = "kNewlineDelimited";
  x.max_frame_bytes = integer_constant(exchange.child("max_frame_bytes"), m);
  if (exchange.has("lines")) x.strict_lines = one_of(exchange.child("lines"), {"lenient", "strict"}) == 1;

  Node spawned = exchange.child("spawned");
  x.spawned_role = role(spawned, m);
  if (m.roles.size() != 2) spawned.fail("an exchange needs exactly two roles in x-roles");
  x.spawner_role = m.roles[0] == x.spawned_role ? m.roles[1] : m.roles[0];

  x.discriminator = string_of(exchange.child("discriminator"));
  if (exchange.has("correlation")) x.correlation = string_of(exchange.child("correlation"));

  Node steps = exchange.child("steps");
  if (!steps.json->is_array() || steps.json->empty()) steps.reject("expected a non-empty array");
  for (std::size_t i = 0; i < steps.json->size(); ++i) {
    ir::Exchange::Step step = lower_step(steps.item(i), x, m);
    if (i == 0 && step.from != x.spawner_role) {
      steps.item(i).child("from").fail("the first step must come from the spawner (\"" +
                                       x.spawner_role + "\")");
    }
    x.steps.push_back(std::move(step));
    x.steps.back().answers = answered_step(
        i, [&](std::size_t a, std::size_t b) { return x.steps[a].from == x.steps[b].from; },
        [&](std::size_t a) { return x.steps[a].correlated; });
  }
  if (!x.correlation.empty() &&
      std::none_of(x.steps.begin(), x.steps.end(), [](const auto& s) { return s.correlated; })) {
    exchange.child("correlation").fail("\"" + x.correlation + "\" is in no step's type");
  }
  one_of(exchange.child("ends"), {"stdin_eof"});  // the only ending so far
  x.ends = "stdin_eof";

  if (!exchange.has("timings")) return x;
  Node timings = exchange.child("timings");
  only_keys(timings, kExchangeTimings, "exchange timing");
  std::array<std::string*, 4> slots = {&x.invoke_timeout, &x.launch_timeout, &x.teardown_timeout,
                                       &x.reap_timeout};
  for (std::size_t i = 0; i < kExchangeTimings.size(); ++i) {
    if (timings.has(kExchangeTimings[i])) {
      *slots[i] = duration(timings.child(kExchangeTimings[i]), m);
    }
  }
  return x;
}

}  // namespace rpckit::gen
