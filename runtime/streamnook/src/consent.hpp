#pragma once
// ConsentBook: one plugin's consent to receive each credential kind (spec 5: get_credential
// may wait up to 120 s on the first call per kind while the user answers a consent prompt; a
// prompt that times out counts as a refusal). The user's answers are remembered per kind;
// calls that arrive while a prompt is open wait on that same prompt. Thread-safe: answers come
// from whatever thread the application's user interface runs on.
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "rpckit/endpoint/reply.hpp"
#include "rpckit/streamnook/errors.hpp"  // namespace sn
#include "streamnook_v1/types.hpp"

namespace rpckit::streamnook {

class ConsentBook {
 public:
  // A get_credential call waiting on a prompt.
  struct Waiting {
    Reply reply;
    sn::GetCredentialParams params;
  };
  // Answers a waiting call once consent is given (the application's get_credential).
  using Serve = std::function<void(Waiting&)>;

  enum class Decision { kGranted, kDenied, kAsk };
  struct Admission {
    Decision decision = Decision::kAsk;
    std::uint64_t prompt = 0;  // kAsk: the prompt the call waits on
    bool opened = false;       // kAsk: this call opened it (ask the user, arm the timeout)
  };

  explicit ConsentBook(Serve serve);

  // A call for `params.kind`: decided already, or parked (`defer` makes its Reply) on the
  // open prompt, opening one if there is none.
  Admission admit(const sn::GetCredentialParams& params, const std::function<Reply()>& defer);
  // The user's answer to `prompt`: remembered for the kind; the calls waiting on it are
  // served or refused.
  void answer(const std::string& kind, std::uint64_t prompt, bool granted);
  // The prompt's time is up: if it is still open, its calls are refused (nothing remembered:
  // the user was not there to say no).
  void expire(const std::string& kind, std::uint64_t prompt);
  // The grant revoked: later calls are refused until the user consents again.
  void revoke(const std::string& kind);
  // The plugin is going away: waiting calls are dropped, late answers change nothing.
  void close();

 private:
  struct Prompt {
    std::uint64_t id = 0;
    std::vector<Waiting> waiting;
  };
  void refuse(std::vector<Waiting>& waiting, const std::string& why);

  std::mutex mutex_;
  Serve serve_;
  bool closed_ = false;
  std::uint64_t last_prompt_ = 0;
  std::map<std::string, bool> decided_;
  std::map<std::string, Prompt> open_;
};

}  // namespace rpckit::streamnook
