#include "ir/ir.hpp"

#include <algorithm>
#include <stdexcept>

namespace rpckit::gen::ir {

const std::string& Module::role_enumerator(const std::string& role) const {
  auto it = std::find(roles.begin(), roles.end(), role);
  if (it == roles.end() || roles.size() != role_enumerators.size()) {
    throw std::logic_error("no enumerator for role \"" + role + "\"");
  }
  return role_enumerators[static_cast<std::size_t>(it - roles.begin())];
}

}  // namespace rpckit::gen::ir
