// spell-host: spawns the spell plugin, checks two texts and prints what comes back.
//   spell-host <plugin executable> [<transcript.jsonl>]
#include <cstdio>
#include <string>

#include "rpckit/roles/spawned_plugin.hpp"
#include "spell/errors.hpp"
#include "spell/roles.hpp"

namespace {

struct Session {};

// What the plugin may send the host.
class Host : public spell::HostHandler<Session> {
 public:
  void progress(Session&, const spell::ProgressParams& p) override {
    std::printf("progress: %lld/%lld\n", static_cast<long long>(p.done),
                static_cast<long long>(p.total));
  }
  spell::GetUserDictionaryResult get_user_dictionary(
      Session&, const spell::GetUserDictionaryParams&) override {
    return {.words = {"rpckit"}};
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: spell-host <plugin executable> [<transcript.jsonl>]\n");
    return 2;
  }
  rpckit::roles::Transcript transcript({.readable = nullptr});  // every frame, as JSON lines
  std::string error;
  if (argc > 2 && !transcript.open_jsonl(argv[2], &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 2;
  }
  Host host;
  Session session;
  rpckit::roles::SpawnedPlugin<spell::Protocol> plugin({
      .id = "spell",
      .command = {argv[1]},
      .handshake_params = [] {
        return spell::InitializeParams{.protocol_version = spell::kProtocolVersion};
      },
      .transcript = &transcript,
  });
  plugin.bind(host, session);
  if (!plugin.start()) {  // spawn, handshake: true once the plugin runs
    std::printf("not running: %s\n", plugin.stop_reason()->detail.c_str());
    return 1;
  }
  std::printf("plugin: %s\n", plugin.handshake_result()->name.c_str());

  auto checked = plugin.client().check({.text = "teh quick brwon fox jumps over rpckit"});
  if (!checked) {
    std::printf("check failed: %s\n", checked.error().describe().c_str());
    return 1;
  }
  for (const std::string& word : checked->misspelled) std::printf("misspelled: %s\n", word.c_str());

  auto refused = plugin.client().check({.text = std::string(5000, 'a')});
  if (refused || spell::error_code(refused.error()) != spell::ErrorCode::kTextTooLong) {
    std::printf("a text too long was not refused with text_too_long\n");
    return 1;
  }
  std::printf("refused: %s\n", refused.error().describe().c_str());

  plugin.stop();  // the profile's stop: close stdin, wait for the exit, kill if it does not
  return 0;
}
