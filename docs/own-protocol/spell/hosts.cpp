// spell-hosts: several spell plugins at once: starts them, teaches every one a word with one
// event, checks a text with each and stops them all.
//   spell-hosts <plugin executable> <how many>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "rpckit/roles/plugin_registry.hpp"
#include "rpckit/roles/spawned_plugin.hpp"
#include "spell/roles.hpp"

namespace {

struct Session {};

class Host : public spell::HostHandler<Session> {};  // the defaults: no dictionary, quiet

using Plugin = rpckit::roles::SpawnedPlugin<spell::Protocol>;

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: spell-hosts <plugin executable> <how many>\n");
    return 2;
  }
  Host host;
  Session session;
  auto handshake = [] {
    return spell::InitializeParams{.protocol_version = spell::kProtocolVersion};
  };
  rpckit::roles::PluginRegistry<Plugin> plugins;
  for (int i = 1; i <= std::stoi(argv[2]); ++i) {
    const std::string id = "spell-" + std::to_string(i);
    Plugin::Options options{.id = id, .command = {argv[1]}, .handshake_params = handshake};
    plugins.add(id, std::make_unique<Plugin>(std::move(options)));
  }
  bool all_running = true;
  plugins.each([&](const std::string& id, Plugin& plugin) {
    plugin.bind(host, session);
    if (!plugin.start()) {  // spawn, handshake: true once it runs
      std::printf("%s: not running: %s\n", id.c_str(), plugin.stop_reason()->detail.c_str());
      all_running = false;
    }
  });

  // One event for every plugin; each is written before the check that follows it.
  plugins.each([&](const std::string&, Plugin& plugin) {
    plugin.client().words_learned({.words = {"brwon"}});
  });

  plugins.each([&](const std::string& id, Plugin& plugin) {
    auto checked = plugin.client().check({.text = "teh quick brwon fox"});
    if (!checked) {
      std::printf("%s: check failed: %s\n", id.c_str(), checked.error().describe().c_str());
      all_running = false;
      return;
    }
    for (const std::string& word : checked->misspelled) {
      std::printf("%s: misspelled: %s\n", id.c_str(), word.c_str());
    }
  });
  plugins.stop_all();  // every plugin's stop sequence at once
  return all_running ? 0 : 1;
}
