// The protocol-level comparisons: protocol.json's annotations, its constants, the error
// codes, and per message its name, kind, direction, gate, deadline and errors (the payloads
// go to PayloadDiff). docs/compat.md, "Protocol rules".
#include <algorithm>
#include <optional>

#include "ir/dump.hpp"
#include "lower/lower.hpp"
#include "tool/compat/diff.hpp"

namespace rpckit::compat {

using gen::Json;
using gen::Node;

namespace {

std::vector<std::string> roles_of(const gen::SchemaSet& set) {
  std::vector<std::string> roles;
  const Json& root = *set.root().json;
  if (root.contains("x-roles") && root.at("x-roles").is_array()) {
    for (const Json& r : root.at("x-roles")) {
      if (r.is_string()) roles.push_back(r.get<std::string>());
    }
  }
  return roles;
}

std::string both_sides(const gen::SchemaSet& set) {
  std::vector<std::string> roles = roles_of(set);
  std::string out;
  for (std::size_t i = 0; i < roles.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == roles.size() ? " and " : ", ") + roles[i];
  }
  return out.empty() ? "both sides" : out;
}

Change protocol_change(Verdict verdict, std::string rule, std::string affected, std::string where,
                       std::string change, std::string why, std::string old_location,
                       std::string new_location, std::string direction = "") {
  Change c;
  c.verdict = verdict;
  c.direction = std::move(direction);
  c.rule = std::move(rule);
  c.affected = std::move(affected);
  c.where = std::move(where);
  c.change = std::move(change);
  c.why = std::move(why);
  c.old_location = std::move(old_location);
  c.new_location = std::move(new_location);
  return c;
}

std::optional<Node> child_if(const Node& node, const std::string& key) {
  if (!node.has(key)) return std::nullopt;
  return node.child(key);
}

std::string text_or_none(const std::optional<Node>& n) {
  return n ? json_text(*n->json) : std::string("none");
}

std::string loc_or_empty(const std::optional<Node>& n) { return n ? location(*n) : std::string(); }

// The profiles by what they mean (the lowered profile, one line per concern), not by their
// text: a profile restated in newer terms, or with its keys reordered, is the same profile.
// The profile's lines: what it means when the schema lowers (`lowered`), else its members as
// written (compat also compares broken drafts). Which directions exist is the messages'
// business, reported with them.
std::optional<std::vector<std::string>> profile_lines(const gen::SchemaSet& set, bool lowered) {
  if (!set.root().has("x-profile")) return std::vector<std::string>{};
  std::string text;
  if (lowered) {
    try {
      gen::ir::Module m = gen::lower(set, {.accept_legacy_profile = true});
      text = gen::dump_profile(*m.profile);
    } catch (const gen::SchemaError&) {
      return std::nullopt;
    }
  } else if (Node profile = set.root().child("x-profile"); profile.json->is_object()) {
    for (const auto& [key, value] : profile.json->items()) {
      text += "profile " + key + " " + json_text(value) + "\n";
    }
  }
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    if (line.starts_with("profile roles ")) line = line.substr(0, line.find(" to-spawned "));
    lines.push_back(std::move(line));
    at = end + 1;
  }
  return lines;
}

void compare_profiles(const gen::SchemaSet& before, const gen::SchemaSet& after, Changes& out) {
  auto lowered_a = profile_lines(before, true);
  auto lowered_z = profile_lines(after, true);
  const bool both = lowered_a && lowered_z;  // else both as written, alike
  std::vector<std::string> a = both ? *lowered_a : *profile_lines(before, false);
  std::vector<std::string> z = both ? *lowered_z : *profile_lines(after, false);
  auto old_location = child_if(before.root(), "x-profile");
  auto new_location = child_if(after.root(), "x-profile");
  auto missing = [](const std::vector<std::string>& in, const std::string& line) {
    return std::find(in.begin(), in.end(), line) == in.end();
  };
  std::vector<std::string> gone, came;
  for (const std::string& line : a) if (missing(z, line)) gone.push_back(line);
  for (const std::string& line : z) if (missing(a, line)) came.push_back(line);
  if (gone.empty() && came.empty()) return;
  auto join = [](const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& l : lines) text += (text.empty() ? "" : "; ") + l;
    return text.empty() ? std::string("none") : text;
  };
  out.add(protocol_change(Verdict::kBreaking, "protocol.profile", both_sides(after),
                          "protocol x-profile", join(gone) + " -> " + join(came),
                          "the peers disagree on how the protocol travels or lives",
                          loc_or_empty(old_location), loc_or_empty(new_location)));
}

