// types.hpp: one struct per object type, one open enum per enum, one variant wrapper per
// union, and the codec declarations. Light on purpose: only nlohmann/json_fwd.hpp.
#include "emit/common.hpp"
#include "emit/emit.hpp"

namespace rpckit::gen {
namespace {

void emit_struct(Printer& p, const ir::TypeDecl& d) {
  p.print("struct $name$ {\n", {{"name", d.name}});
  {
    Printer::Indent in(p);
    for (const ir::Field& f : d.struct_.fields) {
      if (f.const_json) {
        p.print("// \"$wire$\" is always $value$: written by the encoder, checked by the decoder.\n",
                {{"wire", f.wire_name}, {"value", *f.const_json}});
        continue;
      }
      doc_comment(p, f.doc);
      p.print("$type$ $name${};\n", {{"type", field_type(f)}, {"name", f.cpp_name}});
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
      p.print("$type$ $accessor$() const { return $name$.value_or($default$); }\n",
              {{"name", f.cpp_name},
               {"type", type},
               {"accessor", f.default_accessor},
               {"default", fallback}});
    }
    if (!d.struct_.fields.empty()) p.print("\n");
    p.print("friend bool operator==(const $name$&, const $name$&) = default;\n",
            {{"name", d.name}});
  }
  p.print("};\n");
}

void emit_string_enum(Printer& p, const ir::TypeDecl& d) {
  const char* width = d.enum_.values.size() < 255 ? "std::uint8_t" : "std::uint16_t";
  const std::string& values = d.enum_.values_struct;
  p.print("// The values of $name$ (rpckit::OpenEnum).\nstruct $values$ {\n",
          {{"name", d.name}, {"values", values}});
  {
    Printer::Indent in(p);
    p.print("enum Value : $width$ {\n", {{"width", width}});
    {
      Printer::Indent in2(p);
      p.print("kUnknown = 0,\n");
      int n = 1;
      for (const ir::EnumValue& v : d.enum_.values) {
        doc_comment(p, v.doc);
        p.print("$name$ = $n$,  // \"$wire$\"\n",
                {{"name", v.cpp_name}, {"n", std::to_string(n++)}, {"wire", v.wire}});
      }
    }
    p.print("};\n");
    // Unsized, so that a value added to the schema leaves this declaration as it was.
    p.print("static constexpr std::string_view kWire[] = {\n");
    for (const ir::EnumValue& v : d.enum_.values) {
      p.print("    \"$wire$\",\n", {{"wire", v.wire}});
    }
    p.print("};\n");
  }
  p.print("};\n\n");
  doc_comment(p, d.doc);
  p.print(
      "// Open enum: from_wire() accepts any text; a value this version does not list is\n"
      "// kUnknown and wire() still returns its text, so it re-encodes unchanged.\n"
      "class $name$ : public rpckit::OpenEnum<$name$, $values$> {\n"
      " public:\n"
      "  using OpenEnum::OpenEnum;\n"
      "};\n",
      {{"name", d.name}, {"values", values}});
}

void emit_integer_enum(Printer& p, const ir::TypeDecl& d) {
  p.print(
      "// Open enum: any 32-bit value is representable; is_known() tells the listed ones.\n"
      "enum class $name$ : std::int32_t {\n",
      {{"name", d.name}});
  {
    Printer::Indent in(p);
    for (const ir::EnumValue& v : d.enum_.values) {
      doc_comment(p, v.doc);
      p.print("$name$ = $wire$,\n", {{"name", v.cpp_name}, {"wire", v.wire}});
    }
  }
  p.print(
      "};\n"
      "/// The value's schema name (\"parse_error\"), or \"\" for a value this version does not "
      "list.\n"
      "std::string_view to_string($name$ value) noexcept;\n"
      "bool is_known($name$ value) noexcept;\n"
      "std::optional<$name$> $from_name$(std::string_view name) noexcept;\n",
      {{"name", d.name}, {"from_name", d.enum_.from_name_function}});
}

void emit_union(Printer& p, const ir::TypeDecl& d) {
  std::string alternatives;
  for (const ir::UnionMember& m : d.union_.members) alternatives += cpp_type(m.type) + ", ";
  alternatives += "rpckit::JsonValue";
  if (d.union_.discriminator) {
    p.print("// Tagged by \"$tag$\". A member this version does not know is kept whole as the\n"
            "// trailing rpckit::JsonValue alternative and re-encodes unchanged.\n",
            {{"tag", *d.union_.discriminator}});
  } else {
    p.print("// Chosen by JSON type. A value of any other shape is kept whole as the trailing\n"
            "// rpckit::JsonValue alternative and re-encodes unchanged.\n");
  }
  p.print(
      "struct $name$ {\n"
      "  std::variant<$alternatives$> value;\n"
      "\n"
      "  friend bool operator==(const $name$&, const $name$&) = default;\n"
      "};\n",
      {{"name", d.name}, {"alternatives", alternatives}});
}

}  // namespace

std::string emit_types_header(const ir::Module& m) {
  Printer p;
  p.raw(banner(m, "//"));
  p.print(
      "#pragma once\n"
      "\n"
      "#include <cstddef>\n"
      "#include <cstdint>\n"
      "#include <map>\n"
      "#include <optional>\n"
      "#include <string>\n"
      "#include <string_view>\n"
      "#include <variant>\n"
      "#include <vector>\n"
      "\n"
      "#include <nlohmann/json_fwd.hpp>\n"
      "\n"
      "#include \"rpckit/codec/decode_error.hpp\"\n"
      "#include \"rpckit/codec/json_value.hpp\"\n"
      "#include \"rpckit/codec/nullable.hpp\"\n"
      "#include \"rpckit/codec/open_enum.hpp\"\n"
      "\n");
  open_namespace(p, m);
  for (const ir::TypeDecl& d : m.types) {
    bool open_enum = d.kind == ir::TypeDecl::Kind::kEnum && !d.enum_.integer;
    if (!open_enum) doc_comment(p, d.doc);  // an open enum's goes on its class, not its values
    switch (d.kind) {
      case ir::TypeDecl::Kind::kStruct: emit_struct(p, d); break;
      case ir::TypeDecl::Kind::kEnum:
        if (d.enum_.integer) {
          emit_integer_enum(p, d);
        } else {
          emit_string_enum(p, d);
        }
        break;
      case ir::TypeDecl::Kind::kUnion: emit_union(p, d); break;
      case ir::TypeDecl::Kind::kAlias:
        p.print("using $name$ = $type$;\n\n", {{"name", d.name}, {"type", cpp_type(d.alias_)}});
        continue;  // a std::map: the container codecs serve it
    }
    p.print(
        "void to_json(nlohmann::json& j, const $name$& value);\n"
        "void from_json(const nlohmann::json& j, $name$& value);  // throws "
        "rpckit::codec::DecodeError\n"
        "void decode(const nlohmann::json& j, $name$& value, rpckit::codec::DecodePath& path);\n"
        "\n",
        {{"name", d.name}});
  }
  close_namespace(p, m);
  return p.str();
}

}  // namespace rpckit::gen
