// Lowering of the places a type is used: references, arrays, maps, primitives and their
// constraints.
#include <array>
#include <string_view>

#include "lower/lowerer.hpp"
#include "lower/names.hpp"
#include "lower/schema_node.hpp"
#include "model.hpp"
#include "rpckit/codec/ecmascript_pattern.hpp"

namespace rpckit::gen {
namespace {

constexpr std::array<std::string_view, 7> kTypes = {"string", "integer", "number", "boolean",
                                                    "null",   "object",  "array"};

}  // namespace

void Lowerer::depend(const std::string& name) {
  if (current_deps_.empty()) return;
  auto& deps = current_deps_.back();
  if (std::find(deps.begin(), deps.end(), name) == deps.end()) deps.push_back(name);
}

TypeRef Lowerer::named(const std::string& name) {
  depend(name);
  TypeRef t;
  t.kind = TypeRef::Kind::kNamed;
  t.name = name;
  return t;
}

TypeRef Lowerer::lower_use(const Node& n, const std::string& hint) {
  if (n.has("$ref")) {
    Node target = schema_.resolve(n, text(n, "$ref"));
    if (!declarable(target)) {
      // A chain of $refs to non-declared schemas: follow it, but not around a cycle.
      std::string key = target.loc().str();
      if (!following_.insert(key).second) n.child("$ref").fail("$ref cycle through " + key);
      TypeRef t = lower_use(target, hint);
      following_.erase(key);
      return t;
    }
    std::string name = declare(target, name_for(target));
    if (shape_of(target, true) != Shape::kMap) return named(name);
    // A named map stays a map (its values' constraints are checked at each use).
    depend(name);
    TypeRef t = lower_use(target, name);
    t.alias = name;
    return t;
  }
  switch (shape_of(n, false)) {
    case Shape::kAny: {
      TypeRef t;  // a free-form object keeps its one check: that it is an object
      bool nullable = false;
      if (n.json->is_object() && single_type(n, &nullable) == "object" && !nullable) {
        t.constraints.object = true;
      }
      return t;
    }
    case Shape::kNullableWrapper: {
      Node inner = n.child(union_keyword(n)).item(static_cast<std::size_t>(nullable_member(n)));
      TypeRef t = lower_use(inner, hint);
      if (t.nullable || (t.kind == TypeRef::Kind::kPrimitive && t.primitive == Primitive::kAny)) {
        n.fail("nullable of a type that already admits null");
      }
      t.nullable = true;
      return t;
    }
    case Shape::kStruct:
    case Shape::kUnion:
      if (!n.has("title")) n.fail("an inline object or union needs a \"title\" (its C++ name)");
      return named(declare(n, text(n, "title")));
    case Shape::kEnum: {
      bool nullable = false;
      single_type(n, &nullable);
      TypeRef t = named(declare(n, n.has("title") ? text(n, "title") : hint));
      t.nullable = nullable;
      return t;
    }
    case Shape::kMap: {
      TypeRef t;
      t.kind = TypeRef::Kind::kMap;
      t.element = std::make_shared<TypeRef>(
          lower_use(n.child("additionalProperties"), hint + "Value"));
      single_type(n, &t.nullable);
      return t;
    }
    case Shape::kArray: {
      TypeRef t;
      t.kind = TypeRef::Kind::kArray;
      t.element = n.has("items") ? std::make_shared<TypeRef>(lower_use(n.child("items"), hint + "Item"))
                                 : std::make_shared<TypeRef>();
      single_type(n, &t.nullable);
      t.constraints.min_items = count(n, "minItems");
      t.constraints.max_items = count(n, "maxItems");
      t.constraints.unique_items = n.has("uniqueItems") && (*n.json)["uniqueItems"] == true;
      return t;
    }
    case Shape::kPrimitive:
      return lower_primitive(n);
  }
  return TypeRef{};
}

std::optional<std::uint64_t> Lowerer::count(const Node& n, std::string_view key) {
  if (!n.has(key)) return std::nullopt;
  Node c = n.child(key);
  if (!c.json->is_number_unsigned() && !(c.json->is_number_integer() && c.json->get<std::int64_t>() >= 0)) {
    c.reject("expected a non-negative integer");
  }
  return c.json->get<std::uint64_t>();
}

std::optional<double> Lowerer::number(const Node& n, std::string_view key) {
  if (!n.has(key)) return std::nullopt;
  Node c = n.child(key);
  if (!c.json->is_number()) c.reject("expected a number");
  return c.json->get<double>();
}

// The `pattern` of n, translated for RE2 and compiled once to prove it.
ir::Pattern Lowerer::pattern(const Node& n) {
  ir::Pattern p;
  p.source = text(n, "pattern");
  auto translated = codec::ecmascript_to_re2(p.source);
  if (const codec::PatternError* e = std::get_if<codec::PatternError>(&translated)) {
    n.child("pattern").fail("pattern not supported at offset " + std::to_string(e->offset) +
                            ": " + e->reason);
  }
  p.re2 = std::get<std::string>(translated);
  if (std::string error = codec::re2_error(p.re2); !error.empty()) {
    n.child("pattern").fail("pattern does not compile: " + error);
  }
  return p;
}

void Lowerer::error_messages(const Node& n, ir::Constraints& constraints) {
  const auto written = model::annotation(n, Annotation::kErrorMessages);
  if (!written) return;
  const Node& messages = *written;
  if (!messages.json->is_object()) messages.reject("expected an object of keyword: message");
  for (const auto& [keyword, message] : messages.json->items()) {
    Node entry = messages.child(keyword);
    ir::Pattern* target = keyword == "pattern" ? (constraints.pattern ? &*constraints.pattern : nullptr)
                          : keyword == "not"   ? (constraints.not_pattern ? &*constraints.not_pattern : nullptr)
                                               : nullptr;
    if (keyword != "pattern" && keyword != "not") {
      entry.fail("only \"pattern\" and \"not\" take a message");
    }
    if (target == nullptr) entry.fail("no \"" + keyword + "\" on this schema to explain");
    if (!message.is_string() || message.get<std::string>().empty()) {
      entry.reject("expected a non-empty string");
    }
    target->message = message.get<std::string>();
  }
}

TypeRef Lowerer::lower_primitive(const Node& n) {
  TypeRef t;
  std::string type = single_type(n, &t.nullable);
  if (type == "string") {
    t.primitive = Primitive::kString;
    t.constraints.min_length = count(n, "minLength");
    t.constraints.max_length = count(n, "maxLength");
    if (n.has("pattern")) t.constraints.pattern = pattern(n);
    if (n.has("not")) t.constraints.not_pattern = pattern(n.child("not"));
    error_messages(n, t.constraints);
    if (n.has("format")) {
      std::string format = text(n, "format");
      if (format == "date-time") {
        t.constraints.date_time = true;
      } else if (format != "uri") {
        n.child("format").fail("unsupported format \"" + format + "\" (expected \"date-time\" or \"uri\")");
      }
    }
  } else if (type == "integer") {
    t.constraints.minimum = number(n, "minimum");
    t.constraints.maximum = number(n, "maximum");
    bool fits_u32 = t.constraints.minimum && *t.constraints.minimum >= 0 &&
                    t.constraints.maximum && *t.constraints.maximum <= 4294967295.0;
    t.primitive = fits_u32 ? Primitive::kUInt32 : Primitive::kInt64;
  } else if (type == "number") {
    t.primitive = Primitive::kDouble;
    t.constraints.minimum = number(n, "minimum");
    t.constraints.maximum = number(n, "maximum");
  } else if (type == "boolean") {
    t.primitive = Primitive::kBool;
  } else if (type == "null") {
    t.primitive = Primitive::kNull;
  } else {
    n.child("type").fail("unsupported type \"" + type + "\" (expected one of " +
                         quoted_list(kTypes) + ")");
  }
  return t;
}

}  // namespace rpckit::gen
