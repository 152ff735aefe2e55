// mcp-sample-server: a Model Context Protocol (2025-11-25) server over stdio, written with the
// generated handler interface (mcp_2025_11_25/roles.hpp) and the generic plugin role, which
// serves stdin/stdout as MCP's profile says (one JSON-RPC message per line, integer or string
// ids, the end of stdin as the way to stop). stderr carries its log; stdout carries frames only.
#include <cstdio>
#include <exception>

#include "rpckit/roles/plugin_role.hpp"
#include "sample_server.hpp"

int main() {
  try {
    rpckit::roles::PluginRole<mcp_sample::mcp::Protocol> role;
    mcp_sample::SampleServer server(role.client());
    mcp_sample::Peer peer;
    role.bind(server, peer);
    return role.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mcp-sample-server: fatal: %s\n", e.what());
    return 1;
  }
}
