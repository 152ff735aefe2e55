// dispatch.hpp: per direction, the list of messages it carries; the lookup by method name is
// rpckit::Direction's (rpckit/descriptors/direction.hpp).
#include "emit/common.hpp"
#include "emit/emit.hpp"
#include "emit/preamble.hpp"

namespace rpckit::gen {

std::string emit_dispatch_header(const ir::Module& m) {
  Printer p;
  open_file(p, m, {.module = {"messages.hpp"}, .rpckit = {"descriptors/direction.hpp"}});
  for (const ir::Direction& direction : m.directions) {
    std::string types;
    for (const ir::Message& msg : m.messages) {
      if (msg.goes(direction.from, direction.to)) {
        types += (types.empty() ? "\n    messages::" : ",\n    messages::") + msg.cpp_name;
      }
    }
    p.print(
        "/// The messages $from$ sends to $to$: what a $to$ receives.\n"
        "struct $name$ : rpckit::Direction<Role, Role::$From$, Role::$To$, rpckit::MessageList<$types$>> {};\n"
        "\n",
        {{"name", direction.cpp_name},
         {"from", direction.from},
         {"to", direction.to},
         {"From", m.role_enumerator(direction.from)},
         {"To", m.role_enumerator(direction.to)},
         {"types", types}});
  }
  return close_file(p, m);
}

}  // namespace rpckit::gen
