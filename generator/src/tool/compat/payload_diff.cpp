// The structural comparison of two versions of a payload's schema, from the point of view of
// the side that receives it (docs/compat.md, "Payload rules"). A schema that accepts less
// (narrower) breaks a new receiver reading an old sender; one that accepts more (wider)
// breaks an old receiver reading a new sender, unless the receiver tolerates the addition
// (unknown members are ignored, enums and unions are open).
#include <algorithm>

#include "tool/compat/diff.hpp"

namespace rpckit::compat {

using gen::Annotation;
using gen::Json;
using gen::Node;

struct PayloadDiff::Ctx {
  const Flow* flow = nullptr;
  std::string anchor;       // the message or type the path starts at
  std::string anchor_file;  // the file of that type: a $ref out of it starts a new anchor
  bool anchor_is_message = false;
  std::string path;    // JSON path inside the anchor: ".channels[].login"
  bool grant = false;  // inside the handshake's grant member: enums there name capabilities
  std::set<std::pair<const Json*, const Json*>>* seen = nullptr;

  std::string where() const { return anchor + path; }
  std::string old_sender() const { return "an old " + flow->sender; }
  std::string new_sender() const { return "a new " + flow->sender; }
  std::string old_receiver() const { return "an old " + flow->receiver; }
  std::string new_receiver() const { return "a new " + flow->receiver; }
};

struct PayloadDiff::Shape {
  enum class Kind { kAny, kScalar, kEnum, kConst, kObject, kMap, kArray, kUnion };
  Node node;
  Kind kind = Kind::kAny;
  bool nullable = false;
  std::vector<std::string> types;  // kScalar: the JSON types, "null" apart
  std::string name;                // the named type it is ("" = inline)
};

namespace {

std::string quoted(const std::string& s) { return "`" + s + "`"; }

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool is_required(const Node& object, const std::string& key) {
  if (object.json == nullptr || !object.json->is_object() || !object.has("required")) {
    return false;
  }
  const Json& r = object.json->at("required");
  return r.is_array() && std::find(r.begin(), r.end(), Json(key)) != r.end();
}

bool has_member(const Node& object, const std::string& key) {
  return object.json != nullptr && object.has("properties") &&
         object.json->at("properties").contains(key);
}

Node member(const Node& object, const std::string& key) {
  return object.child("properties").child(key);
}

std::string json_type(const Json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "boolean";
  if (v.is_number_integer()) return "integer";
  if (v.is_number()) return "number";
  if (v.is_string()) return "string";
  if (v.is_array()) return "array";
  return "object";
}

// `set` accepts a value of JSON type `t` (every integer is a number).
bool accepts(const std::vector<std::string>& set, const std::string& t) {
  return contains(set, t) || (t == "integer" && contains(set, "number"));
}

bool all_accepted(const std::vector<std::string>& from, const std::vector<std::string>& by) {
  return std::all_of(from.begin(), from.end(),
                     [&](const std::string& t) { return accepts(by, t); });
}

std::string joined(const std::vector<std::string>& v, const char* sep = " | ") {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

// The name a $ref target is known by: its definitions key, else its title, else its file.
std::string type_name(const Node& target) {
  auto slash = target.pointer.rfind('/');
  if (target.pointer.starts_with("/definitions/") && slash == std::string("/definitions").size()) {
    return target.pointer.substr(slash + 1);
  }
  if (target.json->is_object() && target.json->contains("title") &&
      target.json->at("title").is_string()) {
    return target.json->at("title").get<std::string>();
  }
  std::string file = target.file.substr(target.file.rfind('/') + 1);
  return file.substr(0, file.rfind('.')) + target.pointer;
}

const char* kind_word(const PayloadDiff::Shape& s);

}  // namespace

// ---- shapes -------------------------------------------------------------------------------

PayloadDiff::Shape PayloadDiff::shape_of(const Node& start, const gen::SchemaSet& set, Ctx& ctx,
                                         bool is_new) {
  std::set<std::string>& reached = is_new ? reached_after_ : reached_before_;
  Shape s;
  Node n = start;
  for (int hops = 0; n.has("$ref") && hops < 64; ++hops) {
    Node target = set.resolve(n, n.json->at("$ref").get<std::string>());
    reached.insert(location(target));
    s.name = type_name(target);
    // Paths restart at a type of another file, so a shared type's change is one row.
    if (target.file != ctx.anchor_file) {
      ctx.anchor = s.name;
      ctx.anchor_file = target.file;
      ctx.anchor_is_message = false;
      ctx.path.clear();
    }
    n = target;
  }
  reached.insert(location(n));
  s.node = n;
  const Json& j = *n.json;
  if (!j.is_object()) return s;  // `true`: any JSON
  if (j.contains("title") && j.at("title").is_string() && !start.has("$ref")) {
    s.name = j.at("title").get<std::string>();  // an inline type (NotifyLevel)
  }
  for (const char* key : {"oneOf", "anyOf"}) {
    if (!j.contains(key) || !j.at(key).is_array() || j.at(key).size() != 2) continue;
    for (std::size_t i = 0; i < 2; ++i) {
      const Json& m = j.at(key)[i];
      if (m.is_object() && m.size() == 1 && m.value("type", Json()) == "null") {
        Shape inner = shape_of(n.child(key).item(1 - i), set, ctx, is_new);
        inner.nullable = true;
        return inner;
      }
    }
  }
  std::vector<std::string> types;
  if (j.contains("type")) {
    const Json& t = j.at("type");
    if (t.is_string()) types.push_back(t.get<std::string>());
    if (t.is_array()) {
      for (const Json& e : t) {
        if (e.is_string()) types.push_back(e.get<std::string>());
      }
    }
  }
  if (types.size() > 1 && contains(types, "null")) {
    s.nullable = true;
    types.erase(std::remove(types.begin(), types.end(), "null"), types.end());
  }
  using K = Shape::Kind;
  if (j.contains("enum")) {
    s.kind = K::kEnum;
  } else if (j.contains("const")) {
    s.kind = K::kConst;
  } else if (j.contains("oneOf") || j.contains("anyOf")) {
    s.kind = K::kUnion;
  } else if (types == std::vector<std::string>{"object"} ||
             (types.empty() && (j.contains("properties") || j.contains("additionalProperties")))) {
    bool map = !j.contains("properties") && j.contains("additionalProperties") &&
               j.at("additionalProperties").is_object();
    s.kind = map ? K::kMap : K::kObject;
  } else if (types == std::vector<std::string>{"array"} || (types.empty() && j.contains("items"))) {
    s.kind = K::kArray;
  } else if (!types.empty()) {
    s.kind = K::kScalar;
    s.types = types;
  }
  return s;
}

namespace {

const char* kind_word(const PayloadDiff::Shape& s) {
  using K = PayloadDiff::Shape::Kind;
  switch (s.kind) {
    case K::kAny:
      return "any JSON";
    case K::kScalar:
      return "scalar";
    case K::kEnum:
      return "enum";
    case K::kConst:
      return "constant";
    case K::kObject:
      return "object";
    case K::kMap:
      return "map";
    case K::kArray:
      return "array";
    case K::kUnion:
      return "union";
  }
  return "?";
}

// "string", "enum of \"a\", \"b\"", "object": what a shape accepts, for the change column.
std::string describe(const PayloadDiff::Shape& s) {
  using K = PayloadDiff::Shape::Kind;
  const Json& j = *s.node.json;
  switch (s.kind) {
    case K::kScalar:
      return joined(s.types);
    case K::kEnum:
      return "enum " + json_text(j.at("enum"));
    case K::kConst:
      return "const " + json_text(j.at("const"));
    default:
      return kind_word(s);
  }
}

std::vector<std::string> value_types(const PayloadDiff::Shape& s) {
  std::vector<std::string> out;
  const Json& j = *s.node.json;
  if (s.kind == PayloadDiff::Shape::Kind::kConst) out.push_back(json_type(j.at("const")));
  if (s.kind == PayloadDiff::Shape::Kind::kEnum) {
    for (const Json& v : j.at("enum")) {
      if (!contains(out, json_type(v))) out.push_back(json_type(v));
    }
  }
  return out;
}

std::vector<Json> values_of(const PayloadDiff::Shape& s) {
  const Json& j = *s.node.json;
  if (s.kind == PayloadDiff::Shape::Kind::kConst) return {j.at("const")};
  return std::vector<Json>(j.at("enum").begin(), j.at("enum").end());
}

}  // namespace

// ---- the walk -----------------------------------------------------------------------------

void PayloadDiff::compare_value(const Node& before, const Node& after, const Flow& flow,
                                const std::string& where, bool grant) {
  std::set<std::pair<const Json*, const Json*>> seen;
  Ctx ctx;
  ctx.flow = &flow;
  ctx.anchor = where;
  ctx.anchor_file = after.file;
  ctx.anchor_is_message = true;
  ctx.grant = grant;
  ctx.seen = &seen;
  walk(before, after, ctx);
}

void PayloadDiff::compare_member(const Node& before, const Node& after, const std::string& key,
                                 const Flow& flow, const std::string& where) {
  std::set<std::pair<const Json*, const Json*>> seen;
  Ctx ctx;
  ctx.flow = &flow;
  ctx.anchor = where;
  ctx.anchor_file = after.file;
  ctx.anchor_is_message = true;
  ctx.seen = &seen;
  member_diff(before, after, key, ctx);
}

void PayloadDiff::walk(const Node& before, const Node& after, Ctx ctx) {
  if (!ctx.seen->insert({before.json, after.json}).second) return;  // recursive types
  compare_default(before, after, ctx);
  // The new version names the place; the old one's $refs may lead elsewhere.
  Ctx old_ctx = ctx;
  Shape n = shape_of(after, after_, ctx, true);
  Shape o = shape_of(before, before_, old_ctx, false);
  compare_shapes(o, n, ctx);
}

void PayloadDiff::compare_shapes(const Shape& o, const Shape& n, const Ctx& ctx) {
  using K = Shape::Kind;
  std::string ol = location(o.node);
  std::string nl = location(n.node);
  if (o.nullable != n.nullable) {
    if (n.nullable) {
      report(ctx, Effect::kWider, "null.allowed", "null now allowed",
             ctx.old_receiver() + " rejects the null " + ctx.new_sender() + " may send", ol, nl);
    } else {
      report(ctx, Effect::kNarrower, "null.disallowed", "null no longer allowed",
             ctx.new_receiver() + " rejects the null " + ctx.old_sender() + " may send", ol, nl);
    }
  }
  if (o.kind != n.kind) {
    std::string change = "type " + describe(o) + " -> " + describe(n);
    bool o_values = o.kind == K::kEnum || o.kind == K::kConst;
    bool n_values = n.kind == K::kEnum || n.kind == K::kConst;
    auto has_value = [](const Shape& s, const Json& v) {
      std::vector<Json> vs = values_of(s);
      return std::find(vs.begin(), vs.end(), v) != vs.end();
    };
    auto effect = [&] {
      if (o.kind == K::kAny) return Effect::kNarrower;
      if (n.kind == K::kAny) return Effect::kWider;
      if (o_values && n.kind == K::kScalar && all_accepted(value_types(o), n.types)) {
        return Effect::kWider;
      }
      if (n_values && o.kind == K::kScalar && all_accepted(value_types(n), o.types)) {
        return Effect::kNarrower;
      }
      if (o.kind == K::kConst && n.kind == K::kEnum && has_value(n, o.node.json->at("const"))) {
        return Effect::kWider;
      }
      if (o.kind == K::kEnum && n.kind == K::kConst && has_value(o, n.node.json->at("const"))) {
        return Effect::kNarrower;
      }
      return Effect::kChanged;
    };
    const Effect e = effect();
    if (e == Effect::kNarrower) {
      report(ctx, e, "type.narrower", change,
             ctx.new_receiver() + " rejects values " + ctx.old_sender() + " may still send", ol,
             nl);
    } else if (e == Effect::kWider) {
      report(ctx, e, "type.wider", change,
             ctx.old_receiver() + " rejects values " + ctx.new_sender() + " may send", ol, nl);
    } else {
      report(ctx, e, "type.changed", change, "each version rejects values the other sends", ol, nl);
    }
    return;
  }
  switch (o.kind) {
    case K::kScalar: {
      bool n_in_o = all_accepted(n.types, o.types);
      bool o_in_n = all_accepted(o.types, n.types);
      std::string change = "type " + joined(o.types) + " -> " + joined(n.types);
      if (n_in_o && !o_in_n) {
        report(ctx, Effect::kNarrower, "type.narrower", change,
               ctx.new_receiver() + " rejects values " + ctx.old_sender() + " may still send", ol,
               nl);
      } else if (o_in_n && !n_in_o) {
        report(ctx, Effect::kWider, "type.wider", change,
               ctx.old_receiver() + " rejects values " + ctx.new_sender() + " may send", ol, nl);
      } else if (!n_in_o && !o_in_n) {
        report(ctx, Effect::kChanged, "type.changed", change,
               "each version rejects values the other sends", ol, nl);
      }
      break;
    }
    case K::kEnum:
      compare_enums(o, n, ctx);
      break;
    case K::kConst:
      if (o.node.json->at("const") != n.node.json->at("const")) {
        report(ctx, Effect::kChanged, "const.changed",
               "const " + json_text(o.node.json->at("const")) + " -> " +
                   json_text(n.node.json->at("const")),
               "each version rejects the value the other sends", ol, nl);
      }
      break;
    case K::kObject:
      compare_objects(o, n, ctx);
      break;
    case K::kMap: {
      Ctx sub = ctx;
      sub.path += ".*";
      walk(o.node.child("additionalProperties"), n.node.child("additionalProperties"), sub);
      break;
    }
    case K::kArray:
      if (o.node.has("items") && n.node.has("items")) {
        Ctx sub = ctx;
        sub.path += "[]";
        walk(o.node.child("items"), n.node.child("items"), sub);
      }
      break;
    case K::kUnion:
      compare_unions(o, n, ctx);
      break;
    case K::kAny:
      break;
  }
  compare_constraints(o.node, n.node, ctx);
}

// ---- constraints and defaults -------------------------------------------------------------

void PayloadDiff::compare_constraints(const Node& o, const Node& n, const Ctx& ctx) {
  std::string ol = location(o);
  std::string nl = location(n);
  auto get = [](const Node& node, const char* key) -> const Json* {
    if (!node.json->is_object() || !node.json->contains(key)) return nullptr;
    return &node.json->at(key);
  };
  auto tighter = [&](const std::string& change) {
    report(ctx, Effect::kNarrower, "constraint.tighter", change,
           ctx.new_receiver() + " rejects values " + ctx.old_sender() + " may still send", ol, nl);
  };
  auto looser = [&](const std::string& change) {
    report(ctx, Effect::kWider, "constraint.looser", change,
           ctx.old_receiver() + " rejects values " + ctx.new_sender() + " may send", ol, nl);
  };
  auto text = [](const Json* v) { return v == nullptr ? std::string("none") : json_text(*v); };
  // Bounds: raising a lower bound or lowering an upper one accepts less.
  struct Bound {
    const char* key;
    bool lower;
  };
  for (Bound b : {Bound{"minLength", true}, Bound{"maxLength", false}, Bound{"minimum", true},
                  Bound{"maximum", false}, Bound{"minItems", true}, Bound{"maxItems", false}}) {
    const Json* a = get(o, b.key);
    const Json* z = get(n, b.key);
    if ((a == nullptr && z == nullptr) || (a && z && *a == *z)) continue;
    std::string change = std::string(b.key) + " " + text(a) + " -> " + text(z);
    bool narrower =
        z != nullptr && (a == nullptr || (b.lower ? z->get<double>() > a->get<double>()
                                                  : z->get<double>() < a->get<double>()));
    if (narrower) {
      tighter(change);
    } else {
      looser(change);
    }
  }
  // Patterns and formats cannot be ordered: a changed one is both.
  for (const char* key : {"pattern", "format", "not"}) {
    const Json* a = get(o, key);
    const Json* z = get(n, key);
    if ((a == nullptr && z == nullptr) || (a && z && *a == *z)) continue;
    std::string change = std::string(key) + " " + text(a) + " -> " + text(z);
    if (a == nullptr) {
      tighter(change);
    } else if (z == nullptr) {
      looser(change);
    } else {
      report(ctx, Effect::kChanged, "constraint.changed", change,
             "each version rejects values the other accepts", ol, nl);
    }
  }
  bool ua = get(o, "uniqueItems") != nullptr && *get(o, "uniqueItems") == true;
  bool uz = get(n, "uniqueItems") != nullptr && *get(n, "uniqueItems") == true;
  if (ua != uz) {
    std::string change =
        std::string("uniqueItems ") + (ua ? "true" : "false") + " -> " + (uz ? "true" : "false");
    if (uz) {
      tighter(change);
    } else {
      looser(change);
    }
  }
}

void PayloadDiff::compare_default(const Node& o, const Node& n, const Ctx& ctx) {
  const Json* a = o.json->is_object() && o.has("default") ? &o.json->at("default") : nullptr;
  const Json* z = n.json->is_object() && n.has("default") ? &n.json->at("default") : nullptr;
  if ((a == nullptr && z == nullptr) || (a && z && *a == *z)) return;
  std::string ol = a ? location(o.child("default")) : location(o);
  std::string nl = z ? location(n.child("default")) : location(n);
  if (a == nullptr) {
    report(ctx, Effect::kAdditive, "default.added", "default " + json_text(*z) + " added",
           "it names what an absent value means; the wire does not change", ol, nl);
  } else if (z == nullptr) {
    report(ctx, Effect::kApi, "default.removed", "default " + json_text(*a) + " removed",
           "the generated _or_default() accessor is gone", ol, nl);
  } else {
    report(ctx, Effect::kChanged, "default.changed",
           "default " + json_text(*a) + " -> " + json_text(*z),
           "an absent value means something else to each version", ol, nl);
  }
}

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

void PayloadDiff::compare_objects(const Shape& o, const Shape& n, const Ctx& ctx) {
  std::vector<std::string> keys;
  for (const Shape* s : {&n, &o}) {
    if (!s->node.has("properties")) continue;
    for (const auto& [key, value] : s->node.json->at("properties").items()) {
      if (!contains(keys, key)) keys.push_back(key);
    }
  }
  for (const std::string& key : keys) member_diff(o.node, n.node, key, ctx);
  if (o.node.has("additionalProperties") && n.node.has("additionalProperties") &&
      o.node.json->at("additionalProperties").is_object() &&
      n.node.json->at("additionalProperties").is_object()) {
    Ctx sub = ctx;
    sub.path += ".*";
    walk(o.node.child("additionalProperties"), n.node.child("additionalProperties"), sub);
  }
}

// ---- unions -------------------------------------------------------------------------------

void PayloadDiff::compare_unions(const Shape& o, const Shape& n, const Ctx& ctx) {
  std::string ol = location(o.node);
  std::string nl = location(n.node);
  auto disc = [](const Shape& s) {
    const auto written = model::annotation(s.node, Annotation::kDiscriminator);
    return written && written->json->is_string() ? written->json->get<std::string>()
                                                 : std::string();
  };
  if (disc(o) != disc(n)) {
    report(ctx, Effect::kChanged, "union.discriminator_changed",
           "discriminator " + quoted(disc(o)) + " -> " + quoted(disc(n)),
           "each version tells the members apart by another member", ol, nl);
    return;
  }
  // Members by tag (discriminator const) or, untagged, by JSON kind.
  auto members = [&](const Shape& s, const gen::SchemaSet& set, std::set<std::string>& reached) {
    std::vector<std::pair<std::string, Node>> out;
    const char* key = s.node.has("oneOf") ? "oneOf" : "anyOf";
    Node list = s.node.child(key);
    for (std::size_t i = 0; i < list.json->size(); ++i) {
      Node m = list.item(i);
      Node t = m;
      for (int hops = 0; t.has("$ref") && hops < 64; ++hops) {
        t = set.resolve(t, t.json->at("$ref").get<std::string>());
      }
      reached.insert(location(t));
      std::string tag;
      const std::string d = disc(s);
      if (!d.empty() && t.has("properties") && t.json->at("properties").contains(d) &&
          t.json->at("properties").at(d).contains("const")) {
        tag = d + "=" + json_text(t.json->at("properties").at(d).at("const"));
      } else if (t.has("type")) {
        tag = json_text(t.json->at("type"));
        if (t.has("items") && t.json->at("items").contains("type")) {
          tag += " of " + json_text(t.json->at("items").at("type"));
        }
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

// ---- types no payload reaches -------------------------------------------------------------

void PayloadDiff::compare_type(const std::string& file, const std::string& pointer,
                               const std::string& name) {
  const Flow off_wire{"", "writer", "reader", name};
  auto find = [&](const gen::SchemaSet& set) -> std::optional<Node> {
    try {
      Node n = set.file(file);
      std::string rest = pointer;
      while (!rest.empty()) {
        rest.erase(0, 1);
        auto slash = rest.find('/');
        n = n.child(rest.substr(0, slash));
        rest = slash == std::string::npos ? "" : rest.substr(slash);
      }
      return n;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  };
  std::optional<Node> o = find(before_);
  std::optional<Node> n = find(after_);
  std::string loc = file + "#" + pointer;
  if (reached_before_.count(loc) != 0 || reached_after_.count(loc) != 0) return;
  Ctx ctx;
  std::set<std::pair<const Json*, const Json*>> seen;
  ctx.flow = &off_wire;
  ctx.anchor = name;
  ctx.anchor_file = file;
  ctx.seen = &seen;
  if (o && n) {
    walk(*o, *n, ctx);
  } else if (o) {
    report(ctx, Effect::kApi, "type.removed", "type removed", "its generated type is gone", loc,
           "");
  } else if (n) {
    report(ctx, Effect::kAdditive, "type.added", "new type", "nothing used it before", "", loc);
  }
}

void PayloadDiff::compare_unreached_types(const std::string& skip_location) {
  std::vector<std::string> files;
  for (const model::Protocol* protocol : {&after_protocol_, &before_protocol_}) {
    for (const Node& f : protocol->type_files()) {
      if (!contains(files, f.file)) files.push_back(f.file);
    }
  }
  auto is_type = [](const Json& j) {
    return j.contains("type") || j.contains("oneOf") || j.contains("anyOf") || j.contains("enum") ||
           j.contains("properties");
  };
  for (const std::string& file : files) {
    std::vector<std::string> defs;
    for (const gen::SchemaSet* set : {&after_, &before_}) {
      const Json* doc = nullptr;
      try {
        doc = set->file(file).json;
      } catch (const std::exception&) {
        continue;
      }
      if (is_type(*doc)) {
        std::string name = doc->contains("title") ? doc->at("title").get<std::string>()
                                                  : file.substr(0, file.rfind('.'));
        if (set == &after_) compare_type(file, "", name);
      }
      if (doc->contains("definitions")) {
        for (const auto& [key, value] : doc->at("definitions").items()) {
          if (!contains(defs, key)) defs.push_back(key);
        }
      }
    }
    for (const std::string& key : defs) {
      std::string loc = file + "#/definitions/" + key;
      if (loc != skip_location) compare_type(file, "/definitions/" + key, key);
    }
  }
}

// ---- reporting ----------------------------------------------------------------------------

void PayloadDiff::report(const Ctx& ctx, Effect effect, const std::string& rule,
                         const std::string& change, const std::string& why,
                         const std::string& old_location, const std::string& new_location) {
  const Flow& f = *ctx.flow;
  Change c;
  c.rule = rule;
  c.direction = f.direction;
  c.where = ctx.where();
  c.change = change;
  c.why = why;
  c.old_location = old_location;
  c.new_location = new_location;
  if (!ctx.anchor_is_message && !f.via.empty() && ctx.anchor != f.via) c.via.push_back(f.via);
  switch (effect) {
    case Effect::kNarrower:
      c.affected = "new " + f.receiver + " <- old " + f.sender;
      break;
    case Effect::kWider:
      c.affected = "old " + f.receiver + " <- new " + f.sender;
      break;
    case Effect::kChanged:
      c.affected = f.receiver + " <- " + f.sender + " (old/new mixed)";
      break;
    case Effect::kAdditive:
      c.verdict = Verdict::kAdditive;
      c.affected = f.receiver;
      break;
    case Effect::kApi:
      c.affected = f.receiver + " <- " + f.sender + ", C++ API";
      break;
  }
  out_.add(std::move(c));
}

}  // namespace rpckit::compat
