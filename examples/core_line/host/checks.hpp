#pragma once
// The core's checks of core line plugins v1, in the spec's order (section 3.3, steps 1, 5 and
// 8, and the capability rules of section 6): the first failing check decides the taxonomy
// code. They read the line as JSON the way the upstream core decodes it (a missing member is
// its zero value, a known member of the wrong JSON type is malformed_response), so a reply
// without `manifest` is a protocol_version_mismatch, as the spec says; a message that passes
// is then decoded into its generated type. The discriminator and correlation tests are the
// generated Exchange's (rpckit::roles::has_tag, correlates).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core_line_v1/types.hpp"

namespace core_line_sample {

struct Failure {
  core_line::v1::FailureCode code;
  std::string detail;
};

// Step 1, before anything is spawned: the "invalid plugin specification" error, or nullopt.
std::optional<std::string> invalid_specification(const std::string& plugin_name,
                                                 const std::string& command,
                                                 const std::string& tool_name,
                                                 const std::vector<std::string>& allow_list);

struct HandshakeExpectation {
  std::string protocol_version;  // as sent
  std::string plugin_name;       // the bound name
  std::string tool_name;
  std::vector<std::string> allow_list;
};

// Step 5 on the handshake reply (a JSON object): the manifest when every check passes.
std::optional<Failure> check_handshake(const nlohmann::json& reply, const HandshakeExpectation& expect,
                                       core_line::v1::Manifest* manifest);

// Step 8 on the response (a JSON object) to `request` (as sent): the decoded response when
// every check passes.
std::optional<Failure> check_response(const nlohmann::json& reply, const nlohmann::json& request,
                                      core_line::v1::ExecuteResponse* response);

}  // namespace core_line_sample
