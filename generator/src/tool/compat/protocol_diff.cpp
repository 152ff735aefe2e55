// The protocol-level comparisons: protocol.json's annotations, its profile or exchange, its
// constants and the error codes (the messages: message_diff.cpp). docs/compat.md, "Protocol
// rules".
#include <algorithm>
#include <optional>

#include "ir/dump.hpp"
#include "lower/lower.hpp"
#include "tool/compat/diff.hpp"

namespace rpckit::compat {

using gen::Annotation;
using gen::Json;
using gen::Node;

std::string both_sides(const model::Protocol& protocol) {
  const std::vector<std::string>& roles = protocol.roles();
  std::string out;
  for (std::size_t i = 0; i < roles.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == roles.size() ? " and " : ", ") + roles[i];
  }
  return out.empty() ? "both sides" : out;
}

Change protocol_change(Verdict verdict, std::string rule, std::string affected, std::string where,
                       std::string change, std::string why, std::string old_location,
                       std::string new_location, std::string direction) {
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

namespace {

// The profiles by what they mean (the lowered profile, one line per concern), not by their
// text: a profile restated in newer terms, or with its keys reordered, is the same profile.
// The profile's lines: what it means when the schema lowers (`lowered`), else its members as
// written (compat also compares broken drafts). Which directions exist is the messages'
// business, reported with them.
std::optional<std::vector<std::string>> profile_lines(const model::Protocol& protocol,
                                                      bool lowered) {
  const std::optional<Node>& profile = protocol.profile();
  if (!profile) return std::vector<std::string>{};
  std::string text;
  if (lowered) {
    try {
      gen::ir::Module m = gen::lower(protocol.schemas(), {.accept_legacy_profile = true});
      text = gen::dump_profile(*m.profile);
    } catch (const gen::SchemaError&) {
      return std::nullopt;
    }
  } else if (profile->json->is_object()) {
    for (const auto& [key, value] : profile->json->items()) {
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

void compare_profiles(const model::Protocol& before, const model::Protocol& after, Changes& out) {
  auto lowered_a = profile_lines(before, true);
  auto lowered_z = profile_lines(after, true);
  const bool both = lowered_a && lowered_z;  // else both as written, alike
  std::vector<std::string> a = both ? *lowered_a : *profile_lines(before, false);
  std::vector<std::string> z = both ? *lowered_z : *profile_lines(after, false);
  const std::optional<Node>& old_location = before.profile();
  const std::optional<Node>& new_location = after.profile();
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
                          "protocol " + std::string(gen::kw(Annotation::kProfile)),
                          join(gone) + " -> " + join(came),
                          "the peers disagree on how the protocol travels or lives",
                          loc_or_empty(old_location), loc_or_empty(new_location)));
}

void compare_identity(const model::Protocol& before, const model::Protocol& after, Changes& out) {
  struct Key {
    Annotation annotation;
    const char* why;
    bool api;
  };
  const Key keys[] = {
      {Annotation::kNamespace, "every generated name moves to another C++ namespace", true},
      {Annotation::kModule, "the generated module, its folder and CMake targets are renamed", true},
      {Annotation::kRoles, "the sides of the protocol differ", false},
      {Annotation::kErrorCodes, "error codes are read from another list", false},
      {Annotation::kDefaultDeadline, "requests without their own deadline time out differently",
       false},
  };
  for (const Key& k : keys) {
    auto a = before.annotation(k.annotation);
    auto z = after.annotation(k.annotation);
    if (text_or_none(a) == text_or_none(z)) continue;
    const std::string keyword(gen::kw(k.annotation));
    out.add(protocol_change(Verdict::kBreaking, "protocol." + keyword.substr(2),
                            k.api ? "C++ API" : both_sides(after), "protocol " + keyword,
                            text_or_none(a) + " -> " + text_or_none(z), k.why, loc_or_empty(a),
                            loc_or_empty(z)));
  }
  compare_profiles(before, after, out);
  // x-exchange, member by member: how a one-shot protocol travels. Its description is
  // documentation only.
  auto po = before.annotation(Annotation::kExchange);
  auto pn = after.annotation(Annotation::kExchange);
  const std::string exchange_keyword(gen::kw(Annotation::kExchange));
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
                            "protocol " + exchange_keyword + "." + key,
                            text_or_none(a) + " -> " + text_or_none(z),
                            "the peers disagree on how the protocol travels or lives",
                            loc_or_empty(a), loc_or_empty(z)));
  }
}

