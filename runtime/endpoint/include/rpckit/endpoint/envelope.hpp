#pragma once
// scan_envelope(): what one incoming JSON-RPC 2.0 frame is, found without building a DOM.
// The whole frame is validated (rpckit::codec::JsonReader: strict UTF-8, nesting and number
// limits); the members that matter are located as byte spans into the frame, so a request
// can wait in a queue as its text, and only params that are dispatched are ever parsed.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "rpckit/values/json_value.hpp"

namespace rpckit {

// Where a member's value lies in the frame text.
struct Span {
  std::size_t offset = 0;
  std::size_t size = 0;
  std::string_view in(std::string_view frame) const { return frame.substr(offset, size); }
};

struct Envelope {
  enum class Kind { kRequest, kNotification, kResponse };
  Kind kind = Kind::kNotification;
  std::string method;            // requests and notifications
  JsonValue id;                  // requests and responses: a string, an integer (or null)
  bool jsonrpc_absent = false;   // taken without "jsonrpc" (ScanRules::jsonrpc_optional)
  std::optional<Span> params;    // absent when the envelope has none
  std::optional<Span> result;    // responses: exactly one of result and error
  std::optional<Span> error;
};

// A frame that is not a usable envelope, and how to answer it.
struct EnvelopeProblem {
  enum class Kind {
    kParseError,       // not JSON: answered -32700 with a null id
    kInvalidRequest,   // answered -32600 (with the id when one could be recovered)
    kInvalidResponse,  // a response that cannot be used: never answered; `id` may name the
                       // call it was meant for
  };
  Kind kind = Kind::kParseError;
  JsonValue id;        // null when none could be recovered
  std::string reason;  // says where and why: "at byte 4100: nesting deeper than 256 levels"
  bool batch = false;  // the frame is a batch array
};

// How strictly a frame is read, beyond JSON-RPC's letter (the profile's EnvelopeRules).
struct ScanRules {
  std::size_t max_depth = 256;  // the envelope object itself is depth 1
  bool jsonrpc_optional = false;
  bool blank_method_invalid = false;
  bool null_id_requests = false;  // {"id": null, "method": ...} is a request answered with null
};

std::variant<Envelope, EnvelopeProblem> scan_envelope(std::string_view frame,
                                                      const ScanRules& rules);
// JSON-RPC's own rules, with `max_depth`.
inline std::variant<Envelope, EnvelopeProblem> scan_envelope(std::string_view frame,
                                                             std::size_t max_depth) {
  return scan_envelope(frame, ScanRules{max_depth});
}

}  // namespace rpckit
