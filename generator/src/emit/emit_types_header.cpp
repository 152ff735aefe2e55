// types.hpp: the declarations of every type in dependency order (each construct's in
// struct.cpp, enum.cpp, union.cpp) and their codec declarations. Light on purpose: only
// nlohmann/json_fwd.hpp.
#include "emit/common.hpp"
#include "emit/emit_constructs.hpp"
#include "emit/emit.hpp"

namespace rpckit::gen {

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
      "#include \"rpckit/codec/json_reader.hpp\"\n"
      "#include \"rpckit/values/json_value.hpp\"\n"
      "#include \"rpckit/values/nullable.hpp\"\n"
      "#include \"rpckit/values/open_enum.hpp\"\n"
      "\n");
  open_namespace(p, m);
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
    p.print(
        "void to_json(nlohmann::json& j, const $name$& value);\n"
        "void from_json(const nlohmann::json& j, $name$& value);  // throws "
        "rpckit::codec::DecodeError\n"
        "void decode(const nlohmann::json& j, $name$& value, rpckit::codec::DecodePath& path);\n"
        "// Appends the JSON text to_json() + dump() would give, without the DOM.\n"
        "void write_json(std::string& out, const $name$& value);\n"
        "// Decodes from JSON text without the DOM; false: decode_text() asks decode() instead.\n"
        "bool read_json(rpckit::codec::JsonReader& in, $name$& value);\n"
        "\n",
        {{"name", d.name}});
  }
  close_namespace(p, m);
  return p.str();
}

}  // namespace rpckit::gen
