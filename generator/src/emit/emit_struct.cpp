// Object types: a struct with its fields (types.hpp), and its encoder, decoder and default
// accessors (types.cpp).

#include <nlohmann/json.hpp>

#include "emit/common.hpp"
#include "emit/emit_constructs.hpp"
#include "rpckit/model/required_alternatives.hpp"

namespace rpckit::gen {

void declare_struct(Printer& p, const ir::TypeDecl& d) {
  p.print("struct $name$ {\n", {{"name", d.name}});
  {
    Printer::Indent in(p);
    if (!d.struct_.required_any_of.empty()) {
      p.print("// Decoded only with $rule$ present (the schema's anyOf of required lists).\n",
              {{"rule", model::describe_alternatives(d.struct_.required_any_of)}});
    }
    for (const ir::Field& f : d.struct_.fields) {
      if (f.const_json) {
        p.print("// \"$wire$\" is always $value$: written by the encoder, checked by the decoder.\n",
                {{"wire", f.wire_name}, {"value", *f.const_json}});
        continue;
      }
      doc_comment(p, f.doc);
      p.print("$type$ $name${};\n", {{"type", field_type(f)}, {"name", f.cpp_name}});
    }
    if (d.struct_.rest) {
      doc_comment(p,
                  "The members the schema does not declare (additionalProperties), kept as they "
                  "came and written back in key order; an entry named like a declared member "
                  "is not written.");
      p.print("$type$ $name${};\n", {{"type", rest_type(d.struct_)}, {"name", ir::kRestMember}});
    }
    for (const ir::Field& f : d.struct_.fields) {
      if (!f.default_json) continue;
      std::string type = cpp_type(f.type);
      p.print("\n/// `$name$`, or the schema's default ($json$) when absent.\n",
              {{"name", f.cpp_name}, {"json", *f.default_json}});
      if (!f.default_cpp) {  // no plain C++ expression: decoded once, in types.cpp
        p.print("$type$ $accessor$() const;\n", {{"type", type}, {"accessor", f.default_accessor}});
        continue;
      }
      // "{}" is an empty container: spelled with its type so value_or can take it.
      std::string fallback = *f.default_cpp == "{}" ? type + "{}" : *f.default_cpp;
      Printer::Vars vars = {{"name", f.cpp_name},
                            {"type", type},
                            {"accessor", f.default_accessor},
                            {"default", fallback}};
      // On one line when it fits in kLineWidth columns, else as a body of its own.
      std::size_t width = static_cast<std::size_t>(p.indent()) + type.size() +
                          f.default_accessor.size() + f.cpp_name.size() + fallback.size() + 33;
      p.print(width <= kLineWidth ? "$type$ $accessor$() const { "
                                    "return $name$.value_or($default$); }\n"
                                  : "$type$ $accessor$() const {\n"
                                    "  return $name$.value_or($default$);\n"
                                    "}\n",
              vars);
    }
    if (!d.struct_.fields.empty() || d.struct_.rest) p.print("\n");
    p.print("friend bool operator==(const $name$&, const $name$&) = default;\n",
            {{"name", d.name}});
  }
  p.print("};\n");
}

namespace {

// A C++ string literal of `text`: quoted, `"` and `\` escaped; a raw literal when it holds
// anything but printable ASCII.
std::string string_literal(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7F) return raw_literal(text);
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string check_name(const ir::TypeDecl& d, const ir::Field& f) {
  return "check_" + d.name + "_" + f.cpp_name;
}
std::string rest_check_name(const ir::TypeDecl& d) {
  return "check_" + d.name + "_" + ir::kRestMember;
}

// One function per member with constraints: checks a decoded value (its path already points
// at the member), by the DOM decoder's checks.
void define_member_checks(Printer& p, Patterns& patterns, const ir::TypeDecl& d) {
  for (const ir::Field& f : d.struct_.fields) {
    if (f.const_json || !has_checks(f.type)) continue;
    p.print("void $check$(const $type$& value, rpckit::codec::DecodePath& path) {\n",
            {{"check", check_name(d, f)}, {"type", field_type(f)}});
    {
      Printer::Indent in(p);
      emit_checks(p, patterns, f.type, f.required ? "value" : "(*value)", 0);
    }
    p.print("}\n");
  }
  if (d.struct_.rest && has_checks(*d.struct_.rest)) {
    p.print("void $check$(const $type$& value, rpckit::codec::DecodePath& path) {\n",
            {{"check", rest_check_name(d)}, {"type", cpp_type(*d.struct_.rest)}});
    {
      Printer::Indent in(p);
      emit_checks(p, patterns, *d.struct_.rest, "value", 0);
    }
    p.print("}\n");
  }
}

}  // namespace

void define_struct(Printer& p, Patterns& patterns, const ir::TypeDecl& d) {
  // The member table (rpckit/codec/object_codec.hpp), in schema order: decode() reports
  // problems in this order.
  const std::string table = "k" + d.name + "Members";
  p.print("namespace {\n");
  define_member_checks(p, patterns, d);
  const auto& alternatives = d.struct_.required_any_of;
  if (alternatives.empty()) {
    p.print("constexpr auto $table$ = rpckit::codec::members(", {{"table", table}});
  } else {
    // The anyOf of required lists wraps the table (at least one alternative present).
    p.print("constexpr auto $table$ = rpckit::codec::with_any_of(\n    rpckit::codec::members(",
            {{"table", table}});
  }
  {
    Printer::Indent in(p);
    Printer::Indent continued(p);
    std::optional<Printer::Indent> wrapped[2];  // inside with_any_of's call: 4 columns more
    if (!alternatives.empty()) {
      wrapped[0].emplace(p);
      wrapped[1].emplace(p);
    }
    const char* separator = "\n";
    for (const ir::Field& f : d.struct_.fields) {
      p.print(separator);
      separator = ",\n";
      const std::string key = string_literal(f.wire_name);
      if (f.const_json) {
        p.print(f.required ? "rpckit::codec::constant($key$, $json$)"
                           : "rpckit::codec::constant($key$, $json$, false)",
                {{"key", key}, {"json", string_literal(nlohmann::json::parse(*f.const_json).dump())}});
        continue;
      }
      p.print(f.required ? "rpckit::codec::required($key$, &$owner$::$name$$check$)"
                         : "rpckit::codec::optional($key$, &$owner$::$name$$check$)",
              {{"key", key},
               {"owner", d.name},
               {"name", f.cpp_name},
               {"check", has_checks(f.type) ? ", " + check_name(d, f) : ""}});
    }
  }
  p.print(")");
  for (const std::vector<std::string>& names : alternatives) {
    std::string keys;
    for (const std::string& name : names) keys += (keys.empty() ? "" : ", ") + string_literal(name);
    p.print(",\n    rpckit::codec::present($keys$)", {{"keys", keys}});
  }
  p.print(alternatives.empty() ? ";\n" : ");\n");
  if (d.struct_.rest) {
    // Open (rpckit/codec/open_object_codec.hpp): where its other members go.
    const bool checked = has_checks(*d.struct_.rest);
    p.print(
        "constexpr auto k$name$Rest =\n"
        "    rpckit::codec::rest(&$name$::$member$$check$);\n",
        {{"name", d.name},
         {"member", ir::kRestMember},
         {"check", checked ? ", " + rest_check_name(d) : ""}});
  }
  p.print(
      "}  // namespace\n"
      "$codec$($name$)\n",
      {{"name", d.name},
       {"codec", d.struct_.rest ? "RPCKIT_OPEN_OBJECT_CODEC" : "RPCKIT_OBJECT_CODEC"}});
}

// Accessors of defaults without a plain C++ expression ({} for an object, any JSON): the
// schema's default is decoded once, by the same decoder as the wire.
void define_default_accessors(Printer& p, const ir::TypeDecl& d) {
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

}  // namespace rpckit::gen
