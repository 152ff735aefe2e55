// CMakeLists.txt of the generated module: one library target per protocol.
#include "emit/common.hpp"
#include "emit/emit.hpp"

namespace rpckit::gen {

std::string emit_cmake(const ir::Module& m) {
  Printer p;
  p.raw(banner(m, "#"));
  p.print(
      "add_library($module$ types.cpp)\n"
      "add_library(rpckit::$module$ ALIAS $module$)\n"
      "target_include_directories($module$ PUBLIC $${CMAKE_CURRENT_SOURCE_DIR}/..)\n"
      "target_link_libraries($module$ PUBLIC rpckit::codec)\n"
      "if(COMMAND rpckit_warnings)\n"
      "  rpckit_warnings($module$)\n"
      "endif()\n",
      {{"module", m.name}});
  return p.str();
}

}  // namespace rpckit::gen
