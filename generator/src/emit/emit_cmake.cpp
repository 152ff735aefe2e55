// CMakeLists.txt of the generated module: the types library, and an interface target for the
// role surfaces (roles.hpp), which also need the endpoint.
#include "emit/common.hpp"
#include "emit/emit.hpp"

namespace rpckit::gen {

std::string emit_cmake(const ir::Module& m) {
  Printer p;
  p.raw(banner(m, "#"));
  p.print(
      "add_library($module$ types.cpp)\n"
      "add_library(rpckit::$module$ ALIAS $module$)\n"
      "target_include_directories($module$ PUBLIC\n"
      "  $$<BUILD_INTERFACE:$${CMAKE_CURRENT_SOURCE_DIR}/..>)\n"
      "target_link_libraries($module$ PUBLIC\n"
      "  rpckit::values rpckit::codec rpckit::descriptors rpckit::framing)\n"
      "# roles.hpp (handlers, clients, bind) also needs the endpoint and the router.\n"
      "add_library($module$_roles INTERFACE)\n"
      "add_library(rpckit::$module$_roles ALIAS $module$_roles)\n"
      "target_link_libraries($module$_roles INTERFACE $module$ rpckit::roles)\n"
      "if(COMMAND rpckit_warnings)\n"
      "  rpckit_warnings($module$)\n"
      "endif()\n",
      {{"module", m.name}});
  return p.str();
}

}  // namespace rpckit::gen
