// The message comparisons: per message its name, kind, direction, gate, deadline and errors,
// a removed and an added message that carry the same payloads as one rename, and the payloads
// through PayloadDiff. docs/compat.md, "Protocol rules".
#include <algorithm>
#include <optional>

#include "tool/compat/diff.hpp"

namespace rpckit::compat {

using gen::Annotation;
using gen::Json;
using gen::Node;

namespace {

// A message as compared: the model's, with its kind and direction as text.
struct Message {
  const model::Message* model;
  std::string method;
  Node root;              // the message file
  std::string kind;       // "request" | "notification"
  std::string direction;  // "host_to_plugin"; "client_to_server, server_to_client" both ways
  std::vector<std::string> routes;  // each "a_to_b", sorted
};

std::string text_of(const std::optional<Node>& n) {
  return n && n->json->is_string() ? n->json->get<std::string>() : std::string();
}

std::vector<Message> messages_of(const model::Protocol& protocol) {
  std::vector<Message> out;
  for (const model::Message& m : protocol.messages()) {
    std::vector<std::string> routes;
    for (const auto& [from, to] : m.routes()) routes.push_back(from + "_to_" + to);
    std::sort(routes.begin(), routes.end());
    std::string direction;
    for (const std::string& r : routes) direction += (direction.empty() ? "" : ", ") + r;
    if (routes.empty()) direction = text_of(m.direction);
    out.push_back({&m, m.method, m.file, text_of(m.kind), direction, routes});
  }
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Sender and receiver of a direction, by the protocol's roles ("a_to_b").
Flow flow_of(const model::Protocol& protocol, const std::string& direction,
             const std::string& via) {
  for (const std::string& from : protocol.roles()) {
    for (const std::string& to : protocol.roles()) {
      if (direction == from + "_to_" + to) return {direction, from, to, via};
    }
  }
  auto at = direction.find("_to_");
  // Unreadable, or both ways ("a_to_b, b_to_a"): either side sends it.
  if (at == std::string::npos || direction.find(',') != std::string::npos) {
    return {direction, "sender", "receiver", via};
  }
  return {direction, direction.substr(0, at), direction.substr(at + 4), via};
}

Flow reversed(const Flow& f, const std::string& via) {
  return {f.receiver + "_to_" + f.sender, f.receiver, f.sender, via};
}

// A payload's schema with $refs inlined (a few levels deep) and annotations dropped: equal
// for two messages that carry the same payload under different names.
Json canonical(const Node& node, const gen::SchemaSet& set, int depth) {
  const std::string_view result = gen::kw(Annotation::kResult);
  if (node.has("$ref")) {
    Node target = set.resolve(node, node.json->at("$ref").get<std::string>());
    if (depth > 6) return location(target);
    return canonical(target, set, depth + 1);
  }
  if (!node.json->is_object()) return *node.json;
  Json out = Json::object();
  for (const auto& [key, value] : node.json->items()) {
    if (key == "description" || key == "title" || key == "examples" || key == "$comment" ||
        key == "definitions" || key == gen::kw(Annotation::kEnumDescriptions)) {
      continue;
    }
    if (key == "properties" || key == "definitions") {
      Json props = Json::object();
      for (const auto& [name, sub] : value.items()) {
        props[name] = canonical(node.child(key).child(name), set, depth);
      }
      out[key] = props;
    } else if (key == "items" || key == "additionalProperties" || key == result) {
      out[key] = value.is_object() ? canonical(node.child(key), set, depth) : value;
    } else if (key == "oneOf" || key == "anyOf") {
      Json list = Json::array();
      for (std::size_t i = 0; i < value.size(); ++i) {
        list.push_back(canonical(node.child(key).item(i), set, depth));
      }
      out[key] = list;
    } else {
      out[key] = value;
    }
  }
  return out;
}

// What a rename must keep: kind, direction and payloads.
Json signature(const Message& m, const gen::SchemaSet& set) {
  const std::optional<Node>& result = m.model->result;
  Json sig = Json::object();
  sig["kind"] = m.kind;
  sig["direction"] = m.direction;
  if (m.root.has("properties") && m.root.json->at("properties").contains("params")) {
    sig["params"] = canonical(m.root.child("properties").child("params"), set, 0);
  }
  if (result) sig["result"] = canonical(*result, set, 0);
  for (const auto& [member, schema] : m.model->results_when()) {
    sig["result_when"].push_back({member, canonical(schema, set, 0)});
  }
  return sig;
}

std::string gate_text(const std::optional<Node>& gate) {
  return gate ? json_text(*gate->json) : std::string("[]");
}

// Whether `m`'s params (inline, or a "#/..." $ref into its own file) declare `member`: nullopt
// when they cannot be read so.
std::optional<bool> params_declare(const Message& m, const std::string& member) {
  if (!m.model->params) return false;
  const Json* params = m.model->params->json;
  if (params->is_object() && params->contains("$ref") && params->at("$ref").is_string()) {
    const std::string ref = params->at("$ref").get<std::string>();
    if (ref.rfind("#/", 0) != 0) return std::nullopt;
    const Json::json_pointer pointer(ref.substr(1));
    if (!m.root.json->contains(pointer)) return std::nullopt;
    params = &m.root.json->at(pointer);
  }
  if (!params->is_object() || !params->contains("properties")) return std::nullopt;
  return params->at("properties").contains(member);
}

// New clauses that gate only params the old version did not have ({capability, param}): an
// old sender never sends them, so the new gate allows all it sends. Reported one per clause.
bool compare_new_param_gates(const Message& o, const Message& n, const Json& before,
                             const std::string& sides, Changes& out) {
  const std::optional<Node>& a = o.model->gate;
  const std::optional<Node>& z = n.model->gate;
  if (!z || !z->json->is_array()) return false;
  std::vector<std::size_t> added;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < z->json->size(); ++i) {
    const Json& clause = (*z->json)[i];
    if (std::find(before.begin(), before.end(), clause) != before.end()) {
      ++kept;
      continue;
    }
    if (!clause.is_object() || !clause.contains("capability") || !clause.contains("param") ||
        !clause.at("param").is_string() ||
        params_declare(o, clause.at("param").get<std::string>()) != false) {
      return false;
    }
    added.push_back(i);
  }
  if (kept != before.size() || added.empty()) return false;
  for (std::size_t i : added) {
    const Json& clause = (*z->json)[i];
    out.add(protocol_change(Verdict::kAdditive, "gate.new_param_gated", sides,
                            "message " + n.method,
                            "params." + clause.at("param").get<std::string>() +
                                " sent only with capability " + json_text(clause.at("capability")),
                            "the param is new: an old sender never sends it, and the gate "
                            "allows all it does send",
                            loc_or_empty(a), location(z->item(i)), n.direction));
  }
  return true;
}

bool is_sender_clause(const Json& clause) {
  return clause.is_object() && clause.contains("sender_capability");
}

// Clauses on the sender's own capabilities ({sender_capability}) added or removed, the rest of
// the gate unchanged. Only the sender is narrowed or widened, but a receiver that checks the
// gates of what it receives (StreamNook's host does) refuses what the other version's sender
// sends without the declaration, so both are breaking, for one side each.
bool compare_sender_gates(const model::Protocol& after, const Message& o, const Message& n,
                          Changes& out) {
  const std::optional<Node>& a = o.model->gate;
  const std::optional<Node>& z = n.model->gate;
  const Json before = a && a->json->is_array() ? *a->json : Json::array();
  const Json now = z && z->json->is_array() ? *z->json : Json::array();
  auto others = [](const Json& gate) {
    Json kept = Json::array();
    for (const Json& clause : gate) {
      if (!is_sender_clause(clause)) kept.push_back(clause);
    }
    return kept;
  };
  if (others(before) != others(now)) return false;
  const Flow flow = flow_of(after, n.direction, "");
  const std::string where = "message " + n.method;
  for (std::size_t i = 0; i < now.size(); ++i) {
    const Json& clause = now[i];
    if (!is_sender_clause(clause) ||
        std::find(before.begin(), before.end(), clause) != before.end()) {
      continue;
    }
    const std::string capability = json_text(clause.at("sender_capability"));
    out.add(protocol_change(Verdict::kBreaking, "gate.sender_capability_added",
                            "new " + flow.receiver + " <- old " + flow.sender, where,
                            "sent only by a " + flow.sender + " that declared " + capability,
                            "a new " + flow.receiver +
                                " that checks gates refuses it from an old " + flow.sender +
                                " that did not declare " + capability + "; an old " +
                                flow.receiver + " only gets it less often",
                            loc_or_empty(a), location(z->item(i)), n.direction));
  }
  for (std::size_t i = 0; i < before.size(); ++i) {
    const Json& clause = before[i];
    if (!is_sender_clause(clause) || std::find(now.begin(), now.end(), clause) != now.end()) {
      continue;
    }
    const std::string capability = json_text(clause.at("sender_capability"));
    out.add(protocol_change(Verdict::kBreaking, "gate.sender_capability_removed",
                            "old " + flow.receiver + " <- new " + flow.sender, where,
                            "no longer needs the " + flow.sender + " to declare " + capability,
                            "a new " + flow.sender + " sends it without declaring " + capability +
                                ", which an old " + flow.receiver + " that checks gates refuses",
                            location(a->item(i)), loc_or_empty(z), n.direction));
  }
  return true;
}

// {capability X} that became {capability X, keyed_by P, default D}: X's members are now the
// choices of params.P, so a receiver that declared X with members, but not D, refuses what an
// old sender sends (an old sender needed X only, and sends no P: D). Each such clause is
// replaced in `before` by the new one, for the comparison of what else changed. Whether any was.
bool compare_keyed_gates(const model::Protocol& after, const Message& o, const Message& n,
                         Json& before, Changes& out) {
  const std::optional<Node>& a = o.model->gate;
  const std::optional<Node>& z = n.model->gate;
  if (!z || !z->json->is_array()) return false;
  bool keyed = false;
  const Flow flow = flow_of(after, n.direction, "");
  for (std::size_t i = 0; i < z->json->size(); ++i) {
    const Json& clause = (*z->json)[i];
    if (!clause.is_object() || !clause.contains("keyed_by") || !clause.contains("capability")) {
      continue;
    }
    const Json plain = {{"capability", clause.at("capability")}};
    auto old = std::find(before.begin(), before.end(), plain);
    if (old == before.end()) continue;
    const std::size_t at = static_cast<std::size_t>(old - before.begin());
    *old = clause;
    keyed = true;
    const std::string capability = json_text(clause.at("capability"));
    const Json& key = clause.at("keyed_by");
    const std::string by = "params." + (key.is_string() ? key.get<std::string>() : json_text(key));
    const std::string fallback = json_text(clause.at("default"));
    out.add(protocol_change(
        Verdict::kBreaking, "gate.capability_keyed",
        "new " + flow.receiver + " <- old " + flow.sender, "message " + n.method,
        "needs the member of " + capability + " that " + by + " names (" + fallback +
            " when absent), no longer " + capability + " alone",
        "a new " + flow.receiver + " that declared " + capability + " with members, but not " +
            fallback + ", refuses it from an old " + flow.sender + ", which sends no " + by +
            "; an old " + flow.receiver + " declared " + capability +
            " with no members, which declares " + fallback + ", and gets nothing else",
        location(a->item(at)), location(z->item(i)), n.direction));
  }
  return keyed;
}

void compare_gates(const model::Protocol& after, const Message& o, const Message& n,
                   const std::string& sides, Changes& out) {
  const std::optional<Node>& a = o.model->gate;
  const std::optional<Node>& z = n.model->gate;
  if (gate_text(a) == gate_text(z)) return;
  Json before = a && a->json->is_array() ? *a->json : Json::array();
  const Json now = z && z->json->is_array() ? *z->json : Json::array();
  const bool keyed = compare_keyed_gates(after, o, n, before, out);
  if (keyed && before == now) return;
  if (!keyed && compare_sender_gates(after, o, n, out)) return;
  if (compare_new_param_gates(o, n, before, sides, out)) return;
  const std::string where = "message " + n.method;
  // A clause that kept its list and changed only its capability is a renamed capability.
  if (a && z && a->json->size() == z->json->size()) {
    bool only_values = true;
    for (std::size_t i = 0; i < a->json->size(); ++i) {
      Json x = (*a->json)[i];
      Json y = (*z->json)[i];
      if (x == y) continue;
      if (!x.contains("value") || !y.contains("value")) only_values = false;
      x.erase("value");
      y.erase("value");
      if (x != y) only_values = false;
    }
    if (only_values) {
      for (std::size_t i = 0; i < a->json->size(); ++i) {
        const Json& x = (*a->json)[i];
        const Json& y = (*z->json)[i];
        if (x == y) continue;
        out.add(
            protocol_change(Verdict::kBreaking, "gate.capability_renamed", sides, where,
                            "gate capability renamed " + json_text(x.at("value")) + " -> " +
                                json_text(y.at("value")),
                            "a grant written for one version does not open the gate of the other",
                            location(a->item(i)), location(z->item(i)), n.direction));
      }
      return;
    }
  }
  out.add(protocol_change(Verdict::kBreaking, "gate.changed", sides, where,
                          "gate " + gate_text(a) + " -> " + gate_text(z),
                          "the two versions allow the message under different grants",
                          loc_or_empty(a), loc_or_empty(z), n.direction));
}

void compare_errors_lists(const Message& o, const Message& n, const std::string& sides,
                          Changes& out) {
  auto list = [](const Message& m) {
    std::vector<std::string> v;
    if (!m.model->errors || !m.model->errors->json->is_array()) return v;
    for (const Json& e : *m.model->errors->json) {
      if (e.is_string()) v.push_back(e.get<std::string>());
    }
    return v;
  };
  std::vector<std::string> a = list(o);
  std::vector<std::string> z = list(n);
  auto has = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  const std::string where = "message " + n.method;
  for (const std::string& e : z) {
    if (has(a, e)) continue;
    out.add(protocol_change(Verdict::kAdditive, "errors.added", sides, where,
                            "may now fail with " + e,
                            "callers already cope with error codes they do not expect",
                            location(o.root), location(*n.model->errors), n.direction));
  }
  for (const std::string& e : a) {
    if (has(z, e)) continue;
    out.add(protocol_change(Verdict::kAdditive, "errors.removed", sides, where,
                            "no longer fails with " + e,
                            "callers keep handling an error that no longer comes",
                            location(*o.model->errors), location(n.root), n.direction));
  }
}

// Whether the gate sends params.`member` only to a receiver that declared a capability.
bool param_gated(const Message& m, const std::string& member) {
  const std::optional<Node>& gate = m.model->gate;
  if (!gate || !gate->json->is_array()) return false;
  return std::any_of(gate->json->begin(), gate->json->end(), [&](const Json& clause) {
    return clause.is_object() && clause.contains("capability") && clause.contains("param") &&
           clause.at("param") == member;
  });
}

// x-result-when, entry by entry (`flow`: the request's). An entry added for a params member the
// old version lacks, sent only to a receiver that declared a capability, is additive: an old
// caller never sends it, and an old receiver never declared the capability. Without that gate a
// new caller sends it to an old receiver, which answers with the message's own result; for a
// member the old version had, each version answers such a request with a result the other's
// caller does not expect. A removed entry breaks the same way. An entry in both: its results
// are compared as results are.
void compare_results_when(const Message& o, const Message& n, const Flow& flow,
                          const std::string& sides, PayloadDiff& payloads, Changes& out) {
  const auto before = o.model->results_when();
  const auto now = n.model->results_when();
  auto find = [](const auto& entries, const std::string& member) {
    return std::find_if(entries.begin(), entries.end(),
                        [&](const auto& e) { return e.first == member; });
  };
  const std::string where = "message " + n.method;
  for (const auto& [member, schema] : now) {
    const auto old = find(before, member);
    if (old != before.end()) {
      const std::string via = n.method + ".result(params." + member + ")";
      payloads.compare_value(old->second, schema, reversed(flow, via), via);
      continue;
    }
    const bool new_member = params_declare(o, member) == false;
    const bool gated = new_member && param_gated(n, member);
    std::string affected = sides;
    std::string why =
        "the param is new and gated: an old caller never sends it, and an old "
        "receiver never declared what it needs";
    if (new_member && !gated) {
      affected = "old " + flow.receiver + " <- new " + flow.sender;
      why = "a new " + flow.sender + " sends params." + member + " to an old " + flow.receiver +
            ", which answers with the message's own result";
    } else if (!new_member) {
      why = "an old caller that sends params." + member +
            " gets a result it does not expect, and a new one expects a result an old receiver "
            "does not give";
    }
    out.add(protocol_change(
        gated ? Verdict::kAdditive : Verdict::kBreaking, "result_when.added", affected, where,
        "a request carrying params." + member + " is answered with another result", why,
        loc_or_empty(o.model->result_when), location(schema), n.direction));
  }
  for (const auto& [member, schema] : before) {
    if (find(now, member) != now.end()) continue;
    out.add(protocol_change(
        Verdict::kBreaking, "result_when.removed", sides, where,
        "a request carrying params." + member + " is answered with the message's own result again",
        "an old caller that sends params." + member +
            " expects the other result, a new one this one",
        location(schema), loc_or_empty(n.model->result_when), n.direction));
  }
}

void compare_pair(const model::Protocol& after, const Message& o, const Message& n,
                  PayloadDiff& payloads, Changes& out) {
  const std::string sides = both_sides(after);
  const std::string where = "message " + n.method;
  const bool widened = std::all_of(o.routes.begin(), o.routes.end(),
                                   [&](const std::string& r) { return has(n.routes, r); });
  if (o.direction != n.direction && widened && !o.routes.empty()) {
    // Now sent both ways: like a new message, for the side that receives it for the first time.
    for (const std::string& r : n.routes) {
      if (has(o.routes, r)) continue;
      Flow flow = flow_of(after, r, "");
      std::string effect = n.kind == "request"
                               ? "answers it with method_not_found (-32601), which a caller handles"
                               : "ignores it";
      out.add(protocol_change(Verdict::kAdditive, "message.direction_added", flow.receiver, where,
                              "now also sent " + r, "an old " + flow.receiver + " " + effect,
                              loc_or_empty(o.model->direction), loc_or_empty(n.model->direction),
                              r));
    }
  } else if (o.direction != n.direction) {
    out.add(protocol_change(Verdict::kBreaking, "message.direction_changed", sides, where,
                            "direction " + o.direction + " -> " + n.direction,
                            "the old receiver sends it now, and the old sender receives it",
                            loc_or_empty(o.model->direction), loc_or_empty(n.model->direction),
                            n.direction));
    return;  // its payloads flow the other way: comparing them says nothing more
  }
  if (o.kind != n.kind) {
    out.add(protocol_change(Verdict::kBreaking, "message.kind_changed", sides, where,
                            "kind " + o.kind + " -> " + n.kind,
                            "a request waits for exactly one reply and a notification gets "
                            "none: each version breaks the other's expectation",
                            loc_or_empty(o.model->kind), loc_or_empty(n.model->kind), n.direction));
  }
  compare_gates(after, o, n, sides, out);
  const std::optional<Node>& da = o.model->deadline;
  const std::optional<Node>& dz = n.model->deadline;
  if (o.kind == "request" && n.kind == "request" && text_or_none(da) != text_or_none(dz)) {
    out.add(protocol_change(Verdict::kBreaking, "message.deadline_changed", sides + ", C++ API",
                            where, "deadline " + text_or_none(da) + " -> " + text_or_none(dz),
                            "the caller gives up at another time than the receiver was built for",
                            loc_or_empty(da), loc_or_empty(dz), n.direction));
  }
  compare_errors_lists(o, n, sides, out);
  // Payloads are compared on every way both versions send the message.
  for (const std::string& route :
       o.routes.empty() ? std::vector<std::string>{n.direction} : o.routes) {
    Flow flow = flow_of(after, route, n.method + ".params");
    payloads.compare_member(o.root, n.root, "params", flow, n.method);
    if (o.model->result && n.model->result) {
      Flow back = reversed(flow, n.method + ".result");
      payloads.compare_value(*o.model->result, *n.model->result, back, n.method + ".result");
      compare_results_when(o, n, flow, sides, payloads, out);
    }
  }
}

}  // namespace

void compare_messages(const model::Protocol& before, const model::Protocol& after,
                      PayloadDiff& payloads, Changes& out) {
  std::vector<Message> o = messages_of(before);
  std::vector<Message> n = messages_of(after);
  auto find = [](const std::vector<Message>& v, const std::string& method) {
    return std::find_if(v.begin(), v.end(), [&](const Message& m) { return m.method == method; });
  };
  // Messages only one version has; a removed and an added one with the same kind, direction
  // and payloads are one renamed message.
  std::vector<const Message*> added;
  for (const Message& m : n) {
    if (find(o, m.method) == o.end()) added.push_back(&m);
  }
  const std::string sides = both_sides(after);
  for (const Message& m : o) {
    auto it = find(n, m.method);
    if (it != n.end()) {
      compare_pair(after, m, *it, payloads, out);
      continue;
    }
    Json sig = signature(m, before.schemas());
    auto renamed = std::find_if(added.begin(), added.end(), [&](const Message* a) {
      return signature(*a, after.schemas()) == sig;
    });
    Flow flow = flow_of(before, m.direction, "");
    if (renamed != added.end()) {
      const Message& r = **renamed;
      out.add(protocol_change(Verdict::kBreaking, "message.renamed", sides, "message " + m.method,
                              "renamed " + m.method + " -> " + r.method,
                              "each version sends a method the other does not know",
                              location(m.root.child("properties").child("method")),
                              location(r.root.child("properties").child("method")), m.direction));
      compare_pair(after, m, r, payloads, out);
      added.erase(renamed);
      continue;
    }
    std::string effect = m.kind == "request" ? "answers an old " + flow.sender +
                                                   "'s call with method_not_found (-32601)"
                                             : "drops an old " + flow.sender + "'s notification";
    out.add(protocol_change(Verdict::kBreaking, "message.removed",
                            "new " + flow.receiver + " <- old " + flow.sender + ", C++ API",
                            "message " + m.method, "message removed",
                            "a new " + flow.receiver + " " + effect, location(m.root), "",
                            m.direction));
  }
  for (const Message* m : added) {
    Flow flow = flow_of(after, m->direction, "");
    std::string effect = m->kind == "request"
                             ? "answers it with method_not_found (-32601), which a caller handles"
                             : "ignores it";
    out.add(protocol_change(Verdict::kAdditive, "message.added", flow.receiver,
                            "message " + m->method, "new " + m->kind + " " + m->direction,
                            "an old " + flow.receiver + " " + effect, "", location(m->root),
                            m->direction));
  }
}

}  // namespace rpckit::compat
