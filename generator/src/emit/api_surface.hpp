#pragma once
// A module's C++ API as a list of facts: every symbol a consumer's code can name (the
// namespace, roles, constants, types with their fields, enumerators and alternatives, message
// descriptors with their members, dispatch directions, the handler and client of each role and
// their functions), each with the declaration the headers spell for it (declarations.hpp).
// `rpckit compat` compares two versions' facts: an additive change adds facts and changes none.
#include <string>
#include <vector>

#include "ir/ir.hpp"

namespace rpckit::gen {

struct ApiFact {
  std::string scope;     // "streamnook::v1::Channel"; "streamnook::v1::messages::Ping"
  std::string symbol;    // "login"; "kDeadline"
  std::string spelling;  // "std::string login"; "std::chrono::milliseconds kDeadline = ..."
};

// In declaration order: the module, then per kind as the headers declare them.
std::vector<ApiFact> api_surface(const ir::Module& module);

}  // namespace rpckit::gen
