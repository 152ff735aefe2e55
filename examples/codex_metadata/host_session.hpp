#pragma once
// The sample host's scripted session on a running plugin: every metadata method through the
// generated client, a ping, and the host policy of spec 2-4 (the capability gate, the match
// fallback, retry delays, failure accounting). Failures go to `failures`.
#include <chrono>
#include <string>

#include "codex_metadata_v1/roles.hpp"
#include "host_policy.hpp"
#include "transcript.hpp"

namespace codex_host {

struct Script {
  std::string query = "blue harbor";  // must find at least one series
  std::string title = "Blue Harbor";  // for metadata/match
  std::chrono::milliseconds request_timeout{codex::kRequestTimeoutMs};
};

// How the session ended: `lost` when the connection went away under it (the lifecycle
// names why: a crash, an oversized line, ...).
struct SessionEnd {
  bool lost = false;
  std::string detail;
};

SessionEnd run_session(const codex::PluginClient& plugin, const codex::PluginManifest& manifest,
                       const Script& script, rpckit_examples::Transcript& transcript,
                       Failures& failures);

}  // namespace codex_host
