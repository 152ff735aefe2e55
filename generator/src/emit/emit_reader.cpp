// Streaming decoders: read_json() decodes JSON text into a declared type with no DOM in
// between (rpckit/codec/text_decoder.hpp), the fast path of decode_text(). It accepts exactly
// what decode() accepts, into the same value; where it cannot be sure (a value decode() would
// reject, a constraint broken, an untagged union) it returns false or throws, and
// decode_text() asks decode() on the DOM instead, for the error it has always given.
#include <string>

#include <nlohmann/json.hpp>

#include "emit/common.hpp"
#include "emit/emit_constructs.hpp"

namespace rpckit::gen {
namespace {

// A type whose read_json leaves the decision to the DOM decoder: the value is validated and
// parsed from its own text, then decoded as decode() would (a failure throws DecodeError,
// and decode_text reports it at its full path).
void print_read_via_dom(Printer& p) {
  p.print(
      "rpckit::JsonValue dom;\n"
      "rpckit::codec::read_json(in, dom);\n"
      "rpckit::codec::DecodePath path;\n"
      "decode(dom.get(), value, path);\n"
      "return true;\n");
}

void define_union_reader(Printer& p, const ir::TypeDecl& d) {
  p.print("bool read_json(rpckit::codec::JsonReader& in, $name$& value) {\n", {{"name", d.name}});
  Printer::Indent in(p);
  if (!d.union_.discriminator) {
    // Chosen by the JSON kind of the value (and of an array's items): the DOM decoder does it.
    print_read_via_dom(p);
    return;
  }
  p.print(
      "using rpckit::codec::read_json;\n"
      "std::optional<std::string> tag = rpckit::codec::peek_member_string(in, $key$);\n"
      "if (!tag) return false;\n",
      {{"key", raw_literal(*d.union_.discriminator)}});
  for (const ir::UnionMember& m : d.union_.members) {
    p.print(
        "if (*tag == $tag$) {\n"
        "  $type$ member{};\n"
        "  if (!read_json(in, member)) return false;\n"
        "  value.value = std::move(member);\n"
        "  return true;\n"
        "}\n",
        {{"tag", raw_literal(m.tag)}, {"type", cpp_type(m.type)}});
  }
  p.print("return false;\n");
}

}  // namespace

void define_reader(Printer& p, const ir::TypeDecl& d) {
  switch (d.kind) {
    case ir::TypeDecl::Kind::kStruct: break;  // RPCKIT_OBJECT_CODEC (emit_struct.cpp)
    case ir::TypeDecl::Kind::kEnum:
      if (!d.enum_.integer) break;  // a string enum: rpckit/codec/open_enum_codec.hpp
      p.print(
          "\n"
          "bool read_json(rpckit::codec::JsonReader& in, $name$& value) {\n"
          "  std::int32_t raw = 0;\n"
          "  if (!rpckit::codec::read_json(in, raw)) return false;\n"
          "  value = static_cast<$name$>(raw);\n"
          "  return true;\n"
          "}\n",
          {{"name", d.name}});
      break;
    case ir::TypeDecl::Kind::kUnion:
      p.print("\n");
      define_union_reader(p, d);
      p.print("}\n");
      break;
    case ir::TypeDecl::Kind::kAlias: break;  // a std::map: the container reader serves it
  }
}

}  // namespace rpckit::gen
