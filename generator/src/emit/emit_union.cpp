// Unions (oneOf/anyOf): a variant wrapper whose last alternative keeps a shape this version
// does not know; decoded by discriminator or by JSON type.
#include <vector>

#include "emit/common.hpp"
#include "emit/declarations.hpp"
#include "emit/emit_constructs.hpp"

namespace rpckit::gen {

void declare_union(Printer& p, const ir::TypeDecl& d) {
  const std::string alternatives = union_alternatives(d);
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

void define_union(Printer& p, const ir::TypeDecl& d) {
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

}  // namespace rpckit::gen
