// Streaming decoders: read_json() decodes JSON text into a declared type with no DOM in
// between (rpckit/codec/text_decoder.hpp), the fast path of decode_text(). It accepts exactly
// what decode() accepts, into the same value; where it cannot be sure (a value decode() would
// reject, a constraint broken, an untagged union) it returns false or throws, and
// decode_text() asks decode() on the DOM instead, for the error it has always given.
#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "emit/common.hpp"
#include "emit/emit_constructs.hpp"

namespace rpckit::gen {
namespace {

constexpr std::size_t kMaxRequired = 64;  // one bit each in a std::uint64_t

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

void define_struct_reader(Printer& p, Patterns& patterns, const ir::TypeDecl& d) {
  const auto& fields = d.struct_.fields;
  std::vector<const ir::Field*> required;
  for (const ir::Field& f : fields) {
    if (f.required) required.push_back(&f);
  }
  p.print("bool read_json(rpckit::codec::JsonReader& in, $name$& value) {\n", {{"name", d.name}});
  Printer::Indent in(p);
  if (required.size() > kMaxRequired) {  // not worth a bitset: the DOM decoder serves it
    print_read_via_dom(p);
    return;
  }
  p.print(
      "using rpckit::codec::read_member;\n"
      "if (in.peek() != rpckit::codec::JsonKind::kObject) return false;\n"
      "in.begin_object();\n");
  if (!required.empty()) p.print("std::uint64_t seen = 0;\n");
  p.print(
      "std::string key;\n"
      "while (in.next_member(key)) {\n");
  {
    Printer::Indent in2(p);
    for (const ir::Field& f : fields) {
      std::size_t bit = 0;
      for (; bit < required.size(); ++bit) {
        if (required[bit] == &f) break;
      }
      Printer::Vars vars = {{"key", raw_literal(f.wire_name)},
                            {"name", f.cpp_name},
                            {"bit", std::to_string(bit)}};
      p.print("if (key == $key$) {\n", vars);
      {
        Printer::Indent in3(p);
        if (f.const_json) {
          nlohmann::json expected = nlohmann::json::parse(*f.const_json);
          if (expected.is_string()) {
            p.print("if (!rpckit::codec::read_const_string(in, $expected$)) return false;\n",
                    {{"expected", raw_literal(expected.get<std::string>())}});
          } else {
            p.print("if (!rpckit::codec::read_const_json(in, $expected$)) return false;\n",
                    {{"expected", raw_literal(expected.dump())}});
          }
        } else {
          p.print("if (!read_member(in, value.$name$)) return false;\n", vars);
        }
        if (f.required) p.print("seen |= std::uint64_t{1} << $bit$;\n", vars);
        p.print("continue;\n");
      }
      p.print("}\n");
    }
    p.print("in.skip_value();  // unknown: skipped whole (and validated)\n");
  }
  p.print("}\n");
  if (!required.empty()) {
    std::string all = required.size() == 64 ? "~std::uint64_t{0}"
                                            : "(std::uint64_t{1} << " +
                                                  std::to_string(required.size()) + ") - 1";
    p.print("if (seen != $all$) return false;  // a required member is missing\n",
            {{"all", all}});
  }
  // The constraints, by the DOM decoder's own checks (a broken one throws DecodeError).
  bool path_declared = false;
  for (const ir::Field& f : fields) {
    if (f.const_json || !has_checks(f.type)) continue;
    if (!path_declared) {
      p.print("rpckit::codec::DecodePath path;\n");
      path_declared = true;
    }
    Printer::Vars vars = {{"wire", f.wire_name}, {"name", f.cpp_name}};
    p.print(f.required ? "{\n" : "if (value.$name$.has_value()) {\n", vars);
    {
      Printer::Indent in2(p);
      p.print("rpckit::codec::DecodePath::Key scope(path, \"$wire$\");\n", vars);
      emit_checks(p, patterns, f.type,
                  f.required ? "value." + f.cpp_name : "(*value." + f.cpp_name + ")", 0);
    }
    p.print("}\n");
  }
  if (std::all_of(fields.begin(), fields.end(),
                  [](const ir::Field& f) { return f.const_json.has_value(); })) {
    p.print("(void)value;  // nothing to store: every member is a const\n");
  }
  p.print("return true;\n");
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

void define_reader(Printer& p, Patterns& patterns, const ir::TypeDecl& d) {
  p.print("\n");
  switch (d.kind) {
    case ir::TypeDecl::Kind::kStruct:
      define_struct_reader(p, patterns, d);
      p.print("}\n");
      break;
    case ir::TypeDecl::Kind::kEnum:
      p.print(d.enum_.integer
                  ? "bool read_json(rpckit::codec::JsonReader& in, $name$& value) {\n"
                    "  std::int32_t raw = 0;\n"
                    "  if (!rpckit::codec::read_json(in, raw)) return false;\n"
                    "  value = static_cast<$name$>(raw);\n"
                    "  return true;\n"
                    "}\n"
                  : "bool read_json(rpckit::codec::JsonReader& in, $name$& value) {\n"
                    "  std::string wire;\n"
                    "  if (!rpckit::codec::read_json(in, wire)) return false;\n"
                    "  value = $name$::from_wire(wire);\n"
                    "  return true;\n"
                    "}\n",
              {{"name", d.name}});
      break;
    case ir::TypeDecl::Kind::kUnion:
      define_union_reader(p, d);
      p.print("}\n");
      break;
    case ir::TypeDecl::Kind::kAlias: break;  // a std::map: the container reader serves it
  }
}

}  // namespace rpckit::gen
