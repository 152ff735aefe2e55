// desktop-plugin: the sample plugin of desktop-plugins v1 (/work/shared/spec), built from the
// generated bindings (desktop_v1/roles.hpp) and the generic plugin session. The session
// answers JSON-RPC errors, the health check routing, shutdown and stdin EOF; this program adds
// its handlers and two pieces of this protocol's policy the generic role lacks:
// plugin-defined methods (plugin_methods.hpp) and exiting after the shutdown answer
// (exit_after_shutdown.hpp). Logs go to stderr; stdout carries frames only.
#include <unistd.h>

#include <cstdio>

#include "desktop_v1/roles.hpp"
#include "exit_after_shutdown.hpp"
#include "plugin_methods.hpp"
#include "rpckit/framing/fd_io.hpp"
#include "rpckit/roles/plugin_role.hpp"
#include "rpckit/roles/stdout_guard.hpp"
#include "sample_plugin.hpp"

namespace dv1 = desktop::v1;

int main() {
  using Profile = dv1::Protocol::Profile;
  rpckit::Router<dv1::HostToPlugin> router;
  rpckit::roles::Caller caller;
  dv1::HostClient host(caller);
  desktop_sample::PluginState state;
  desktop_sample::SamplePlugin plugin(host);
  dv1::bind(router, plugin, state);

  desktop_sample::PluginMethods methods;
  // PluginRole's session, with the route extended by the plugin-defined methods.
  rpckit::roles::PluginSession session(rpckit::roles::detail::plugin_settings<Profile>(),
                                       methods.route(router), caller);
  methods.add(desktop_sample::kWordCountMethod, [&](const nlohmann::json* params) {
    return plugin.word_count(state, params, session.handshaken());
  });

  rpckit::roles::StdoutGuard guard;
  desktop_sample::EndableSource source(STDIN_FILENO);
  rpckit::framing::FdSink sink(guard.protocol_fd());
  auto writer = std::make_unique<desktop_sample::ShutdownAnswerWatch>(
      rpckit::framing::make_writer(Profile::kFraming, sink, Profile::kMaxFrameBytes),
      [&source] { source.end(); });
  desktop_sample::ShutdownAnswerWatch& watch = *writer;
  session.on_shutdown([&] {
    std::fprintf(stderr, "desktop-plugin: shutdown after %d requests\n",
                 state.requests_served.load());
    watch.arm();
  });

  rpckit::Endpoint::Options options;
  options.interrupt_reader = [&source] { source.interrupt(); };
  options.max_depth = Profile::kMaxJsonDepth;
  return session.serve(
      rpckit::framing::make_reader(Profile::kFraming, source, Profile::kMaxFrameBytes),
      std::move(writer), std::move(options));
}
