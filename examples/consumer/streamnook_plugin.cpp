// consumer-streamnook-plugin: a StreamNook plugin built on the installed bindings and plugin
// role, as a plugin author outside this repository writes one (README "Writing a plugin").
#include "rpckit/streamnook/plugin.hpp"

namespace sn = streamnook::v1;

int main() {
  rpckit::streamnook::Plugin plugin("1.0.0");
  plugin.on<sn::messages::OnFollowedLive>([&](const sn::OnFollowedLiveParams& p) {
    for (const sn::Channel& c : p.channels) plugin.log().info(c.display_name + " is live");
  });
  plugin.on_start([](rpckit::streamnook::HostApi& host) {
    if (auto live = host.get_followed_live(); live.ok()) { /* rebuild state */ }
  });
  return plugin.run();  // answers initialize/ping/shutdown/exit; exit code 0 on exit or EOF
}