void compare_identity(const gen::SchemaSet& before, const gen::SchemaSet& after, Changes& out) {
  struct Key {
    const char* key;
    const char* why;
    bool api;
  };
  const Key keys[] = {
      {"x-namespace", "every generated name moves to another C++ namespace", true},
      {"x-module", "the generated module, its folder and CMake targets are renamed", true},
      {"x-roles", "the sides of the protocol differ", false},
      {"x-error-codes", "error codes are read from another list", false},
      {"x-default-deadline", "requests without their own deadline time out differently", false},
  };
  Node o = before.root();
  Node n = after.root();
  for (const Key& k : keys) {
    auto a = child_if(o, k.key);
    auto z = child_if(n, k.key);
    if (text_or_none(a) == text_or_none(z)) continue;
    out.add(protocol_change(Verdict::kBreaking, std::string("protocol.") + (k.key + 2),
                            k.api ? "C++ API" : both_sides(after), "protocol " + std::string(k.key),
                            text_or_none(a) + " -> " + text_or_none(z), k.why, loc_or_empty(a),
                            loc_or_empty(z)));
  }
  compare_profiles(before, after, out);
  // x-exchange, member by member: how a one-shot protocol travels. Its description is
  // documentation only.
  auto po = child_if(o, "x-exchange");
  auto pn = child_if(n, "x-exchange");
  std::vector<std::string> keys_seen;
  for (const auto& p : {pn, po}) {
    if (!p || !p->json->is_object()) continue;
    for (const auto& [key, value] : p->json->items()) {
      if (std::find(keys_seen.begin(), keys_seen.end(), key) == keys_seen.end()) {
        keys_seen.push_back(key);
      }
    }
  }
  for (const std::string& key : keys_seen) {
    if (key == "description") continue;
    auto a = po && po->json->is_object() ? child_if(*po, key) : std::nullopt;
    auto z = pn && pn->json->is_object() ? child_if(*pn, key) : std::nullopt;
    if (text_or_none(a) == text_or_none(z)) continue;
    out.add(protocol_change(Verdict::kBreaking, "protocol.exchange", both_sides(after),
                            "protocol x-exchange." + key,
                            text_or_none(a) + " -> " + text_or_none(z),
                            "the peers disagree on how the protocol travels or lives",
                            loc_or_empty(a), loc_or_empty(z)));
  }
}

void compare_constants(const gen::SchemaSet& before, const gen::SchemaSet& after,
                       const CompareOptions& options, const Report& report, Changes& out) {
  Node o = before.root();
  Node n = after.root();
  auto props = [](const Node& root) -> std::optional<Node> { return child_if(root, "properties"); };
  auto po = props(o);
  auto pn = props(n);
  std::vector<std::string> names;
  for (const auto& p : {pn, po}) {
    if (!p) continue;
    for (const auto& [key, value] : p->json->items()) {
      if (std::find(names.begin(), names.end(), key) == names.end()) names.push_back(key);
    }
  }
  const std::string sides = both_sides(after);
  for (const std::string& name : names) {
    auto a = po ? child_if(*po, name) : std::nullopt;
    auto z = pn ? child_if(*pn, name) : std::nullopt;
    std::string where = "constant " + name;
    if (!a) {
      out.add(protocol_change(Verdict::kAdditive, "constant.added", sides, where,
                              "new constant " + text_or_none(child_if(*z, "const")),
                              "nothing used it before", "", location(*z)));
      continue;
    }
    if (!z) {
      out.add(protocol_change(
          Verdict::kBreaking, "constant.removed", sides + ", C++ API", where, "constant removed",
          "both sides relied on it; its generated name is gone", location(*a), ""));
      continue;
    }
    auto ca = child_if(*a, "const");
    auto cz = child_if(*z, "const");
    if (text_or_none(ca) != text_or_none(cz)) {
      std::string change = text_or_none(ca) + " -> " + text_or_none(cz);
      if (name == options.version_constant && ca && cz &&
          version_step(*ca->json, *cz->json) == VersionStep::kMinor) {
        // "1.0" -> "1.2": peers of one major version accept each other.
        out.add(protocol_change(
            Verdict::kAdditive, "constant.version", sides, where, change,
            "a minor version: peers of the same major version accept each other (it does not "
            "allow a breaking change)",
            loc_or_empty(ca), loc_or_empty(cz)));
      } else if (name == options.version_constant) {
        out.add(protocol_change(
            Verdict::kBreaking, "constant.version", sides, where, change,
            report.version_bumped
                ? "the version bump: peers of different versions refuse each other, as the "
                  "breaking changes listed require"
                : "the version went down or sideways: peers refuse each other",
            loc_or_empty(ca), loc_or_empty(cz)));
      } else {
        out.add(protocol_change(Verdict::kBreaking, "constant.changed", sides, where, change,
                                "both sides must agree on it", loc_or_empty(ca), loc_or_empty(cz)));
      }
    }
    auto ua = child_if(*a, "x-unit");
    auto uz = child_if(*z, "x-unit");
    if (text_or_none(ua) != text_or_none(uz)) {
      out.add(protocol_change(Verdict::kBreaking, "constant.unit_changed", sides + ", C++ API",
                              where, "unit " + text_or_none(ua) + " -> " + text_or_none(uz),
                              "the value means something else, and its C++ type changes",
                              location(*a), location(*z)));
    }
  }
}

