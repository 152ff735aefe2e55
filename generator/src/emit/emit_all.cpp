#include "emit/emit.hpp"

namespace rpckit::gen {

std::vector<OutputFile> emit_all(const ir::Module& m) {
  std::vector<OutputFile> files = {
      {m.name + "/CMakeLists.txt", emit_cmake(m)},
      {m.name + "/constants.hpp", emit_constants_header(m)},
      {m.name + "/dispatch.hpp", emit_dispatch_header(m)},
      {m.name + "/messages.hpp", emit_messages_header(m)},
      {m.name + "/roles.hpp", emit_roles_header(m)},
      {m.name + "/types.cpp", emit_types_source(m)},
      {m.name + "/types.hpp", emit_types_header(m)},
  };
  // Sorted by name, as the files above.
  if (m.profile) {
    files.insert(files.begin() + 4, {m.name + "/profile.hpp", emit_profile_header(m)});
  }
  if (m.exchange) {
    files.insert(files.begin() + 3, {m.name + "/exchange.hpp", emit_exchange_header(m)});
  }
  if (m.error_code_type) {
    files.insert(files.begin() + 3, {m.name + "/errors.hpp", emit_errors_header(m)});
  }
  return files;
}

}  // namespace rpckit::gen
