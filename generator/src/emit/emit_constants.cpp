// constants.hpp: the protocol's constants as constexpr values.
#include "emit/common.hpp"
#include "emit/declarations.hpp"
#include "emit/emit.hpp"
#include "emit/preamble.hpp"

namespace rpckit::gen {

std::string emit_constants_header(const ir::Module& m) {
  Printer p;
  open_file(p, m, {.standard = {"array", "chrono", "cstdint", "string_view"}});
  for (const ir::Constant& c : m.constants) {
    doc_comment(p, c.doc);
    p.print("$declaration$;  // \"$wire$\"\n\n",
            {{"declaration", constant_declaration(c)}, {"wire", c.wire_name}});
  }

  return close_file(p, m);
}

}  // namespace rpckit::gen
