// constants.hpp: the protocol's constants as constexpr values.
#include "emit/common.hpp"
#include "emit/emit.hpp"
#include "emit/preamble.hpp"

namespace rpckit::gen {
namespace {

std::string constant_type(const ir::Constant& c) {
  switch (c.kind) {
    case ir::Constant::Kind::kInteger: return "std::int64_t";
    case ir::Constant::Kind::kNumber: return "double";
    case ir::Constant::Kind::kString: return "std::string_view";
    case ir::Constant::Kind::kBool: return "bool";
    case ir::Constant::Kind::kDurationMs: return "std::chrono::milliseconds";
  }
  return "";
}

std::string constant_value(const ir::Constant& c, const std::string& literal) {
  return c.kind == ir::Constant::Kind::kDurationMs ? "std::chrono::milliseconds{" + literal + "}"
                                                   : literal;
}

}  // namespace

std::string emit_constants_header(const ir::Module& m) {
  Printer p;
  open_file(p, m, {.standard = {"array", "chrono", "cstdint", "string_view"}});
  for (const ir::Constant& c : m.constants) {
    doc_comment(p, c.doc);
    if (!c.array) {
      p.print("inline constexpr $type$ $name$ = $value$;  // \"$wire$\"\n\n",
              {{"type", constant_type(c)},
               {"name", c.cpp_name},
               {"value", constant_value(c, c.values.front())},
               {"wire", c.wire_name}});
      continue;
    }
    std::string values;
    for (const std::string& v : c.values) {
      values += (values.empty() ? "" : ", ") + constant_value(c, v);
    }
    p.print("inline constexpr std::array<$type$, $n$> $name$ = {$values$};  // \"$wire$\"\n\n",
            {{"type", constant_type(c)},
             {"n", std::to_string(c.values.size())},
             {"name", c.cpp_name},
             {"values", values},
             {"wire", c.wire_name}});
  }
  return close_file(p, m);
}

}  // namespace rpckit::gen