// The integer enum x-error-codes names: code -> (name, location).
struct ErrorCode {
  Json code;
  std::string name;
  std::string location;
};

std::vector<ErrorCode> error_codes(const gen::SchemaSet& set) {
  std::vector<ErrorCode> out;
  Node root = set.root();
  if (!root.has("x-error-codes") || !root.json->at("x-error-codes").is_string()) return out;
  Node e =
      set.resolve(root.child("x-error-codes"), root.json->at("x-error-codes").get<std::string>());
  if (!e.has("enum")) return out;
  const Json* names = e.has("x-enum-names") ? &e.json->at("x-enum-names") : nullptr;
  for (std::size_t i = 0; i < e.json->at("enum").size(); ++i) {
    std::string name = names != nullptr && i < names->size() && (*names)[i].is_string()
                           ? (*names)[i].get<std::string>()
                           : json_text(e.json->at("enum")[i]);
    out.push_back({e.json->at("enum")[i], name, location(e.child("enum").item(i))});
  }
  return out;
}

void compare_error_codes(const gen::SchemaSet& before, const gen::SchemaSet& after, Changes& out) {
  std::vector<ErrorCode> o = error_codes(before);
  std::vector<ErrorCode> n = error_codes(after);
  auto find = [](const std::vector<ErrorCode>& v, const Json& code) {
    return std::find_if(v.begin(), v.end(), [&](const ErrorCode& e) { return e.code == code; });
  };
  const std::string sides = both_sides(after);
  for (const ErrorCode& e : o) {
    std::string where = "error code " + json_text(e.code);
    auto it = find(n, e.code);
    if (it == n.end()) {
      out.add(protocol_change(Verdict::kBreaking, "error.removed", sides + ", C++ API", where,
                              "error code " + e.name + " removed",
                              "an old peer may still return it, and the name x-errors and the "
                              "generated enumerator use is gone",
                              e.location, ""));
    } else if (it->name != e.name) {
      out.add(protocol_change(Verdict::kBreaking, "error.renamed", sides + ", C++ API", where,
                              "error code renamed " + e.name + " -> " + it->name,
                              "error.data.name and the generated enumerator change; code that "
                              "names the old one stops compiling",
                              e.location, it->location));
    }
  }
  for (const ErrorCode& e : n) {
    if (find(o, e.code) != o.end()) continue;
    out.add(protocol_change(Verdict::kAdditive, "error.added", sides,
                            "error code " + json_text(e.code), "new error code " + e.name,
                            "error codes are open: an old peer reads an unknown code as a plain "
                            "error",
                            "", e.location));
  }
}

// ---- messages -----------------------------------------------------------------------------

struct Message {
  std::string method;
  Node root;
  std::string kind;       // "request" | "notification"
  std::string direction;  // "host_to_plugin"
};

std::vector<Message> messages_of(const gen::SchemaSet& set) {
  std::vector<Message> out;
  const Json& root = *set.root().json;
  if (!root.contains("x-messages")) return out;
  for (const Json& file : root.at("x-messages")) {
    Node m = set.file(file.get<std::string>());
    Message msg;
    msg.root = m;
    msg.method = m.child("properties").child("method").child("const").json->get<std::string>();
    msg.kind = m.json->value("x-kind", "");
    msg.direction = m.json->value("x-direction", "");
    out.push_back(msg);
  }
  return out;
}

// Sender and receiver of a direction, by the protocol's roles ("a_to_b").
Flow flow_of(const gen::SchemaSet& set, const std::string& direction, const std::string& via) {
  for (const std::string& from : roles_of(set)) {
    for (const std::string& to : roles_of(set)) {
      if (direction == from + "_to_" + to) return {direction, from, to, via};
    }
  }
  auto at = direction.find("_to_");
  if (at == std::string::npos) return {direction, "sender", "receiver", via};
  return {direction, direction.substr(0, at), direction.substr(at + 4), via};
}

Flow reversed(const Flow& f, const std::string& via) {
  return {f.receiver + "_to_" + f.sender, f.receiver, f.sender, via};
}

