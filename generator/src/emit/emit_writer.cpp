// Direct encoders: write_json() appends a value's JSON text with no DOM in between, byte for
// byte what to_json() + dump() gives (rpckit/codec/json_writer.hpp). Structs and string
// enums have theirs from runtime templates (object_codec.hpp, open_enum_codec.hpp).
#include "emit/common.hpp"
#include "emit/emit_constructs.hpp"

namespace rpckit::gen {

void define_writer(Printer& p, const ir::TypeDecl& d) {
  switch (d.kind) {
    case ir::TypeDecl::Kind::kStruct: break;  // by its member table (emit_struct.cpp)
    case ir::TypeDecl::Kind::kEnum:
      if (!d.enum_.integer) break;  // a string enum: rpckit/codec/open_enum_codec.hpp
      p.print(
          "\n"
          "void write_json(std::string& out, const $name$& value) {\n"
          "  rpckit::codec::write_json(out, static_cast<std::int32_t>(value));\n"
          "}\n",
          {{"name", d.name}});
      break;
    case ir::TypeDecl::Kind::kUnion:
      p.print(
          "\n"
          "void write_json(std::string& out, const $name$& value) {\n"
          "  std::visit([&out](const auto& member) {\n"
          "    using rpckit::codec::write_json;\n"
          "    write_json(out, member);\n"
          "  }, value.value);\n"
          "}\n",
          {{"name", d.name}});
      break;
    case ir::TypeDecl::Kind::kAlias: break;  // a std::map: the container writer serves it
  }
}

}  // namespace rpckit::gen
