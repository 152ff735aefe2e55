// types.hpp: the declarations of every type in dependency order (each construct's in
// struct.cpp, enum.cpp, union.cpp) and their codec declarations. Light on purpose: only
// nlohmann/json_fwd.hpp.
#include "emit/common.hpp"
#include "emit/emit_constructs.hpp"
#include "emit/emit.hpp"
#include "emit/preamble.hpp"
#include "generator_version.hpp"

namespace rpckit::gen {

std::string emit_types_header(const ir::Module& m) {
  Printer p;
  open_file(p, m,
            {.standard = {"cstddef", "cstdint", "map", "optional", "string", "string_view",
                          "variant", "vector"},
             .third_party = {"nlohmann/json_fwd.hpp"},
             .rpckit = {"codec/decode_error.hpp", "codec/json_reader.hpp",
                        "codec/open_enum_codec.hpp", "descriptors/runtime_version.hpp",
                        "values/json_value.hpp", "values/nullable.hpp", "values/open_enum.hpp"}});
  p.print(
      "// Generated for the rpckit runtime $major$.$minor$: compiled with another major.minor,\n"
      "// this fails and names both versions (rpckit/descriptors/runtime_version.hpp).\n"
      "static_assert(rpckit::kRuntimeServes<rpckit::GeneratorVersion<$major$, $minor$>>);\n"
      "\n",
      {{"major", std::to_string(kGeneratorMajor)}, {"minor", std::to_string(kGeneratorMinor)}});
  p.print(
      "// Each type's codec (types.cpp): to_json/from_json for nlohmann::json (from_json throws\n"
      "// rpckit::codec::DecodeError); decode() with the path errors are reported at;\n"
      "// write_json() appends the JSON text to_json() + dump() would give, without the DOM;\n"
      "// read_json() decodes JSON text without the DOM (false: decode_text() asks decode()).\n"
      "// String enums (rpckit::OpenEnum) have theirs from rpckit/codec/open_enum_codec.hpp,\n"
      "// named here too:\n"
      "using rpckit::decode;\n"
      "using rpckit::from_json;\n"
      "using rpckit::read_json;\n"
      "using rpckit::to_json;\n"
      "using rpckit::write_json;\n"
      "\n");
  for (const ir::TypeDecl& d : m.types) {
    bool open_enum = d.kind == ir::TypeDecl::Kind::kEnum && !d.enum_.integer;
    if (!open_enum) doc_comment(p, d.doc);  // an open enum's goes on its class, not its values
    switch (d.kind) {
      case ir::TypeDecl::Kind::kStruct: declare_struct(p, d); break;
      case ir::TypeDecl::Kind::kEnum:
        if (d.enum_.integer) {
          declare_integer_enum(p, d);
        } else {
          declare_string_enum(p, d);
        }
        break;
      case ir::TypeDecl::Kind::kUnion: declare_union(p, d); break;
      case ir::TypeDecl::Kind::kAlias:
        p.print("using $name$ = $type$;\n\n", {{"name", d.name}, {"type", cpp_type(d.alias_)}});
        continue;  // a std::map: the container codecs serve it
    }
    if (open_enum) {
      p.print("\n");
      continue;
    }
    p.print(
        "void to_json(nlohmann::json& j, const $name$& value);\n"
        "void from_json(const nlohmann::json& j, $name$& value);\n"
        "void decode(const nlohmann::json& j, $name$& value, rpckit::codec::DecodePath& path);\n"
        "void write_json(std::string& out, const $name$& value);\n"
        "bool read_json(rpckit::codec::JsonReader& in, $name$& value);\n"
        "\n",
        {{"name", d.name}});
    if (d.json_schema) {
      // Found by ADL, as the codec functions are (rpckit/mcp/tool_set.hpp reads it).
      p.print(
          "/// $name$'s JSON Schema on its own (x-type-schemas): $$refs replaced by what they\n"
          "/// name, annotations left out.\n"
          "constexpr std::string_view json_schema(const $name$*) {\n"
          "  return ",
          {{"name", d.name}});
      p.raw(raw_literal(*d.json_schema));
      p.print(";\n}\n\n");
    }
  }
  return close_file(p, m);
}

}  // namespace rpckit::gen
