#pragma once
// The profile's version check of a handshake answer ("version", rpckit::VersionCheck): the
// spawner leaves a session in a protocol version it does not speak. host_lifecycle applies it
// before the application's own verdict.
#include <nlohmann/json_fwd.hpp>
#include <optional>

#include "rpckit/descriptors/profile.hpp"
#include "rpckit/roles/plugin_process.hpp"

namespace rpckit::roles {

// A refusal for good when `answer` (the handshake's result, as JSON) says a version `check`
// does not accept, or says none; nullopt when it is one this side speaks, or when the check
// has no member.
std::optional<HandshakeOutcome> check_version(const VersionCheck& check,
                                              const nlohmann::json& answer);

}  // namespace rpckit::roles
