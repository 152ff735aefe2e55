#pragma once
// Emit layer: pure functions IR -> file text, one emitter per artifact.
#include <string>
#include <vector>

#include "ir/ir.hpp"

namespace rpckit::gen {

struct OutputFile {
  std::string path;  // relative to the output directory: "<module>/types.hpp"
  std::string content;
};

std::string emit_types_header(const ir::Module& m);
std::string emit_types_source(const ir::Module& m);
std::string emit_constants_header(const ir::Module& m);
std::string emit_messages_header(const ir::Module& m);
std::string emit_dispatch_header(const ir::Module& m);
std::string emit_roles_header(const ir::Module& m);
std::string emit_profile_header(const ir::Module& m);  // m.profile must be set
std::string emit_exchange_header(const ir::Module& m);  // m.exchange must be set
std::string emit_errors_header(const ir::Module& m);    // m.error_code_type must be set
std::string emit_cmake(const ir::Module& m);

// Every artifact of the module, in path order.
std::vector<OutputFile> emit_all(const ir::Module& m);

}  // namespace rpckit::gen
