#pragma once
// The vocabulary of generated protocol profiles (<module>/profile.hpp): the traits a generic
// role reads instead of code (framing, ids, lifecycle messages, the stop sequence, what a side
// does with input its peer should not have sent).
//
// The defaults of these types are JSON-RPC 2.0's own rules (answer a parse error with -32700
// and a null id, echo the id of an invalid request when it can be read, match an answer to its
// request by an id equal in kind and value, require "jsonrpc": "2.0"). Where JSON-RPC says
// nothing (frame limits, timers, the stop sequence) a profile must say it: no protocol's
// choice is a default here.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "rpckit/codec/json_reader.hpp"

namespace rpckit {

// Kinds of JSON-RPC ids, as a set.
enum class IdKind : std::uint8_t { kInteger = 1, kString = 2, kNull = 4 };
using IdKinds = IdKind;
constexpr IdKind operator|(IdKind a, IdKind b) {
  return static_cast<IdKind>(static_cast<std::uint8_t>(a) | static_cast<std::uint8_t>(b));
}
constexpr bool contains(IdKind set, IdKind kind) {
  return (static_cast<std::uint8_t>(set) & static_cast<std::uint8_t>(kind)) != 0;
}

// How an answer's id is matched to the request it answers ("ids.match").
enum class IdMatch : std::uint8_t {
  kExact,       // the same kind and value (JSON-RPC)
  kStringForm,  // the same string form: a number matches its decimal text ("7" answers 7)
};

// How a peer's error objects are read. Strict (JSON-RPC 2.0): one without an integer `code` is
// malformed, and the call fails with -32603 saying so. Lenient, for protocols whose peers omit
// `code`: such an object is read as `missing_code`, and a missing `message` as
// `missing_message`.
struct ErrorObjects {
  bool code_optional = false;
  int missing_code = 0;
  std::string_view missing_message;

  static constexpr ErrorObjects strict() { return {}; }
  static constexpr ErrorObjects lenient(int code, std::string_view message) {
    return {true, code, message};
  }
};

// How incoming envelopes are read beyond JSON-RPC's letter.
struct EnvelopeRules {
  IdMatch id_match = IdMatch::kExact;
  bool jsonrpc_optional = false;      // a message without "jsonrpc" is still taken (logged once)
  bool blank_method_invalid = false;  // a method of only white space is an invalid request
  bool invalid_request_id_null = false;  // -32600 always answers with id null, never the id
  // An answer whose request id could not be read (a parse error, a batch, an unusable id)
  // carries no "id" member at all (MCP), instead of JSON-RPC's "id": null.
  bool unknown_id_omitted = false;
};

// The `data` the runtime puts on the errors it makes itself ("error_data"): an object with one
// member, `member`, whose value names the error; empty `member`: no data.
struct ErrorReasons {
  std::string_view member;
  std::string_view parse_error;       // -32700
  std::string_view batch;             // -32600 for a batch array
  std::string_view invalid_request;   // -32600 otherwise (an over-long frame included)
  std::string_view method_not_found;  // -32601
  std::string_view invalid_params;    // -32602
  std::string_view internal_error;    // -32603
  // The reason for an error code (empty: the code is not one of the six).
  constexpr std::string_view for_code(int code) const {
    switch (code) {
      case -32700: return parse_error;
      case -32600: return invalid_request;
      case -32601: return method_not_found;
      case -32602: return invalid_params;
      case -32603: return internal_error;
      default: return {};
    }
  }
};

// What a receiving side does with input its peer should not have sent ("not_json",
// "oversize", "stray_response" of the profile, per receiving role).
enum class OnNotJson : std::uint8_t {
  kAnswer,  // -32700 with a null id (JSON-RPC)
  kLog,     // logged (rate-limited) and discarded; nothing is answered
};
enum class OnOversize : std::uint8_t {
  kClose,    // the connection ends (a protocol violation)
  kDiscard,  // logged and skipped, never buffered whole; the connection keeps serving
  kAnswer,   // answered -32600 with a null id, then skipped as kDiscard
};
enum class OnStrayResponse : std::uint8_t {
  kLog,     // a response that answers no request of ours is logged and dropped
  kAnswer,  // it is answered -32600 with a null id (a side that never sends requests)
};
struct ReceiveRules {
  OnNotJson not_json = OnNotJson::kAnswer;
  OnOversize oversize = OnOversize::kClose;
  OnStrayResponse stray_response = OnStrayResponse::kLog;
};

// How a peer cancels a request it sent ("cancel"): a notification whose params name the
// request by its id in `id_member` (and may say why in `reason_member`). The receiving side
// marks the request's rpckit::Cancellation, so a running handler can stop, and sends no answer
// to it; one still queued is not run. With `on_timeout`, a call this side gives up on at its
// deadline is cancelled the same way. `uncancellable` is a request never cancelled, in either
// direction (the handshake). An empty `method`: the protocol has no such notification.
struct CancelRules {
  std::string_view method;
  std::string_view id_member;
  std::string_view reason_member;
  bool on_timeout = false;
  std::string_view uncancellable;
};

// How a peer reports progress on a request it was sent ("progress"): a notification whose
// `token_member` names the request by the token the request carried at `request_token` (a
// dotted path into its params, "_meta.progressToken"). A caller that asks for progress
// (rpckit::CallOptions) sends its request's own id as the token; the reports reach that call's
// observer, and may restart its deadline. An empty `method`: the protocol has no such
// notification.
struct ProgressRules {
  std::string_view method;
  std::string_view token_member;
  std::string_view request_token;
};

// What the spawner checks of the handshake's answer ("version"): its member `member` holds the
// protocol version the spawned side will speak, and the spawner leaves a session whose version
// it does not speak (MCP: "a client that does not support the version in the server's
// response SHOULD disconnect"). kExact: the same string as `spoken`; kMajor: the same text up
// to the first '.' ("1.4" for a spawner of "1.0"). An empty `member`: no check.
enum class VersionMatch : std::uint8_t { kExact, kMajor };
struct VersionCheck {
  std::string_view member;
  std::string_view spoken;
  VersionMatch match = VersionMatch::kExact;
};

// What the spawned role may send before it has received the handshake-done message
// ("before_handshake_done"; MCP: "the server SHOULD NOT send requests other than pings and
// logging before receiving the initialized notification"). Not `limited`: anything the gates
// allow. The spawner needs no such list: the generic host sends nothing but the handshake
// before it is answered.
struct EarlyMessages {
  bool limited = false;
  std::span<const std::string_view> methods;

