// types.cpp: the codec bodies. decode() checks JSON kinds, required members and the schema's
// constraints, tracking the JSON path for errors; to_json() writes absent/null/value exactly.
#include <algorithm>
#include <string>
#include <vector>

#include "emit/common.hpp"
#include "emit/emit.hpp"
#include "emit/emit_constructs.hpp"
#include "emit/preamble.hpp"

namespace rpckit::gen {

std::string emit_types_source(const ir::Module& m) {
  Printer body;
  Patterns patterns;
  for (const ir::TypeDecl& d : m.types) {
    if (d.kind == ir::TypeDecl::Kind::kAlias) continue;  // a std::map: the container codecs
    if (d.kind == ir::TypeDecl::Kind::kEnum && !d.enum_.integer) continue;  // open_enum_codec
    body.print("// ---- $name$\n\n", {{"name", d.name}});
    if (d.kind == ir::TypeDecl::Kind::kStruct) {
      define_struct(body, patterns, d);  // its whole codec, by RPCKIT_(OPEN_)OBJECT_CODEC
      define_default_accessors(body, d);
      body.print("\n");
      continue;
    }
    if (d.kind == ir::TypeDecl::Kind::kEnum) {
      define_integer_enum(body, d);
    } else {
      define_union(body, d);
    }
    define_writer(body, d);
    define_reader(body, d);
    body.print(
        "\n"
        "void from_json(const nlohmann::json& j, $name$& value) {\n"
        "  rpckit::codec::decode_from(j, value, {});\n"
        "}\n"
        "\n",
        {{"name", d.name}});
  }

  std::vector<std::string> rpckit = {"codec/codec.hpp", "codec/json_writer.hpp",
                                     "codec/object_codec.hpp", "codec/text_decoder.hpp"};
  const bool open = std::any_of(m.types.begin(), m.types.end(), [](const ir::TypeDecl& d) {
    return d.kind == ir::TypeDecl::Kind::kStruct && d.struct_.rest;
  });
  if (open) rpckit.insert(rpckit.begin() + 3, "codec/open_object_codec.hpp");
  Printer p;
  open_file(p, m,
            {.implements = "types.hpp",
             .standard = {"array", "utility"},
             .third_party = {"nlohmann/json.hpp"},
             .rpckit = std::move(rpckit)});
  Printer compiled;
  patterns.emit(compiled);
  if (!compiled.str().empty()) {
    p.print("namespace {\n\n");
    p.raw(compiled.str());
    p.print("\n}  // namespace\n\n");
  }
  p.raw(body.str());
  return close_file(p, m);
}

}  // namespace rpckit::gen
