// loaf-server: the sample loaf RPC v1 server (`loaf-server [rpc]`), written with the generated
// handler interface and the generic plugin session (rpckit::roles::PluginSession), which does
// the wire as loaf's profile says, plus the server's own policy (session_policy.hpp). No
// network: a scripted fake model streams canned replies. It stops on stdin EOF, and on
// SIGINT/SIGTERM after a state.changed event; system.shutdown makes it ignore further input
// until stdin closes. Exit status 0.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "loaf_server.hpp"
#include "loaf_v1/constants.hpp"
#include "rpckit/roles/caller.hpp"
#include "runtime_gaps.hpp"
#include "session_policy.hpp"

namespace v1 = loaf::v1;

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (argv[i] != v1::kSpawnArgument) {
      std::fprintf(stderr, "[loaf] fatal: unknown argument %s (usage: loaf-server [rpc])\n",
                   argv[i]);
      return 1;
    }
  }
  try {
    loaf_server::StdioServe stdio;  // runtime_gaps.hpp: until the runtime does all of it
    rpckit::Router<v1::ClientToServer> router;
    rpckit::roles::Caller caller;
    v1::ClientClient client(caller);
    loaf_server::LoafServer server(client, [&stdio] { stdio.ignore_input(); });
    loaf_server::Peer peer;
    bind(router, server, peer);
    rpckit::roles::PluginSession session(loaf_server::plugin_settings(),
                                         loaf_server::loaf_route(router), caller);
    int code = stdio.serve(session, [&server](const std::string& reason) {
      server.on_signal(reason);
    });
    server.end_sessions();
    std::fflush(stdout);
    std::_Exit(code);  // the signal thread may still wait on objects of this scope
  } catch (const std::exception& e) {
    std::fprintf(stderr, "[loaf] fatal: %s\n", e.what());
    return 1;
  }
}
