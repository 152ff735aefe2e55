// desktop-plugin: the sample plugin of desktop-plugins v1 (/work/shared/spec), built from the
// generated bindings (desktop_v1/roles.hpp) and the generic plugin session. The session
// answers JSON-RPC errors, the health check routing, shutdown and stdin EOF; this program adds
// its handlers and one piece of this protocol's policy the generic role lacks: plugin-defined
// methods (plugin_methods.hpp). Logs go to stderr; stdout carries frames only.
#include <cstdio>

#include "desktop_v1/roles.hpp"
#include "plugin_methods.hpp"
#include "rpckit/roles/plugin_role.hpp"
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

  session.on_shutdown([&] {
    std::fprintf(stderr, "desktop-plugin: shutdown after %d requests\n",
                 state.requests_served.load());
  });
  // The profile's stops_on "shutdown": run() ends once the shutdown answer is written.
  return session.run();
}
