// loaf-server: the sample loaf RPC v1 server (`loaf-server [rpc]`), written with the generated
// handler interface and the generic plugin session (rpckit::roles::PluginSession), which does
// the wire and the ways to stop as loaf's profile says (stdin EOF, SIGINT/SIGTERM), plus the
// server's own policy (session_policy.hpp). No network: a scripted fake model streams canned
// replies. Exit status 0.
#include <signal.h>

#include <cstdio>
#include <exception>
#include <string>

#include "loaf_server.hpp"
#include "loaf_v1/constants.hpp"
#include "rpckit/roles/caller.hpp"
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
    rpckit::Router<v1::ClientToServer> router;
    rpckit::roles::Caller caller;
    v1::ClientClient client(caller);
    loaf_server::LoafServer server(client);
    loaf_server::Peer peer;
    bind(router, server, peer);
    rpckit::roles::PluginSession session(loaf_server::plugin_settings(),
                                         loaf_server::loaf_route(router), caller);
    // Section 2: state.changed with reason "sigint" or "sigterm".
    session.on_signal(
        [&server](int signal) { server.on_signal(signal == SIGINT ? "sigint" : "sigterm"); });
    int code = session.run();
    server.end_sessions();
    std::fflush(stdout);
    return code;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "[loaf] fatal: %s\n", e.what());
    return 1;
  }
}
