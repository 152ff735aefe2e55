// spell-plugin: the spell protocol's plugin. The host spawns it and talks to it on
// stdin/stdout; it stops when its stdin ends.
#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rpckit/roles/plugin_role.hpp"
#include "spell/errors.hpp"
#include "spell/roles.hpp"

namespace {

struct Session {};  // what every handler gets along with its params (nothing, here)

class Checker : public spell::PluginHandler<Session> {
 public:
  explicit Checker(const spell::HostClient& host) : host_(host) {}

  spell::InitializeResult initialize(Session&, const spell::InitializeParams& p) override {
    if (p.protocol_version != spell::kProtocolVersion) {
      throw rpckit::RpcError(rpckit::jsonrpc_code::kInvalidRequest, "unsupported version");
    }
    return {.name = "tiny spell checker"};
  }

  spell::CheckResult check(Session&, const spell::CheckParams& p) override {
    if (static_cast<std::int64_t>(p.text.size()) > spell::kMaxTextBytes) {
      throw spell::make_error(spell::ErrorCode::kTextTooLong, "longer than max_text_bytes");
    }
    std::vector<std::string> words;
    std::istringstream in(p.text);
    for (std::string word; in >> word;) words.push_back(word);
    const auto total = static_cast<std::int64_t>(words.size());
    host_.progress({.done = 0, .total = total});

    // A call back to the host while it waits for this answer: its words count as known.
    std::set<std::string> known = learned_;
    known.insert({"the", "quick", "brown", "fox", "jumps", "over", "lazy"});
    auto user = host_.get_user_dictionary();
    if (user) known.insert(user->words.begin(), user->words.end());

    spell::CheckResult result;
    for (const std::string& word : words) {
      if (!known.contains(word)) result.misspelled.push_back(word);
    }
    host_.progress({.done = total, .total = total});
    return result;
  }

  // A notification: no answer. It arrives in order with the host's requests.
  void words_learned(Session&, const spell::WordsLearnedParams& p) override {
    learned_.insert(p.words.begin(), p.words.end());
  }

 private:
  const spell::HostClient& host_;
  std::set<std::string> learned_;
};

}  // namespace

int main() {
  rpckit::roles::PluginRole<spell::Protocol> role;
  Session session;
  Checker checker(role.client());
  role.bind(checker, session);
  return role.run();
}
