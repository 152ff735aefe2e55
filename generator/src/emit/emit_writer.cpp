// Direct encoders: write_json() appends a value's JSON text with no DOM in between, byte for
// byte what to_json() + dump() gives (rpckit/codec/json_writer.hpp). A struct's members are
// written in key order, as nlohmann's object (a std::map) would print them.
#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

#include "emit/common.hpp"
#include "emit/emit_constructs.hpp"

namespace rpckit::gen {
namespace {

// `"key":` as a C++ literal: the member's name already in JSON text.
std::string key_literal(const std::string& wire_name) {
  return raw_literal(nlohmann::json(wire_name).dump() + ":");
}

void define_struct_writer(Printer& p, const ir::TypeDecl& d) {
  std::vector<const ir::Field*> fields;
  for (const ir::Field& f : d.struct_.fields) fields.push_back(&f);
  std::sort(fields.begin(), fields.end(), [](const ir::Field* a, const ir::Field* b) {
    return a->wire_name < b->wire_name;  // std::string's order is nlohmann's key order
  });
  bool stores_nothing = std::all_of(fields.begin(), fields.end(),
                                    [](const ir::Field* f) { return f->const_json.has_value(); });
  p.print(
      "void write_json(std::string& out, const $name$& value) {\n"
      "  rpckit::codec::ObjectWriter object(out);\n",
      {{"name", d.name}});
  {
    Printer::Indent in(p);
    if (stores_nothing) p.print("(void)value;\n");
    for (const ir::Field* f : fields) {
      if (f->const_json) {
        p.print("object.constant($key$, $json$);\n",
                {{"key", key_literal(f->wire_name)},
                 {"json", raw_literal(nlohmann::json::parse(*f->const_json).dump())}});
      } else {
        p.print("object.member($key$, value.$name$);\n",
                {{"key", key_literal(f->wire_name)}, {"name", f->cpp_name}});
      }
    }
  }
  p.print("}\n");
}

}  // namespace

void define_writer(Printer& p, const ir::TypeDecl& d) {
  p.print("\n");
  switch (d.kind) {
    case ir::TypeDecl::Kind::kStruct: define_struct_writer(p, d); break;
    case ir::TypeDecl::Kind::kEnum:
      p.print(d.enum_.integer
                  ? "void write_json(std::string& out, const $name$& value) {\n"
                    "  rpckit::codec::write_json(out, static_cast<std::int32_t>(value));\n"
                    "}\n"
                  : "void write_json(std::string& out, const $name$& value) {\n"
                    "  rpckit::codec::write_json(out, std::string_view(value.wire()));\n"
                    "}\n",
              {{"name", d.name}});
      break;
    case ir::TypeDecl::Kind::kUnion:
      p.print(
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
