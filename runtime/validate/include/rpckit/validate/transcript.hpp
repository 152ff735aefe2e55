#pragma once
// Checking a conversation, frame by frame, against a protocol: each frame valid for its
// message, sent by the side the message's direction names, each response matched by id to a
// request the other side sent (its result checked against that method's result schema), no
// id in flight twice, no request answered twice or never, no frame over the cap.
//
// TranscriptChecker takes frames as they come (the endpoints' debug option feeds it live);
// read_transcript() turns a recorded file into frames first.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "rpckit/validate/exchange_checker.hpp"
#include "rpckit/validate/protocol.hpp"
#include "rpckit/validate/transcript_types.hpp"
#include "rpckit/validate/violation.hpp"

namespace rpckit::validate {

class TranscriptChecker {
 public:
  // What is remembered of a live connection is bounded, whatever the peer sends: at most
  // `max_tracked` requests in flight (beyond, the oldest is reported unanswered) and as many
  // answers. The default is far above what an endpoint holds unanswered (its queue takes 4096
  // frames), so a flood a peer legitimately works through is not reported; about 10 MB at most.
  static constexpr std::size_t kDefaultMaxTracked = 65536;
  explicit TranscriptChecker(const ProtocolValidator& validator,
                             std::size_t max_tracked = kDefaultMaxTracked);
  // The frames are one role's only (a raw stream read with --from): its answers are checked
  // as envelopes but not matched to requests (those are in the other side's stream), its own
  // requests are not reported unanswered; for a one-shot exchange, the other role's steps are
  // taken as sent.
  void set_one_sided(bool one_sided);

  std::vector<Finding> feed(const Frame& frame);
  // What is left at the end: requests never answered.
  std::vector<Finding> finish();

  std::size_t frames() const { return frames_; }

 private:
  struct Pending {
    std::string method;
    std::size_t frame;
    std::string from;
    std::string result_chosen_by;  // the x-result-when member its params carried, or ""
  };
  using Key = std::tuple<std::string, std::string, std::string>;  // peer, sender, id (JSON)

  void request(const Frame& frame, const std::string& method, const std::string& id,
               std::vector<Finding>& out, std::string result_chosen_by = {});
  void response(const Frame& frame, const std::string& id, const nlohmann::json& envelope,
                std::vector<Finding>& out);
  std::string other_role(const std::string& role) const;
  void forget_answer(const Key& key);
  static Finding unanswered(const Key& key, const Pending& p, const std::string& found);

  const ProtocolValidator& validator_;
  std::size_t max_tracked_;
  std::optional<ExchangeChecker> exchange_;  // x-exchange protocols: its rules, not JSON-RPC's
  std::vector<std::string> senders_;  // "" and the roles, in key order
  std::map<Key, Pending> pending_;
  std::map<std::size_t, Key> pending_by_frame_;  // oldest first
  std::map<Key, std::size_t> answered_;  // -> the frame that answered it
  std::map<std::size_t, Key> answered_by_frame_;
  // Frames that were not JSON, per (peer, sender): each may be answered by an error response
  // with an id no readable request carried.
  std::map<std::pair<std::string, std::string>, std::size_t> unreadable_;
  std::size_t frames_ = 0;
  bool one_sided_ = false;
};

std::optional<TranscriptFormat> parse_transcript_format(std::string_view name);
std::string_view to_string(TranscriptFormat format);
// From the first bytes: "Content-Length:" headers, a host's JSON-lines transcript (an object
// whose "type" is frame, lifecycle, host or report, without "jsonrpc": docs/transcript.md), or
// else NDJSON.
TranscriptFormat detect_transcript_format(std::string_view bytes);

// Splits a recorded transcript into frames. `from` names the sender of every frame of a raw
// stream (one pipe); JSON-lines transcripts name it per line. Framing problems (a bad header,
// a truncated body) are findings, and end the reading there: the framing is lost. Frames over
// the protocol's cap are read whole; the checker reports them.
std::vector<Frame> read_transcript(std::string_view bytes, TranscriptFormat format,
                                   const std::string& from, std::vector<Finding>& problems);

}  // namespace rpckit::validate
