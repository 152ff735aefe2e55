// The structural comparison of two versions of a payload's schema, from the point of view of
// the side that receives it (docs/compat.md, "Payload rules"). A schema that accepts less
// (narrower) breaks a new receiver reading an old sender; one that accepts more (wider)
// breaks an old receiver reading a new sender, unless the receiver tolerates the addition
// (unknown members are ignored, enums and unions are open).
#include <algorithm>
#include <filesystem>

#include "tool/compat/payload_shape.hpp"

namespace rpckit::compat {

using gen::Json;
using gen::Node;

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
  if ((o.kind == K::kMap && n.kind == K::kObject) || (o.kind == K::kObject && n.kind == K::kMap)) {
    compare_map_and_object(o, n, ctx);
    return;
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
  // And every other file the schemas load but messages: shared definitions no x-types lists
  // (an envelope's jsonrpc.json, reached by $ref).
  for (const model::Protocol* protocol : {&after_protocol_, &before_protocol_}) {
    const gen::SchemaSet& set = protocol->schemas();
    std::vector<std::string> skip = {set.root().file};
    for (const model::Message& m : protocol->messages()) skip.push_back(m.file.file);
    for (const std::filesystem::path& path : set.files()) {
      const std::string file = path.lexically_relative(set.dir()).generic_string();
      if (!contains(skip, file) && !contains(files, file)) files.push_back(file);
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