// A payload's schema with $refs inlined (a few levels deep) and annotations dropped: equal
// for two messages that carry the same payload under different names.
Json canonical(const Node& node, const gen::SchemaSet& set, int depth) {
  if (node.has("$ref")) {
    Node target = set.resolve(node, node.json->at("$ref").get<std::string>());
    if (depth > 6) return location(target);
    return canonical(target, set, depth + 1);
  }
  if (!node.json->is_object()) return *node.json;
  Json out = Json::object();
  for (const auto& [key, value] : node.json->items()) {
    if (key == "description" || key == "title" || key == "examples" || key == "$comment" ||
        key == "definitions" || key.starts_with("x-enum-descriptions")) {
      continue;
    }
    if (key == "properties" || key == "definitions") {
      Json props = Json::object();
      for (const auto& [name, sub] : value.items()) {
        props[name] = canonical(node.child(key).child(name), set, depth);
      }
      out[key] = props;
    } else if (key == "items" || key == "additionalProperties" || key == "x-result") {
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
  Json sig = Json::object();
  sig["kind"] = m.kind;
  sig["direction"] = m.direction;
  if (m.root.has("properties") && m.root.json->at("properties").contains("params")) {
    sig["params"] = canonical(m.root.child("properties").child("params"), set, 0);
  }
  if (m.root.has("x-result")) sig["result"] = canonical(m.root.child("x-result"), set, 0);
  return sig;
}

std::string gate_text(const std::optional<Node>& gate) {
  return gate ? json_text(*gate->json) : std::string("[]");
}

void compare_gates(const Message& o, const Message& n, const std::string& sides, Changes& out) {
  auto a = child_if(o.root, "x-gate");
  auto z = child_if(n.root, "x-gate");
  if (gate_text(a) == gate_text(z)) return;
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
    if (!m.root.has("x-errors")) return v;
    for (const Json& e : m.root.json->at("x-errors")) {
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
                            location(o.root), location(n.root.child("x-errors")), n.direction));
  }
  for (const std::string& e : a) {
    if (has(z, e)) continue;
    out.add(protocol_change(Verdict::kAdditive, "errors.removed", sides, where,
                            "no longer fails with " + e,
                            "callers keep handling an error that no longer comes",
                            location(o.root.child("x-errors")), location(n.root), n.direction));
  }
}

void compare_pair(const gen::SchemaSet& after, const Message& o, const Message& n,
                  PayloadDiff& payloads, Changes& out) {
  const std::string sides = both_sides(after);
  const std::string where = "message " + n.method;
  if (o.direction != n.direction) {
    out.add(protocol_change(Verdict::kBreaking, "message.direction_changed", sides, where,
                            "direction " + o.direction + " -> " + n.direction,
                            "the old receiver sends it now, and the old sender receives it",
                            location(o.root.child("x-direction")),
                            location(n.root.child("x-direction")), n.direction));
    return;  // its payloads flow the other way: comparing them says nothing more
  }
  if (o.kind != n.kind) {
    out.add(protocol_change(Verdict::kBreaking, "message.kind_changed", sides, where,
                            "kind " + o.kind + " -> " + n.kind,
                            "a request waits for exactly one reply and a notification gets "
                            "none: each version breaks the other's expectation",
                            location(o.root.child("x-kind")), location(n.root.child("x-kind")),
                            n.direction));
  }
  compare_gates(o, n, sides, out);
  auto da = child_if(o.root, "x-deadline");
  auto dz = child_if(n.root, "x-deadline");
  if (o.kind == "request" && n.kind == "request" && text_or_none(da) != text_or_none(dz)) {
    out.add(protocol_change(Verdict::kBreaking, "message.deadline_changed", sides + ", C++ API",
                            where, "deadline " + text_or_none(da) + " -> " + text_or_none(dz),
                            "the caller gives up at another time than the receiver was built for",
                            loc_or_empty(da), loc_or_empty(dz), n.direction));
  }
  compare_errors_lists(o, n, sides, out);
  Flow flow = flow_of(after, n.direction, n.method + ".params");
  payloads.compare_member(o.root, n.root, "params", flow, n.method);
  if (o.root.has("x-result") && n.root.has("x-result")) {
    Flow back = reversed(flow, n.method + ".result");
    payloads.compare_value(o.root.child("x-result"), n.root.child("x-result"), back,
                           n.method + ".result");
  }
}

}  // namespace

void compare_protocol(const gen::SchemaSet& before, const gen::SchemaSet& after,
                      const CompareOptions& options, Report& report, Changes& out) {
  compare_identity(before, after, out);
  compare_constants(before, after, options, report, out);
  compare_error_codes(before, after, out);
}

void compare_messages(const gen::SchemaSet& before, const gen::SchemaSet& after,
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
    Json sig = signature(m, before);
    auto renamed = std::find_if(added.begin(), added.end(),
                                [&](const Message* a) { return signature(*a, after) == sig; });
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
