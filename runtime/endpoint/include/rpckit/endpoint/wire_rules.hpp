#pragma once
// WireRules: everything an Endpoint reads of a protocol's profile, for one receiving side: the
// nesting it takes, the ids it sends and accepts and how answers are matched, how envelopes
// are read, the data on the errors it makes itself, what input its peer should not have
// sent gets, how requests are cancelled and how progress on them is reported.
// rpckit::roles::connection_rules<Profile>() builds it from a generated Profile.
// The defaults are JSON-RPC 2.0's rules (rpckit/descriptors/profile.hpp).
#include <cstddef>

#include "rpckit/descriptors/profile.hpp"

namespace rpckit {

struct WireRules {
  // Deepest nesting taken from the peer (the envelope object is depth 1).
  std::size_t max_depth = kDefaultMaxJsonDepth;
  // The ids this side's requests carry (integers, or the same numbers as decimal strings),
  // and the kinds a peer's requests may carry; another kind is answered -32600.
  IdKind sent_ids = IdKind::kInteger;
  IdKinds accepted_ids = IdKind::kInteger | IdKind::kString;
  // Whether a peer's error object may lack `code`.
  ErrorObjects error_objects = ErrorObjects::strict();
  EnvelopeRules envelope;
  ErrorReasons error_data;
  ReceiveRules receive;
  // How the peer cancels a request, and whether this side cancels the calls it gives up on.
  CancelRules cancel;
  // How the peer reports progress on the calls that ask for it.
  ProgressRules progress;
};

}  // namespace rpckit
