#pragma once
// RPCKIT_VALIDATE (rpckit/validate/frame_watch.hpp) for the generic roles: a watch over one
// connection, or nullptr when the variable is unset.
#include <memory>

#include "rpckit/validate/frame_watch.hpp"

namespace rpckit::roles {

// `spawned_side`: this process is the spawned role (a plugin), else the one that spawns.
inline std::shared_ptr<validate::FrameWatch> debug_watch(bool spawned_side,
                                                         validate::FrameWatch::Report report) {
  auto validator = validate::validator_from_environment();
  if (!validator) return nullptr;
  const auto& protocol = validator->protocol();
  return std::make_shared<validate::FrameWatch>(
      validator, spawned_side ? protocol.spawned_role() : protocol.spawner_role(),
      std::move(report));
}

}  // namespace rpckit::roles
