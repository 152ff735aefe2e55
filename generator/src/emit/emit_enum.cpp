// Enums. A string enum is an rpckit::OpenEnum over its generated values; an integer enum is
// an enum class with its names. Both keep values this version does not list.
#include <string>

#include "emit/common.hpp"
#include "emit/emit_constructs.hpp"

namespace rpckit::gen {

void declare_string_enum(Printer& p, const ir::TypeDecl& d) {
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

void declare_integer_enum(Printer& p, const ir::TypeDecl& d) {
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

void define_integer_enum(Printer& p, const ir::TypeDecl& d) {
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
      "  rpckit::codec::check_listed_code(is_known(value), raw, k$name$Names, path);\n"
      "}\n",
      {{"name", d.name}, {"from_name", d.enum_.from_name_function}});
}

}  // namespace rpckit::gen
