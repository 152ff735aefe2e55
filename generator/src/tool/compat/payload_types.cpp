// The payload rules per kind of type (docs/compat.md, "Payload rules"): enums (values, names,
// order), objects (members, required-ness) and unions (members, discriminator), each judged
// from the receiver's side as payload_diff.cpp's walk meets them.
#include <algorithm>
#include <optional>

#include "rpckit/model/required_alternatives.hpp"
#include "tool/compat/payload_shape.hpp"

namespace rpckit::compat {

using gen::Annotation;
using gen::Json;
using gen::Node;

// ---- enums --------------------------------------------------------------------------------

void PayloadDiff::compare_enums(const Shape& o, const Shape& n, const Ctx& ctx) {
  std::vector<Json> ov = values_of(o);
  std::vector<Json> nv = values_of(n);
  auto index_of = [](const std::vector<Json>& v, const Json& x) {
    return static_cast<std::size_t>(std::find(v.begin(), v.end(), x) - v.begin());
  };
  std::vector<std::size_t> removed;  // indices in ov
  std::vector<std::size_t> added;    // indices in nv
  for (std::size_t i = 0; i < ov.size(); ++i) {
    if (index_of(nv, ov[i]) == nv.size()) removed.push_back(i);
  }
  for (std::size_t i = 0; i < nv.size(); ++i) {
    if (index_of(ov, nv[i]) == ov.size()) added.push_back(i);
  }
  bool closed = options_.closed_enums.count(n.name) != 0 ||
                options_.closed_enums.count(o.name) != 0 ||
                options_.closed_enums.count(location(n.node)) != 0;
  bool capability = ctx.grant;
  for (const auto& list : {&ov, &nv}) {
    for (const Json& v : *list) {
      if (v.is_string() && capabilities_.gate_values.count(v.get<std::string>()) != 0) {
        capability = true;
      }
    }
  }
  const std::string noun = capability ? "capability" : "value";
  const std::string kind = closed ? "closed enum" : "open enum";
  auto at = [](const Shape& s, std::size_t i) { return location(s.node.child("enum").item(i)); };
  // A value removed and another added at the same place is a rename.
  bool renames = !removed.empty() && removed == added;
  if (renames) {
    for (std::size_t i : removed) {
      report(ctx, Effect::kChanged, capability ? "capability.renamed" : "enum.value_renamed",
             noun + " renamed " + json_text(ov[i]) + " -> " + json_text(nv[i]),
             "each version sends and expects its own spelling", at(o, i), at(n, i));
    }
  } else {
    for (std::size_t i : removed) {
      if (closed) {
        report(ctx, Effect::kNarrower, "enum.value_removed",
               noun + " " + json_text(ov[i]) + " removed (" + kind + ")",
               ctx.new_receiver() + " rejects it; " + ctx.old_sender() + " may still send it",
               at(o, i), "");
      } else {
        report(ctx, Effect::kApi, "enum.value_removed",
               noun + " " + json_text(ov[i]) + " removed (" + kind + ")",
               ctx.old_sender() + " may still send it (" + ctx.new_receiver() +
                   " keeps it as unknown), and its generated enumerator is gone",
               at(o, i), "");
      }
    }
    for (std::size_t i : added) {
      if (closed) {
        report(ctx, Effect::kWider, "enum.value_added_closed",
               "new " + noun + " " + json_text(nv[i]) + " (" + kind + ")",
               ctx.old_receiver() + " rejects a value it does not list", location(o.node),
               at(n, i));
      } else {
        report(ctx, Effect::kAdditive, "enum.value_added",
               "new " + noun + " " + json_text(nv[i]) + " (" + kind + ")",
               ctx.old_receiver() + " decodes it as unknown and passes it on unchanged",
               location(o.node), at(n, i));
      }
    }
  }
  // String enums are numbered in schema order: a value inserted before others, or a
  // reordering, renumbers the generated enumerators.
  bool strings = !ov.empty() && ov.front().is_string();
  bool shifted = false;
  for (std::size_t i = 0; i < ov.size(); ++i) {
    std::size_t j = index_of(nv, ov[i]);
    if (j != nv.size() && j != i) shifted = true;
  }
  if (strings && shifted && !renames) {
    report(ctx, Effect::kApi, "enum.renumbered", "values reordered or inserted before others",
           "string enums are numbered in schema order: generated enumerators change value",
           location(o.node), location(n.node));
  }
  // x-enum-names spell the C++ names (and an integer enum's labels).
  const auto names_of = [](const Shape& s) {
    return model::annotation(s.node, Annotation::kEnumNames);
  };
  if (names_of(o) || names_of(n)) {
    for (std::size_t i = 0; i < ov.size(); ++i) {
      std::size_t j = index_of(nv, ov[i]);
      if (j == nv.size()) continue;
      auto name = [&](const Shape& s, std::size_t k) {
        const auto names = names_of(s);
        return names && k < names->json->size() ? json_text((*names->json)[k])
                                                : std::string("none");
      };
      if (name(o, i) != name(n, j)) {
        report(ctx, Effect::kApi, "enum.name_changed",
               "name of " + json_text(ov[i]) + " " + name(o, i) + " -> " + name(n, j),
               "the generated enumerator is renamed", at(o, i), at(n, j));
      }
    }
  }
}

// ---- objects ------------------------------------------------------------------------------

void PayloadDiff::member_diff(const Node& o, const Node& n, const std::string& key,
                              const Ctx& ctx) {
  bool in_o = has_member(o, key);
  bool in_n = has_member(n, key);
  bool req_o = is_required(o, key);
  bool req_n = is_required(n, key);
  Ctx sub = ctx;
  sub.path += "." + key;
  if (!in_o && !in_n) return;
  if (!in_o) {
    std::string nl = location(member(n, key));
    if (req_n) {
      report(sub, Effect::kNarrower, "member.required_added", "new required member",
             ctx.new_receiver() + " requires " + quoted(key) + "; " + ctx.old_sender() +
                 " does not send it",
             location(o), nl);
    } else {
      report(sub, Effect::kAdditive, "member.optional_added", "new optional member",
             ctx.old_receiver() + " ignores unknown members; " + ctx.new_receiver() +
                 " does without it",
             location(o), nl);
    }
    return;
  }
  std::string ol = location(member(o, key));
  if (!in_n) {
    if (req_o) {
      report(sub, Effect::kWider, "member.required_removed", "removed member the receiver required",
             ctx.old_receiver() + " requires " + quoted(key) + "; " + ctx.new_sender() +
                 " no longer sends it",
             ol, "");
    } else {
      report(sub, Effect::kApi, "member.optional_removed", "removed optional member",
             "the wire stays compatible (it was optional), but its generated field is gone", ol,
             "");
    }
    return;
  }
  std::string nl = location(member(n, key));
  if (req_o && !req_n) {
    report(sub, Effect::kWider, "member.now_optional", "member no longer required",
           ctx.old_receiver() + " requires " + quoted(key) + "; " + ctx.new_sender() +
               " may leave it out",
           ol, nl);
  } else if (!req_o && req_n) {
    report(sub, Effect::kNarrower, "member.now_required", "member now required",
           ctx.new_receiver() + " requires " + quoted(key) + "; " + ctx.old_sender() +
               " may leave it out",
           ol, nl);
  }
  Ctx deeper = sub;
  deeper.grant = ctx.grant;
  walk(member(o, key), member(n, key), deeper);
}

namespace {

// An object's undeclared members: a struct without additionalProperties ignores them (it
// accepts any), one with it keeps them and checks each by its schema.
Node other_members(const Node& object) {
  static const Json kAny = Json::object();
  if (object.has("additionalProperties") && object.json->at("additionalProperties").is_object()) {
    return object.child("additionalProperties");
  }
  return Node{&kAny, object.file, object.pointer + "/additionalProperties"};
}

using Alternatives = std::vector<std::vector<std::string>>;

Alternatives alternatives_of(const Node& object) {
  return model::required_alternatives(*object.json).value_or(Alternatives{});
}

// Every object `narrow` accepts, `wide` accepts too: each of narrow's alternatives holds one
// of wide's (an object with all of {a, b} has all of {a}). No alternatives: any object.
bool accepts_all_of(const Alternatives& wide, const Alternatives& narrow) {
  if (wide.empty()) return true;
  if (narrow.empty()) return false;
  return std::all_of(narrow.begin(), narrow.end(), [&](const std::vector<std::string>& n) {
    return std::any_of(wide.begin(), wide.end(), [&](const std::vector<std::string>& w) {
      return std::all_of(w.begin(), w.end(), [&](const std::string& k) { return contains(n, k); });
    });
  });
}

std::string rule_text(const Alternatives& alternatives) {
  return alternatives.empty() ? std::string("none") : model::describe_alternatives(alternatives);
}

}  // namespace

// An anyOf of required lists beside the members: which objects each version takes.
void PayloadDiff::compare_alternatives(const Shape& o, const Shape& n, const Ctx& ctx) {
  const Alternatives before = alternatives_of(o.node);
  const Alternatives after = alternatives_of(n.node);
  const bool wider = accepts_all_of(after, before);
  const bool narrower = accepts_all_of(before, after);
  if (wider && narrower) return;  // the same objects (perhaps spelled otherwise)
  const std::string change =
      "members required as an alternative: " + rule_text(before) + " -> " + rule_text(after);
  const std::string ol = location(o.node);
  const std::string nl = location(n.node);
  if (narrower) {
    report(ctx, Effect::kNarrower, "object.alternatives_narrower", change,
           ctx.new_receiver() + " rejects an object " + ctx.old_sender() + " may send", ol, nl);
  } else if (wider) {
    report(ctx, Effect::kWider, "object.alternatives_wider", change,
           ctx.old_receiver() + " rejects an object " + ctx.new_sender() + " may send", ol, nl);
  } else {
    report(ctx, Effect::kChanged, "object.alternatives_changed", change,
           "each version rejects objects the other accepts", ol, nl);
  }
}

void PayloadDiff::compare_objects(const Shape& o, const Shape& n, const Ctx& ctx) {
  std::vector<std::string> keys;
  for (const Shape* s : {&n, &o}) {
    if (!s->node.has("properties")) continue;
    for (const auto& [key, value] : s->node.json->at("properties").items()) {
      if (!contains(keys, key)) keys.push_back(key);
    }
  }
  for (const std::string& key : keys) member_diff(o.node, n.node, key, ctx);
  compare_alternatives(o, n, ctx);
  Ctx sub = ctx;
  sub.path += ".*";
  walk(other_members(o.node), other_members(n.node), sub);
}

// A map that became a struct, or a struct that became a map: each member of the struct is the
// value the map held under that name, and the struct's other members are the map's other
// values. So a map of any JSON that became a struct of optional members narrows only those
// members (a new receiver rejects an old sender's value of another shape under their names).
void PayloadDiff::compare_map_and_object(const Shape& o, const Shape& n, const Ctx& ctx) {
  const bool to_object = n.kind == Shape::Kind::kObject;
  const Node& object = to_object ? n.node : o.node;
  const Node values = (to_object ? o.node : n.node).child("additionalProperties");
  std::vector<std::string> keys;
  if (object.has("properties")) {
    for (const auto& [key, value] : object.json->at("properties").items()) keys.push_back(key);
  }
  for (const std::string& key : keys) {
    Ctx sub = ctx;
    sub.path += "." + key;
    const std::string at = location(member(object, key));
    if (is_required(object, key) && to_object) {
      report(sub, Effect::kNarrower, "member.now_required", "map key now a required member",
             ctx.new_receiver() + " requires " + quoted(key) + "; " + ctx.old_sender() +
                 "'s map may leave it out",
             location(o.node), at);
    } else if (is_required(object, key)) {
      report(sub, Effect::kWider, "member.now_optional", "required member now a map key",
             ctx.old_receiver() + " requires " + quoted(key) + "; " + ctx.new_sender() +
                 "'s map may leave it out",
             at, location(n.node));
    }
    walk(to_object ? values : member(object, key), to_object ? member(object, key) : values, sub);
  }
  Ctx sub = ctx;
  sub.path += ".*";
  walk(to_object ? values : other_members(object), to_object ? other_members(object) : values, sub);
}

// ---- unions -------------------------------------------------------------------------------

namespace {

Node follow_refs(Node t, const gen::SchemaSet& set) {
  for (int hops = 0; t.has("$ref") && hops < 64; ++hops) {
    t = set.resolve(t, t.json->at("$ref").get<std::string>());
  }
  return t;
}

// A union's members, $refs followed (in the order of its oneOf or anyOf).
std::vector<Node> union_members(const Node& u, const gen::SchemaSet& set) {
  std::vector<Node> out;
  const char* key = u.has("oneOf") ? "oneOf" : "anyOf";
  if (!u.has(key)) return out;
  Node list = u.child(key);
  for (std::size_t i = 0; i < list.json->size(); ++i) out.push_back(follow_refs(list.item(i), set));
  return out;
}

// The JSON kind an untagged union tells a member by, as the generator does: its type
// ("\"array\" of \"string\""), $refs followed; a tagged union, or an object known by its
// properties, is "\"object\"". Empty when the schema does not say.
std::string kind_of(const Node& node, const gen::SchemaSet& set, int depth = 0) {
  const Node t = follow_refs(node, set);
  if (t.has("type")) {
    std::string kind = json_text(t.json->at("type"));
    if (t.has("items") && depth < 8) {
      const std::string item = kind_of(t.child("items"), set, depth + 1);
      if (!item.empty()) kind += " of " + item;
    }
    return kind;
  }
  if (model::annotation(t, Annotation::kDiscriminator) || t.has("properties")) {
    return "\"object\"";
  }
  return "";
}

bool is_object_schema(const Json& j) {
  return j.is_object() &&
         (j.value("type", Json()) == "object" || (!j.contains("type") && j.contains("properties")));
}

// Every member of the union is an object.
bool all_objects(const Node& u, const gen::SchemaSet& set) {
  std::vector<Node> members = union_members(u, set);
  return !members.empty() && std::all_of(members.begin(), members.end(),
                                         [](const Node& m) { return is_object_schema(*m.json); });
}

// A member of the union takes any object: no declared, required or checked members.
bool takes_any_object(const Node& u, const gen::SchemaSet& set) {
  std::vector<Node> members = union_members(u, set);
  return std::any_of(members.begin(), members.end(), [](const Node& m) {
    const Json& j = *m.json;
    if (!is_object_schema(j)) return false;
    for (const char* key : {"properties", "required", "minProperties", "maxProperties",
                            "propertyNames", "patternProperties", "dependencies", "not"}) {
      if (j.contains(key)) return false;
    }
    const Json rest = j.value("additionalProperties", Json(true));
    return rest == true || rest == Json::object();
  });
}

// The member of an untagged union that is itself a union tagged by `key`, $refs followed.
std::optional<Node> tagged_member(const Node& u, const gen::SchemaSet& set,
                                  const std::string& key) {
  for (const Node& m : union_members(u, set)) {
    const auto written = model::annotation(m, Annotation::kDiscriminator);
    if (written && written->json->is_string() && written->json->get<std::string>() == key) {
      return m;
    }
  }
  return std::nullopt;
}

}  // namespace

void PayloadDiff::compare_unions(const Shape& o, const Shape& n, const Ctx& ctx) {
  std::string ol = location(o.node);
  std::string nl = location(n.node);
  auto disc = [](const Shape& s) {
    const auto written = model::annotation(s.node, Annotation::kDiscriminator);
    return written && written->json->is_string() ? written->json->get<std::string>()
                                                 : std::string();
  };
  if (disc(o) != disc(n)) {
    // Tagged by a member on one side and, on the other, untagged with a member that takes any
    // object: the untagged union accepts every member of the tagged one (each is an object),
    // and more.
    auto named = [](const std::string& d) { return d.empty() ? std::string("none") : quoted(d); };
    const std::string change = "discriminator " + named(disc(o)) + " -> " + named(disc(n));
    // Tagged on one side and, on the other, the object member of a union of JSON kinds (a block
    // that became a block or an array of blocks): the kinds widen or narrow the value, and the
    // tagged unions compare member by member.
    if (disc(n).empty()) {
      if (const auto inner = tagged_member(n.node, after_, disc(o))) {
        report(ctx, Effect::kWider, "type.wider",
               "the union tagged by " + quoted(disc(o)) + " became a union of JSON kinds",
               ctx.old_receiver() + " rejects the other kinds " + ctx.new_sender() + " may send",
               ol, nl);
        walk(o.node, *inner, ctx);
        return;
      }
    }
    if (disc(o).empty()) {
      if (const auto inner = tagged_member(o.node, before_, disc(n))) {
        report(
            ctx, Effect::kNarrower, "type.narrower",
            "a union of JSON kinds became the union tagged by " + quoted(disc(n)) + " in it",
            ctx.new_receiver() + " rejects the other kinds " + ctx.old_sender() + " may still send",
            ol, nl);
        walk(*inner, n.node, ctx);
        return;
      }
    }
    if (disc(n).empty() && takes_any_object(n.node, after_) && all_objects(o.node, before_)) {
      report(ctx, Effect::kWider, "type.wider", change + ": an untagged union takes any object",
             ctx.old_receiver() + " rejects values " + ctx.new_sender() + " may send", ol, nl);
      return;
    }
    if (disc(o).empty() && takes_any_object(o.node, before_) && all_objects(n.node, after_)) {
      report(ctx, Effect::kNarrower, "type.narrower",
             change + ": an untagged union that took any object",
             ctx.new_receiver() + " rejects values " + ctx.old_sender() + " may still send", ol,
             nl);
      return;
    }
    report(ctx, Effect::kChanged, "union.discriminator_changed", change,
           "each version tells the members apart by another member", ol, nl);
    return;
  }
  // Members by tag (discriminator const) or, untagged, by JSON kind.
  auto members = [&](const Shape& s, const gen::SchemaSet& set, std::set<std::string>& reached) {
    std::vector<std::pair<std::string, Node>> out;
    const Node list = s.node.child(s.node.has("oneOf") ? "oneOf" : "anyOf");
    const std::vector<Node> resolved = union_members(s.node, set);
    for (std::size_t i = 0; i < resolved.size(); ++i) {
      const Node m = list.item(i);
      const Node& t = resolved[i];
      reached.insert(location(t));
      std::string tag;
      const std::string d = disc(s);
      if (!d.empty() && t.has("properties") && t.json->at("properties").contains(d) &&
          t.json->at("properties").at(d).contains("const")) {
        tag = d + "=" + json_text(t.json->at("properties").at(d).at("const"));
      } else if (d.empty()) {
        // Untagged: by JSON kind, so that reordering the members changes nothing.
        tag = kind_of(t, set);
        if (tag.empty()) tag = "#" + std::to_string(i);
      } else {
        tag = "#" + std::to_string(i);
      }
      out.emplace_back(tag, m);
    }
    return out;
  };
  auto om = members(o, before_, reached_before_);
  auto nm = members(n, after_, reached_after_);
  auto find = [](const std::vector<std::pair<std::string, Node>>& v, const std::string& tag) {
    return std::find_if(v.begin(), v.end(), [&](const auto& p) { return p.first == tag; });
  };
  for (const auto& [tag, node] : om) {
    auto it = find(nm, tag);
    Ctx sub = ctx;
    sub.path += "<" + tag + ">";
    if (it == nm.end()) {
      report(sub, Effect::kApi, "union.member_removed", "union member removed",
             ctx.old_sender() + " may still send it (" + ctx.new_receiver() +
                 " keeps it as raw JSON), and its generated alternative is gone",
             location(node), "");
    } else {
      walk(node, it->second, sub);
    }
  }
  for (const auto& [tag, node] : nm) {
    if (find(om, tag) != om.end()) continue;
    Ctx sub = ctx;
    sub.path += "<" + tag + ">";
    report(sub, Effect::kAdditive, "union.member_added", "new union member",
           ctx.old_receiver() + " keeps an unknown member as raw JSON (unions are open)", ol,
           location(node));
  }
}

}  // namespace rpckit::compat
