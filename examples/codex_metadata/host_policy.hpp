#pragma once
// What the spec puts on the host's side beyond the generic host role: which commands may be
// spawned (spec 1), how credentials are delivered (2.2), which manifests are accepted (5, 7,
// 8.5, 8.14), how errors are read (3) and the names of the ways a session can fail.
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "codex_metadata_v1/constants.hpp"
#include "codex_metadata_v1/types.hpp"
#include "rpckit/endpoint/rpc_error.hpp"

namespace codex_host {

namespace codex = ::codex_metadata::v1;

// Spec 1 (host policy): node, npx, python, python3, uv, uvx, names added through
// CODEX_PLUGIN_ALLOWED_COMMANDS, or an absolute path (under `plugin_dir` when one is set).
// Returns the executable to spawn (a name resolved on PATH), or nullopt with *why.
std::optional<std::filesystem::path> allowed_command(const std::string& command,
                                                     const std::optional<std::string>& plugin_dir,
                                                     std::string* why);

// Spec 2.2: the variables to export (each string credential, its key upper-cased) and the
// credentials member of initialize's params, for one delivery mode.
struct CredentialPlan {
  std::map<std::string, std::string> environment;
  std::optional<std::map<std::string, std::string>> in_message;
};
CredentialPlan plan_credentials(const codex::CredentialDelivery& mode,
                                const std::map<std::string, std::string>& credentials);

// Spec 5, 7, 8.5, 8.14: why a decoded manifest is refused (empty: accepted), and whether
// the refusal is the protocol version's.
struct ManifestVerdict {
  std::string problem;
  bool version_mismatch = false;
};
ManifestVerdict judge_manifest(const codex::PluginManifest& manifest);

// The spec's name of an error code (-32002 -> "not_found"), "plugin_error" for others.
std::string error_name(int code);
// Spec 3: -32001's retry delay: data.retryAfterSeconds, or 60 when absent or invalid.
std::int64_t retry_after_seconds(const rpckit::RpcError& error);
// A result the generated decoder refused arrives as a local -32603 "...: invalid result: ...".
bool is_invalid_result(const rpckit::CallError& error);

// The failure classes this host names, in the spec's words; the first one recorded is the
// session's verdict. Thread-safe.
class Failures {
 public:
  void add(const std::string& failure_class, const std::string& detail);
  bool any() const;
  bool has(const std::string& failure_class) const;
  // "failure: <class>: <detail>" lines for stderr, first one first.
  std::vector<std::string> lines() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::pair<std::string, std::string>> failures_;
};

}  // namespace codex_host
