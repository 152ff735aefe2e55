// types.cpp: the codec bodies. decode() checks JSON kinds, required members and the schema's
// constraints, tracking the JSON path for errors; to_json() writes absent/null/value exactly.
#include <algorithm>
#include <map>
#include <sstream>

#include "emit/common.hpp"
#include "emit/emit.hpp"

namespace rpckit::gen {
namespace {

std::string number_literal(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  std::string s = out.str();
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

template <class T>
std::string optional_size(const std::optional<T>& v) {
  return v ? "std::size_t{" + std::to_string(*v) + "}" : "std::nullopt";
}

std::string optional_number(const std::optional<double>& v) {
  return v ? number_literal(*v) : "std::nullopt";
}

// Collects the patterns of one source file so each is compiled once.
class Patterns {
 public:
  std::string use(const ir::Pattern& pattern) {
    auto [it, inserted] = index_.emplace(pattern.re2, Entry{index_.size(), pattern.source});
    return "pattern_" + std::to_string(it->second.index) + "()";
  }
  void emit(Printer& p) const {
    std::vector<std::pair<const std::string*, const Entry*>> ordered(index_.size());
    for (const auto& [re2, entry] : index_) ordered[entry.index] = {&re2, &entry};
    for (std::size_t i = 0; i < ordered.size(); ++i) {
      p.print(
          "const rpckit::codec::Pattern& pattern_$i$() {\n"
          "  static const rpckit::codec::Pattern re(\n"
          "      $re2$,\n"
          "      $source$);\n"
          "  return re;\n"
          "}\n",
          {{"i", std::to_string(i)},
           {"re2", raw_literal(*ordered[i].first)},
           {"source", raw_literal(ordered[i].second->source)}});
    }
  }

 private:
  struct Entry {
    std::size_t index;
    std::string source;
  };
  std::map<std::string, Entry> index_;  // by RE2 text
};

bool has_checks(const ir::TypeRef& t) {
  if (!t.constraints.empty()) return true;
  return t.element && has_checks(*t.element);
}

// Prints the constraint checks of one decoded value `expr` (path already points at it).
void emit_checks(Printer& p, Patterns& patterns, const ir::TypeRef& t, const std::string& expr,
                 int depth) {
  if (!has_checks(t)) return;
  if (t.nullable) {
    p.print("if ($expr$.has_value()) {\n", {{"expr", expr}});
    Printer::Indent in(p);
    ir::TypeRef inner = t;
    inner.nullable = false;
    emit_checks(p, patterns, inner, "(*" + expr + ")", depth);
    p.print("}\n");
    return;
  }
  const ir::Constraints& c = t.constraints;
  if (c.min_length || c.max_length) {
    p.print("rpckit::codec::check_length($expr$, $min$, $max$, path);\n",
            {{"expr", expr}, {"min", optional_size(c.min_length)}, {"max", optional_size(c.max_length)}});
  }
  if (c.pattern) {
    p.print("rpckit::codec::check_pattern($expr$, $re$, path);\n",
            {{"expr", expr}, {"re", patterns.use(*c.pattern)}});
  }
  if (c.not_pattern) {
    p.print("rpckit::codec::check_not_pattern($expr$, $re$, path);\n",
            {{"expr", expr}, {"re", patterns.use(*c.not_pattern)}});
  }
  if (c.date_time) p.print("rpckit::codec::check_date_time($expr$, path);\n", {{"expr", expr}});
  bool type_enforces_range = t.kind == ir::TypeRef::Kind::kPrimitive &&
                             t.primitive == ir::Primitive::kUInt32 && c.minimum == 0.0 &&
                             c.maximum == 4294967295.0;
  if ((c.minimum || c.maximum) && !type_enforces_range) {
    p.print("rpckit::codec::check_range(static_cast<double>($expr$), $min$, $max$, path);\n",
            {{"expr", expr}, {"min", optional_number(c.minimum)}, {"max", optional_number(c.maximum)}});
  }
  if (c.min_items || c.max_items) {
    p.print("rpckit::codec::check_items($expr$.size(), $min$, $max$, path);\n",
            {{"expr", expr}, {"min", optional_size(c.min_items)}, {"max", optional_size(c.max_items)}});
  }
  if (c.unique_items) p.print("rpckit::codec::check_unique($expr$, path);\n", {{"expr", expr}});
  if (!t.element || !has_checks(*t.element)) return;
  std::string var = "i" + std::to_string(depth);
  if (t.kind == ir::TypeRef::Kind::kArray) {
    p.print(
        "for (std::size_t $i$ = 0; $i$ < $expr$.size(); ++$i$) {\n"
        "  rpckit::codec::DecodePath::Index scope$d$(path, $i$);\n",
        {{"i", var}, {"expr", expr}, {"d", std::to_string(depth)}});
    Printer::Indent in(p);
    emit_checks(p, patterns, *t.element, expr + "[" + var + "]", depth + 1);
  } else {
    p.print(
        "for (const auto& [key$d$, $i$] : $expr$) {\n"
        "  rpckit::codec::DecodePath::Key scope$d$(path, key$d$);\n",
        {{"i", var}, {"expr", expr}, {"d", std::to_string(depth)}});
    Printer::Indent in(p);
    emit_checks(p, patterns, *t.element, var, depth + 1);
  }
  p.print("}\n");
}

void emit_struct(Printer& p, Patterns& patterns, const ir::TypeDecl& d) {
  const auto& fields = d.struct_.fields;
  bool stores_nothing = std::all_of(fields.begin(), fields.end(),
                                    [](const ir::Field& f) { return f.const_json.has_value(); });
  p.print("void to_json(nlohmann::json& j, const $name$& value) {\n", {{"name", d.name}});
  {
    Printer::Indent in(p);
    p.print("j = nlohmann::json::object();\n");
    for (const ir::Field& f : fields) {
      Printer::Vars vars = {{"wire", f.wire_name}, {"name", f.cpp_name}};
      if (f.const_json) {
        p.print("j[\"$wire$\"] = nlohmann::json::parse($json$);\n",
                {{"wire", f.wire_name}, {"json", raw_literal(*f.const_json)}});
      } else if (f.required) {
        p.print("j[\"$wire$\"] = value.$name$;\n", vars);
      } else {
        p.print("rpckit::codec::encode_optional(j, \"$wire$\", value.$name$);\n", vars);
      }
    }
    if (stores_nothing) p.print("(void)value;\n");
  }
  p.print(
      "}\n"
      "\n"
      "void decode(const nlohmann::json& j, $name$& value, rpckit::codec::DecodePath& path) {\n"
      "  rpckit::codec::expect_object(j, path);\n",
      {{"name", d.name}});
  {
    Printer::Indent in(p);
    if (stores_nothing) p.print("(void)value;\n");
    for (const ir::Field& f : fields) {
      Printer::Vars vars = {{"wire", f.wire_name}, {"name", f.cpp_name}};
      if (f.const_json) {
        p.print(
            "{\n"
            "  static const nlohmann::json expected = nlohmann::json::parse($json$);\n"
            "  rpckit::codec::decode_const(j, \"$wire$\", expected, $required$, path);\n"
            "}\n",
            {{"json", raw_literal(*f.const_json)},
             {"wire", f.wire_name},
             {"required", f.required ? "true" : "false"}});
        continue;
      }
      p.print(f.required ? "rpckit::codec::decode_required(j, \"$wire$\", value.$name$, path);\n"
                         : "rpckit::codec::decode_optional(j, \"$wire$\", value.$name$, path);\n",
              vars);
      if (!has_checks(f.type)) continue;
      p.print(f.required ? "{\n" : "if (value.$name$.has_value()) {\n", vars);
      {
        Printer::Indent in2(p);
        p.print("rpckit::codec::DecodePath::Key scope(path, \"$wire$\");\n", vars);
        emit_checks(p, patterns, f.type,
                    f.required ? "value." + f.cpp_name : "(*value." + f.cpp_name + ")", 0);
      }
      p.print("}\n");
    }
  }
  p.print("}\n");
}

// Accessors of defaults without a plain C++ expression ({} for an object, any JSON): the
// schema's default is decoded once, by the same decoder as the wire.
void emit_default_accessors(Printer& p, const ir::TypeDecl& d) {
  for (const ir::Field& f : d.struct_.fields) {
    if (!f.default_json || f.default_cpp) continue;
    p.print(
        "\n"
        "$type$ $owner$::$accessor$() const {\n"
        "  if ($name$.has_value()) return *$name$;\n"
        "  static const $type$ fallback = [] {\n"
        "    using rpckit::codec::decode;\n"
        "    $type$ v{};\n"
        "    rpckit::codec::DecodePath path(\"default\");\n"
        "    decode(nlohmann::json::parse($json$), v, path);\n"
        "    return v;\n"
        "  }();\n"
        "  return fallback;\n"
        "}\n",
        {{"type", cpp_type(f.type)},
         {"owner", d.name},
         {"accessor", f.default_accessor},
         {"name", f.cpp_name},
         {"json", raw_literal(*f.default_json)}});
  }
}

void emit_string_enum(Printer& p, const ir::TypeDecl& d) {
  p.print(
      "void to_json(nlohmann::json& j, const $name$& value) { j = value.wire(); }\n"
      "\n"
      "void decode(const nlohmann::json& j, $name$& value, rpckit::codec::DecodePath& path) {\n"
      "  if (!j.is_string()) rpckit::codec::fail_kind(j, \"string\", path);\n"
      "  value = $name$::from_wire(j.get_ref<const std::string&>());\n"
      "}\n",
      {{"name", d.name}});
}

void emit_integer_enum(Printer& p, const ir::TypeDecl& d) {
  p.print(
      "namespace {\n"
      "struct $name$Name {\n"
      "  $name$ value;\n"
      "  std::string_view name;\n"
      "};\n"
      "constexpr std::array<$name$Name, $count$> k$name$Names = {{\n",
      {{"name", d.name}, {"count", std::to_string(d.enum_.values.size())}});
  for (const ir::EnumValue& v : d.enum_.values) {
    p.print("    {$name$::$value$, \"$label$\"},\n",
            {{"name", d.name}, {"value", v.cpp_name}, {"label", v.label}});
  }
  p.print(
      "}};\n"
      "}  // namespace\n"
      "\n"
      "std::string_view to_string($name$ value) noexcept {\n"
      "  for (const auto& entry : k$name$Names) {\n"
      "    if (entry.value == value) return entry.name;\n"
      "  }\n"
      "  return {};\n"
      "}\n"
      "\n"
      "bool is_known($name$ value) noexcept { return !to_string(value).empty(); }\n"
      "\n"
      "std::optional<$name$> $from_name$(std::string_view name) noexcept {\n"
      "  for (const auto& entry : k$name$Names) {\n"
      "    if (entry.name == name) return entry.value;\n"
      "  }\n"
      "  return std::nullopt;\n"
      "}\n"
      "\n"
      "void to_json(nlohmann::json& j, const $name$& value) { j = static_cast<std::int32_t>(value); "
      "}\n"
      "\n"
      "void decode(const nlohmann::json& j, $name$& value, rpckit::codec::DecodePath& path) {\n"
      "  std::int32_t raw = 0;\n"
      "  rpckit::codec::decode(j, raw, path);\n"
      "  value = static_cast<$name$>(raw);\n"
      "}\n",
      {{"name", d.name}, {"from_name", d.enum_.from_name_function}});
}

void emit_union(Printer& p, const ir::TypeDecl& d) {
  p.print(
      "void to_json(nlohmann::json& j, const $name$& value) {\n"
      "  std::visit([&j](const auto& member) { j = member; }, value.value);\n"
      "}\n"
      "\n"
      "void decode(const nlohmann::json& j, $name$& value, rpckit::codec::DecodePath& path) {\n",
      {{"name", d.name}});
  {
    Printer::Indent in(p);
    if (d.union_.discriminator) {
      p.print(
          "rpckit::codec::expect_object(j, path);\n"
          "const std::string& tag = rpckit::codec::discriminator(j, \"$key$\", path);\n",
          {{"key", *d.union_.discriminator}});
      for (const ir::UnionMember& m : d.union_.members) {
        p.print(
            "if (tag == \"$tag$\") {\n"
            "  $type$ member;\n"
            "  decode(j, member, path);\n"
            "  value.value = std::move(member);\n"
            "  return;\n"
            "}\n",
            {{"tag", m.tag}, {"type", cpp_type(m.type)}});
      }
    } else {
      // Integer members first, so an integer never lands in a number member before them.
      std::vector<const ir::UnionMember*> order;
      for (const auto& m : d.union_.members) {
        if (m.match == "integer") order.push_back(&m);
      }
      for (const auto& m : d.union_.members) {
        if (m.match != "integer") order.push_back(&m);
      }
      for (const ir::UnionMember* m : order) {
        p.print(
            "if (rpckit::codec::matches(j, \"$match$\")) {\n"
            "  $type$ member{};\n"
            "  decode(j, member, path);\n"
            "  value.value = std::move(member);\n"
            "  return;\n"
            "}\n",
            {{"match", m->match}, {"type", cpp_type(m->type)}});
      }
    }
    p.print("value.value = rpckit::JsonValue(j);  // a shape a newer peer may send\n");
  }
  p.print("}\n");
}

}  // namespace

std::string emit_types_source(const ir::Module& m) {
  Printer body;
  Patterns patterns;
  for (const ir::TypeDecl& d : m.types) {
    if (d.kind == ir::TypeDecl::Kind::kAlias) continue;
    body.print("// ---- $name$\n\n", {{"name", d.name}});
    switch (d.kind) {
      case ir::TypeDecl::Kind::kStruct:
        emit_struct(body, patterns, d);
        emit_default_accessors(body, d);
        break;
      case ir::TypeDecl::Kind::kEnum:
        if (d.enum_.integer) {
          emit_integer_enum(body, d);
        } else {
          emit_string_enum(body, d);
        }
        break;
      case ir::TypeDecl::Kind::kUnion: emit_union(body, d); break;
      case ir::TypeDecl::Kind::kAlias: continue;
    }
    body.print(
        "\n"
        "void from_json(const nlohmann::json& j, $name$& value) {\n"
        "  rpckit::codec::DecodePath path;\n"
        "  decode(j, value, path);\n"
        "}\n"
        "\n",
        {{"name", d.name}});
  }

  Printer p;
  p.raw(banner(m, "//"));
  p.print(
      "#include \"$module$/types.hpp\"\n"
      "\n"
      "#include <array>\n"
      "#include <utility>\n"
      "\n"
      "#include <nlohmann/json.hpp>\n"
      "\n"
      "#include \"rpckit/codec/codec.hpp\"\n"
      "\n",
      {{"module", m.name}});
  open_namespace(p, m);
  Printer compiled;
  patterns.emit(compiled);
  if (!compiled.str().empty()) {
    p.print("namespace {\n\n");
    p.raw(compiled.str());
    p.print("\n}  // namespace\n\n");
  }
  p.raw(body.str());
  close_namespace(p, m);
  return p.str();
}

}  // namespace rpckit::gen
