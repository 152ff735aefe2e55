#pragma once
// How a Codex host starts a metadata plugin (../shared/spec/codex-metadata-plugins-v1.md):
// which commands it may spawn (section 1) and how the plugin's credentials reach it (section
// 2.2, decision 8.13). Host policy, not wire protocol.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "codex_metadata_v1/types.hpp"

namespace rpckit::codex_metadata {

namespace cm = ::codex_metadata::v1;

// Section 1: `node`, `npx`, `python`, `python3`, `uv`, `uvx`, a name listed in
// `allowed_extra` (comma-separated; the host's CODEX_PLUGIN_ALLOWED_COMMANDS), or an absolute
// path (under `plugin_dir` when one is set; upstream's is /opt/codex/plugins/). Returns the
// executable to spawn (an allowed name resolved on PATH), or nullopt with *why.
std::optional<std::filesystem::path> allowed_command(
    const std::string& command, const std::optional<std::filesystem::path>& plugin_dir,
    const std::string& allowed_extra, std::string* why);
// The same with CODEX_PLUGIN_ALLOWED_COMMANDS read from our environment.
std::optional<std::filesystem::path> allowed_command(
    const std::string& command, const std::optional<std::filesystem::path>& plugin_dir,
    std::string* why);

// Section 2.2: the variables to export (each credential, its key upper-cased: api_key ->
// API_KEY) and the `credentials` member of initialize's params, for one delivery mode.
struct CredentialPlan {
  std::map<std::string, std::string> environment;
  std::optional<std::map<std::string, std::string>> in_message;
};
CredentialPlan plan_credentials(const cm::CredentialDelivery& mode,
                                const std::map<std::string, std::string>& credentials);

// Decision 8.13: the plugin's whole environment ("KEY=VALUE"): `inherited` (ours, as environ
// lists it) with `variables` (admin and credential variables) overriding the same names.
std::vector<std::string> plugin_environment(const char* const* inherited,
                                            const std::map<std::string, std::string>& variables);

}  // namespace rpckit::codex_metadata
