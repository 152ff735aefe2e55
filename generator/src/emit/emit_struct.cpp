// Object types: a struct with its fields (types.hpp), and its encoder, decoder and default
// accessors (types.cpp).
#include <algorithm>

#include "emit/common.hpp"
#include "emit/emit_constructs.hpp"

namespace rpckit::gen {

void declare_struct(Printer& p, const ir::TypeDecl& d) {
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

void define_struct(Printer& p, Patterns& patterns, const ir::TypeDecl& d) {
  const auto& fields = d.struct_.fields;
  bool stores_nothing = std::all_of(fields.begin(), fields.end(),
                                    [](const ir::Field& f) { return f.const_json.has_value(); });
  p.print("void to_json(nlohmann::json& j, const $name$& value) {\n", {{"name", d.name}});
  {
    Printer::Indent in(p);
    p.print("j = nlohmann::json::object();\n");
    for (const ir::Field& f : fields) {
      Printer::Vars vars = {{"wire", f.wire_name}, {"name", f.cpp_name}};
      if (f.const_json) {
        p.print("j[\"$wire$\"] = nlohmann::json::parse($json$);\n",
                {{"wire", f.wire_name}, {"json", raw_literal(*f.const_json)}});
      } else if (f.required) {
        p.print("j[\"$wire$\"] = value.$name$;\n", vars);
      } else {
        p.print("rpckit::codec::encode_optional(j, \"$wire$\", value.$name$);\n", vars);
      }
    }
    if (stores_nothing) p.print("(void)value;\n");
  }
  p.print(
      "}\n"
      "\n"
      "void decode(const nlohmann::json& j, $name$& value, rpckit::codec::DecodePath& path) {\n"
      "  rpckit::codec::expect_object(j, path);\n",
      {{"name", d.name}});
  {
    Printer::Indent in(p);
    if (stores_nothing) p.print("(void)value;\n");
    for (const ir::Field& f : fields) {
      Printer::Vars vars = {{"wire", f.wire_name}, {"name", f.cpp_name}};
      if (f.const_json) {
        p.print(
            "{\n"
            "  static const nlohmann::json expected = nlohmann::json::parse($json$);\n"
            "  rpckit::codec::decode_const(j, \"$wire$\", expected, $required$, path);\n"
            "}\n",
            {{"json", raw_literal(*f.const_json)},
             {"wire", f.wire_name},
             {"required", f.required ? "true" : "false"}});
        continue;
      }
      if (!has_checks(f.type)) {
        p.print(f.required ? "rpckit::codec::decode_required(j, \"$wire$\", value.$name$, path);\n"
                           : "rpckit::codec::decode_optional(j, \"$wire$\", value.$name$, path);\n",
                vars);
        continue;
      }
      // Constraints are checked on a decoded value only (a collecting path goes on after a
      // member that failed).
      p.print(f.required
                  ? "if (rpckit::codec::decode_required(j, \"$wire$\", value.$name$, path)) {\n"
                  : "rpckit::codec::decode_optional(j, \"$wire$\", value.$name$, path);\n"
                    "if (value.$name$.has_value()) {\n",
              vars);
      {
        Printer::Indent in2(p);
        p.print("rpckit::codec::DecodePath::Key scope(path, \"$wire$\");\n", vars);
        emit_checks(p, patterns, f.type,
                    f.required ? "value." + f.cpp_name : "(*value." + f.cpp_name + ")", 0);
      }
      p.print("}\n");
    }
  }
  p.print("}\n");
}

// Accessors of defaults without a plain C++ expression ({} for an object, any JSON): the
// schema's default is decoded once, by the same decoder as the wire.
void define_default_accessors(Printer& p, const ir::TypeDecl& d) {
  for (const ir::Field& f : d.struct_.fields) {
    if (!f.default_json || f.default_cpp) continue;
    p.print(
        "\n"
        "$type$ $owner$::$accessor$() const {\n"
        "  if ($name$.has_value()) return *$name$;\n"
        "  static const $type$ fallback = [] {\n"
        "    using rpckit::codec::decode;\n"
        "    $type$ v{};\n"
        "    rpckit::codec::DecodePath path(\"default\");\n"
        "    decode(nlohmann::json::parse($json$), v, path);\n"
        "    return v;\n"
        "  }();\n"
        "  return fallback;\n"
        "}\n",
        {{"type", cpp_type(f.type)},
         {"owner", d.name},
         {"accessor", f.default_accessor},
         {"name", f.cpp_name},
         {"json", raw_literal(*f.default_json)}});
  }
}

}  // namespace rpckit::gen
