// loaf-server: the sample loaf RPC v1 server (`loaf-server [rpc]`), written with the generated
// handler interface and the generic plugin session (rpckit::roles::PluginSession) plus the
// server policy of server_wire.hpp. No network: a scripted fake model streams canned replies.
// It stops on stdin EOF, and on SIGINT/SIGTERM after a state.changed event; system.shutdown
// makes it ignore further input until stdin closes. Exit status 0.
#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <exception>
#include <string>
#include <thread>

#include "loaf_server.hpp"
#include "loaf_v1/constants.hpp"
#include "rpckit/roles/caller.hpp"
#include "server_wire.hpp"

namespace v1 = loaf::v1;

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (argv[i] != v1::kSpawnArgument) {
      std::fprintf(stderr, "[loaf] fatal: unknown argument %s (usage: loaf-server [rpc])\n",
                   argv[i]);
      return 1;
    }
  }
  // Signals go to one thread that waits for them (blocked everywhere else, threads inherit).
  sigset_t stops;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stops, nullptr);

  try {
    loaf_server::ServerWire wire;
    rpckit::Router<v1::ClientToServer> router;
    rpckit::roles::Caller caller;
    v1::ClientClient client(caller);
    loaf_server::LoafServer server(client, [&wire] { wire.ignore_input(); });
    loaf_server::Peer peer;
    bind(router, server, peer);
    rpckit::roles::PluginSession session(loaf_server::plugin_settings(),
                                         loaf_server::loaf_route(router), caller);
    std::thread([&stops, &server, &wire] {
      int signal = 0;
      if (sigwait(&stops, &signal) != 0) return;
      server.on_signal(signal == SIGINT ? "sigint" : "sigterm");
      wire.stop_reading();
    }).detach();
    int code = wire.serve(session);
    server.end_sessions();
    std::fflush(stdout);
    std::_Exit(code);  // the signal thread may still wait on objects of this scope
  } catch (const std::exception& e) {
    std::fprintf(stderr, "[loaf] fatal: %s\n", e.what());
    return 1;
  }
}
