#pragma once
// How a Codex host reads what a metadata plugin did, in the spec's words
// (../shared/spec/codex-metadata-plugins-v1.md): the manifest (sections 5, 7, decisions 8.5,
// 8.14), errors (section 3), why a plugin went down, and what the endpoint noticed.
// Each finding is a SessionOutcome::Failure: `kind` is the name ("output_cap",
// "oversized_line"), `detail` what happened and where the spec says so.
#include <cstdint>
#include <optional>
#include <string>

#include "codex_metadata_v1/roles.hpp"
#include "rpckit/endpoint/endpoint.hpp"
#include "rpckit/endpoint/typed.hpp"
#include "rpckit/roles/session_outcome.hpp"
#include "rpckit/roles/spawned_plugin.hpp"

namespace rpckit::codex_metadata {

namespace cm = ::codex_metadata::v1;
using Finding = roles::SessionOutcome::Failure;

// Sections 5, 7, decisions 8.5, 8.14, on a manifest the generated decoder accepted (which
// already required name, displayName, version, protocolVersion and capabilities): nullopt
// when accepted, else `invalid_manifest` or `protocol_version_mismatch` (major not 1).
std::optional<Finding> judge_manifest(const cm::PluginManifest& manifest);

// initialize's answer as a whole.
struct InitializeVerdict {
  enum class Kind {
    kAccepted,
    kRefused,   // answered with an error: a legal answer, an initialization failure (section 2)
    kInvalid,   // a manifest the host cannot take: `finding` says why
    kNoAnswer,  // timeout or exit: the supervisor names it
  };
  Kind kind = Kind::kAccepted;
  std::optional<Finding> finding;  // kRefused: initialize_failed; kInvalid: the manifest's
  bool version_mismatch = false;   // kInvalid because protocolVersion's major is not 1
};
InitializeVerdict judge_initialize(const Result<cm::PluginManifest>& answer);

// Section 3: the name of an error's code (-32002 -> "not_found"), "plugin_error" for others.
std::string error_name(const RpcError& error);
// Section 3: -32001's delay: data.retryAfterSeconds, or 60 when absent or not a
// non-negative integer.
std::int64_t retry_after_seconds(const RpcError& error);
// A result the generated decoder refused (CallError::Kind::kInvalidResult).
bool is_invalid_result(const CallError& error);

// Why the plugin went down, in the spec's words: launch_failed, initialize_failed,
// initialize_timeout, protocol_version_mismatch, process_lost, health_check_failed,
// malformed_line, oversized_line, output_cap, exit_timeout ("" for a requested stop).
std::string down_name(supervision::StopCause cause);
Finding describe_down(const roles::StopReason& reason);
// A violation in the spec's words for what the endpoint noticed about the plugin, or nullopt.
std::optional<Finding> violation_of(const Diagnostic& diagnostic);
// A requested stop that ended otherwise than with exit code 0 (decision 8.4): unclean_exit.
std::optional<Finding> stop_violation(const std::string& exit_detail);

}  // namespace rpckit::codex_metadata
