#pragma once
// loaf-client's scripted session: every method of the spec in an order that makes sense
// (state, onboarding, auth, models, limits, a session with streamed turns, steering, the
// queue, an interrupt, a failed turn, compaction, commands, history, skills, tools), each
// answer checked against the spec. A deviation throws Failure naming its class.
#include <chrono>
#include <stdexcept>
#include <string>

#include "event_log.hpp"
#include "rpckit/loaf/client.hpp"
#include "transcript.hpp"

namespace loaf_client {

// A way the session did not go as the spec says; `kind` is the failure class.
struct Failure : std::runtime_error {
  Failure(std::string kind_in, const std::string& what)
      : std::runtime_error(what), kind(std::move(kind_in)) {}
  std::string kind;
};

class SessionScript {
 public:
  // `timeout`: how long one call or one turn may take (clients pick their own, 8.9).
  SessionScript(rpckit::loaf::Client& client, EventLog& events,
                rpckit_examples::Transcript& transcript, std::chrono::milliseconds timeout)
      : client_(client), events_(events), out_(transcript), timeout_(timeout) {}

  void run();  // throws Failure

 private:
  template <class M>
  typename M::Result call(const typename M::Params& params);
  template <class M>
  rpckit::RpcError call_fails(const typename M::Params& params, int code);
  void check(bool ok, const std::string& what);
  void wait_turn(const std::string& turn_id, const std::string& what);
  void lifecycle_and_account();
  void session_turns(const std::string& session_id);
  void commands_and_history(const std::string& session_id);

  rpckit::loaf::Client& client_;
  EventLog& events_;
  rpckit_examples::Transcript& out_;
  std::chrono::milliseconds timeout_;
};

}  // namespace loaf_client
