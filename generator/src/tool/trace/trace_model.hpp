#pragma once
// What `rpckit trace` works out about each frame as the transcript streams by: its kind, its
// method, which lane it is drawn in (peer and sender), the request a response answers, and the
// request whose handling caused a request (a peer's call made while it handles one of ours).
// Only requests in flight are remembered (at most `max_tracked`), so memory stays bounded
// however long the transcript.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rpckit/validate/protocol.hpp"
#include "rpckit/validate/transcript_types.hpp"

namespace rpckit::trace {

enum class Kind : std::uint8_t {
  kRequest = 0,
  kNotification = 1,
  kResult = 2,  // a response that is not an error
  kError = 3,   // an error response (JSON-RPC's `error`, or an exchange answer whose error is set)
  kOther = 4,   // not JSON, or JSON that is none of the above
};

struct Lane {
  std::string peer;  // the conversation ("" when there is one)
  std::string from;  // the sender ("" when unknown)
  std::string to;
};

struct MethodInfo {
  std::string name;
  bool known = false;  // the protocol defines it
};

struct MessageRecord {
  std::size_t frame = 0;
  std::size_t lane = 0;
  Kind kind = Kind::kOther;
  int method = -1;  // index into methods(); a JSON-RPC response has its request's
  std::string id;      // the id (or correlation member) as JSON text, "" when none
  std::size_t answers = 0;  // frame of the request a response answers (0: none found)
  std::size_t parent = 0;   // frame of the request this request was made while handling
};

class TraceModel {
 public:
  static constexpr std::size_t kDefaultMaxTracked = 65536;
  static constexpr std::size_t kMaxMethods = 4096;  // distinct names a hostile stream may invent

  explicit TraceModel(const validate::ProtocolSchema& protocol,
                      std::size_t max_tracked = kDefaultMaxTracked);

  MessageRecord add(const validate::Frame& frame);

  const std::vector<Lane>& lanes() const { return lanes_; }
  const std::vector<MethodInfo>& methods() const { return methods_; }

 private:
  struct Pending {
    std::size_t frame;
    int method;
    std::string from;
  };
  using Key = std::tuple<std::string, std::string, std::string>;  // peer, sender, id

  void json_rpc(const validate::Frame& frame, const nlohmann::json& message, MessageRecord& r,
                std::string& from);
  void exchange(const validate::Frame& frame, const nlohmann::json& message, MessageRecord& r,
                std::string& from);
  std::size_t cause(const std::string& peer, const std::string& from) const;
  void track(const std::string& peer, const std::string& from, const std::string& id,
             const MessageRecord& r);
  void untrack(std::map<Key, Pending>::iterator it);
  int method_index(const std::string& name);
  std::size_t lane_index(const std::string& peer, const std::string& from);
  std::string other_role(const std::string& role) const;

  const validate::ProtocolSchema& protocol_;
  std::size_t max_tracked_;
  std::vector<std::string> senders_;  // "" and the roles
  std::map<Key, Pending> pending_;
  // Per peer, the requests in flight by frame, for finding what a request was made during.
  std::map<std::string, std::map<std::size_t, Key>> in_flight_;
  std::map<std::size_t, std::string> peer_of_frame_;  // oldest first: what goes at the cap
  // x-exchange: per peer, the step expected next and the frame that carried each step so far.
  struct Conversation {
    std::size_t next = 0;
    std::vector<std::size_t> frames;
  };
  std::map<std::string, Conversation> conversations_;
  std::vector<std::string> step_values_;  // each step's discriminator const
  std::vector<Lane> lanes_;
  std::map<std::pair<std::string, std::string>, std::size_t> lane_by_key_;
  std::vector<MethodInfo> methods_;
  std::map<std::string, int, std::less<>> method_by_name_;
};

}  // namespace rpckit::trace
