// codex-metadata-plugin: a Codex metadata plugin (protocol 1.0) over a small built-in catalog,
// written with nothing but the generated handler and the generic plugin role: NDJSON framing,
// integer and string ids, ping and the limits come from the generated Profile. Here: the
// provider (provider.cpp); the exit after answering shutdown is the profile's (stops_on).
//
//   codex-metadata-plugin [--no-match]   (--no-match: no metadata/match, the host falls back)
#include <cstdio>
#include <cstring>

#include "codex_metadata_v1/roles.hpp"
#include "provider.hpp"
#include "rpckit/roles/plugin_role.hpp"

int main(int argc, char** argv) {
  bool with_match = true;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--no-match") == 0) {
      with_match = false;
    } else {
      std::fprintf(stderr, "usage: codex-metadata-plugin [--no-match]\n");
      return 2;
    }
  }
  rpckit::roles::PluginRole<codex_sample::codex::Protocol> role;
  codex_sample::Session session;
  codex_sample::Provider provider(with_match);
  role.bind(provider, session);
  int code = role.run();
  std::fprintf(stderr, "codex-sample-catalog: exiting with code %d\n", code);
  return code;
}