  constexpr bool allows(std::string_view method) const {
    return !limited || std::find(methods.begin(), methods.end(), method) != methods.end();
  }
};

// What a receiver refuses of a message whose gate (x-gate) its own handshake declarations do
// not allow ("gate_on_receipt"), with the JSON-RPC error code to answer for each kind of clause
// (std::nullopt: that kind is the sender's rule alone, and the receiver serves the message).
// MCP: a client answers roots/list without `roots` with -32601, and elicitation in a mode it
// did not declare with -32602; a receiver that did not declare tasks for a request ignores its
// `task` param, so param clauses are not checked. The declarations are the spawner's own grant
// member of the handshake params and the spawned role's result grant member of its answer;
// before the handshake has settled them, nothing is refused.
struct GateOnReceipt {
  std::optional<int> capability;  // {"capability"}: the method needs the receiver's capability
  std::optional<int> keyed;       // {"capability", "keyed_by"}: the member a param names
  std::optional<int> param;       // {"capability", "param"}: a params field needs it

  constexpr bool checked() const { return capability || keyed || param; }
};

// A lifecycle timer: a duration, or none (std::nullopt: the protocol sets no such limit).
using Timer = std::optional<std::chrono::milliseconds>;

// One step of the spawner's stop sequence ("stop"). The sequence runs in order and ends as
// soon as the process has exited.
struct StopStep {
  enum class Kind : std::uint8_t {
    kShutdown,    // the shutdown request; waits for its answer (at most the shutdown timeout)
    kExit,        // the exit notification
    kCloseStdin,  // closes the process's stdin
    kSigterm,     // sends SIGTERM
    kWait,        // waits `wait` for the process to exit
    kKill,        // SIGKILL; the process is then reaped
  };
  Kind kind = Kind::kKill;
  std::chrono::milliseconds wait{0};
};

// What the spawned side does once it has answered shutdown ("after_shutdown").
enum class AfterShutdown : std::uint8_t {
  kServe,        // carries on until its other stop conditions
  kStop,         // ends the session once the answer is written
  kIgnoreInput,  // reads and drops every later line until its other stop conditions
};

// A lifecycle slot the protocol leaves empty (no health check, no exit notification, ...).
struct NoMessage {};

inline constexpr std::size_t kDefaultMaxJsonDepth = codec::kMaxJsonDepth;

}  // namespace rpckit
