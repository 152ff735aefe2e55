#pragma once
// The transcript rules of a one-shot exchange (x-exchange): per conversation, each frame is the
// next step (its sender, its type's schema, the discriminator's const), an answer carries the
// correlation member of the step it answers, nothing follows the last step, and a
// conversation that stops early is reported at the end. TranscriptChecker hands it every
// readable frame of such a protocol.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rpckit/validate/protocol.hpp"
#include "rpckit/validate/transcript_types.hpp"

namespace rpckit::validate {

class ExchangeChecker {
 public:
  // `one_sided`: the frames are one role's only (a raw stream with --from): the other role's
  // steps are taken as sent. At most `max_tracked` conversations are remembered (finished
  // ones are forgotten first, then the oldest), whatever the transcript holds.
  ExchangeChecker(const ProtocolValidator& validator, bool one_sided, std::size_t max_tracked);

  std::vector<Finding> feed(const Frame& frame, const nlohmann::json& message);
  std::vector<Finding> finish();

 private:
  struct Conversation {
    std::size_t next = 0;  // the step expected next
    std::size_t first_frame = 0;
    std::size_t last_frame = 0;
    std::vector<nlohmann::json> correlation;  // per step: its correlation member, as sent
    std::vector<std::size_t> frame;           // per step: the frame that carried it
  };
  std::string describe(std::size_t step) const;
  void forget_one();

  const ProtocolValidator& validator_;
  const ExchangeSchema& exchange_;
  bool one_sided_;
  std::size_t max_tracked_;
  std::map<std::string, Conversation> conversations_;  // by peer
};

}  // namespace rpckit::validate
