#pragma once
// The core's checks of core line plugins v1 on the two lines it reads, in the spec's order
// (3.3 steps 5 and 8, and the capability rules of section 6): the first failing check names
// the outcome. invoke() runs them; they are public for a core that moves the lines itself.
//
// They read a line's object the way the upstream core decodes it: a missing or null member
// is its zero value, and a known member of the wrong JSON type makes the line
// malformed_response before any check runs. So a handshake reply without `manifest` is a
// protocol_version_mismatch, as the spec says.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rpckit/core_line/host.hpp"

namespace rpckit::core_line {

struct HandshakeExpectation {
  std::string protocol_version{};  // as sent
  std::string plugin_name{};       // the bound name
  std::string tool_name{};         // the tool to be run
  std::vector<std::string> allow_list{};
  bool probe = false;  // Binding::probe: empty name, tool or allow-list taken from the manifest
};

// Step 5 on the handshake reply (a JSON object): nullopt and *manifest when every check passes.
std::optional<Failure> check_handshake(const nlohmann::json& reply, const HandshakeExpectation& expect,
                                       clv1::Manifest* manifest);

// Step 8 on the response (a JSON object) to `request` (the request as sent): nullopt and
// *response when every check passes.
std::optional<Failure> check_response(const nlohmann::json& reply, const nlohmann::json& request,
                                      clv1::ExecuteResponse* response);

}  // namespace rpckit::core_line
