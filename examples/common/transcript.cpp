#include "transcript.hpp"

#include <cerrno>
#include <cstdio>
#include <map>
#include <utility>

namespace rpckit_examples {
namespace {

// `rpckit trace` on this host's transcript: the protocol is the one of the program running
// (each sample host speaks one; a renamed host gets a placeholder to fill in).
std::string inspect_command(const std::string& jsonl) {
  static const std::map<std::string, std::string> kSchemas = {
      {"streamnook-demo-host", "schema/protocol.json"},
      {"desktop-host", "schema/desktop/protocol.json"},
      {"codex-metadata-host", "schema/codex_metadata/protocol.json"},
      {"loaf-client", "schema/loaf/protocol.json"},
      {"core-line-host", "schema/core_line/protocol.json"}};
  auto quoted = [](const std::string& s) {
    return s.find_first_of(" '\"$`\\") == std::string::npos ? s : "'" + s + "'";
  };
  const auto schema = kSchemas.find(program_invocation_short_name);
  return quoted(RPCKIT_TOOL) + " trace --schema " +
         (schema == kSchemas.end() ? std::string("<protocol.json>")
                                   : quoted(std::string(RPCKIT_SOURCE_DIR) + "/" + schema->second)) +
         " " + quoted(jsonl);
}

}  // namespace

Transcript::Transcript(bool verbose_frames, std::string local_role, std::string peer_role,
                       std::FILE* readable)
    : rpckit::roles::Transcript(Options{std::move(local_role), std::move(peer_role), readable,
                                        verbose_frames}) {}

Transcript::~Transcript() {
  if (jsonl_path().empty()) return;
  // On stderr when stdout carries data (plain mode).
  std::FILE* out = readable() != nullptr ? readable() : stdout;
  std::fprintf(out, "inspect: %s\n", inspect_command(jsonl_path()).c_str());
  std::fflush(out);
}

}  // namespace rpckit_examples
