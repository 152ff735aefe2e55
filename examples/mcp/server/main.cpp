// mcp-sample-server: a Model Context Protocol (2025-11-25) server over stdio, written with the
// generated handler interface (mcp_2025_11_25/roles.hpp) and the generic plugin role, which
// serves stdin/stdout as MCP's profile says (one JSON-RPC message per line, integer or string
// ids, the end of stdin as the way to stop). stderr carries its log; stdout carries frames only.
//
//   mcp-sample-server [--no-tasks]
//
// --no-tasks: declare no tasks capability (a task-augmented call is then served plainly).
#include <cstdio>
#include <exception>
#include <string_view>

#include "rpckit/roles/plugin_role.hpp"
#include "sample_server.hpp"

int main(int argc, char** argv) {
  bool offer_tasks = true;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--no-tasks") {
      offer_tasks = false;
    } else {
      std::fprintf(stderr, "usage: mcp-sample-server [--no-tasks]\n");
      return 2;
    }
  }
  try {
    rpckit::roles::PluginRole<mcp_sample::mcp::Protocol> role;
    mcp_sample::SampleServer server(role.client(), offer_tasks);
    mcp_sample::Peer peer;
    role.bind(server, peer);
    return role.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mcp-sample-server: fatal: %s\n", e.what());
    return 1;
  }
}