void compare_constants(const model::Protocol& before, const model::Protocol& after,
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
    auto ua = model::annotation(*a, Annotation::kUnit);
    auto uz = model::annotation(*z, Annotation::kUnit);
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

std::vector<ErrorCode> error_codes(const model::Protocol& protocol) {
  std::vector<ErrorCode> out;
  const std::optional<Node> e = protocol.error_code_enum();
  if (!e || !e->has("enum")) return out;
  const auto written_names = model::annotation(*e, Annotation::kEnumNames);
  const Json* names = written_names ? written_names->json : nullptr;
  for (std::size_t i = 0; i < e->json->at("enum").size(); ++i) {
    std::string name = names != nullptr && i < names->size() && (*names)[i].is_string()
                           ? (*names)[i].get<std::string>()
                           : json_text(e->json->at("enum")[i]);
    out.push_back({e->json->at("enum")[i], name, location(e->child("enum").item(i))});
  }
  return out;
}

// x-error-data, code by code: where the data of a code both versions know is typed. A type's
// own changes are the type's rows (it is compared as any type is).
void compare_error_data(const model::Protocol& before, const model::Protocol& after, Changes& out) {
  auto typed = [](const model::Protocol& p, const Json& code) -> const model::ErrorDataSchema* {
    for (const model::ErrorDataSchema& e : p.error_data()) {
      if (e.code == code) return &e;
    }
    return nullptr;
  };
  auto target = [](const model::Protocol& p, const Node& schema) {
    return schema.has("$ref")
               ? location(p.schemas().resolve(schema, schema.json->at("$ref").get<std::string>()))
               : location(schema);
  };
  const std::string sides = both_sides(after);
  for (const ErrorCode& e : error_codes(before)) {
    const model::ErrorDataSchema* o = typed(before, e.code);
    const model::ErrorDataSchema* n = typed(after, e.code);
    const std::string where = "error code " + json_text(e.code);
    if (o == nullptr && n != nullptr) {
      out.add(protocol_change(Verdict::kBreaking, "error.data_typed", sides, where,
                              "error.data of " + e.name + " now has a schema",
                              "a new peer checks the data an old peer may send under this code "
                              "in another shape",
                              e.location, location(n->schema)));
    } else if (o != nullptr && n == nullptr) {
      out.add(protocol_change(Verdict::kBreaking, "error.data_untyped", "C++ API", where,
                              "error.data of " + e.name + " no longer has a schema",
                              "the wire takes any data now, but the generated maker and reader "
                              "of the typed data are gone",
                              location(o->schema), e.location));
    } else if (o != nullptr && target(before, o->schema) != target(after, n->schema)) {
      out.add(protocol_change(Verdict::kBreaking, "error.data_changed", sides + ", C++ API", where,
                              "error.data of " + e.name + " has another schema",
                              "each version checks the data under this code by another type",
                              location(o->schema), location(n->schema)));
    }
  }
}

void compare_error_codes(const model::Protocol& before, const model::Protocol& after,
                         Changes& out) {
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

}  // namespace

void compare_protocol(const model::Protocol& before, const model::Protocol& after,
                      const CompareOptions& options, Report& report, Changes& out) {
  compare_identity(before, after, out);
  compare_constants(before, after, options, report, out);
  compare_error_codes(before, after, out);
  compare_error_data(before, after, out);
}

}  // namespace rpckit::compat
