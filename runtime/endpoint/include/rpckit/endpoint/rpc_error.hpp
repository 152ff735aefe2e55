#pragma once
// Errors of the JSON-RPC layer, both the ones a handler raises and the ones a call returns.
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "rpckit/descriptors/profile.hpp"
#include "rpckit/values/json_value.hpp"

namespace rpckit {

// JSON-RPC 2.0's reserved codes; protocols add their own (generated ErrorCode enums).
namespace jsonrpc_code {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
}  // namespace jsonrpc_code

// A JSON-RPC error object: thrown by a handler to answer a request with exactly this error
// (code, message and data reach the wire intact), and returned by calls the peer rejected.
class RpcError : public std::runtime_error {
 public:
  RpcError(int code, std::string message, std::optional<JsonValue> data = std::nullopt)
      : std::runtime_error(message), code_(code), message_(std::move(message)),
        data_(std::move(data)) {}

  int code() const noexcept { return code_; }
  const std::string& message() const noexcept { return message_; }
  const std::optional<JsonValue>& data() const noexcept { return data_; }

  nlohmann::json to_json() const;
  // Reads an `error` member; a malformed one becomes an internal error that says so. Under
  // ErrorObjects::lenient, a missing `code` and `message` are the policy's.
  static RpcError from_json(const nlohmann::json& error,
                            const ErrorObjects& policy = ErrorObjects::strict());

 private:
  int code_;
  std::string message_;
  std::optional<JsonValue> data_;
};

// Why an outgoing request produced no result.
struct CallError {
  enum class Kind {
    kRemote,         // the peer answered with an error: see `error`
    kTimeout,        // no answer before the deadline
    kDisconnected,   // the connection closed (or was closed) before an answer
    kSendFailed,     // the request could not be written (oversize, broken pipe)
    kLocal,          // refused before sending (e.g. a capability the grant lacks): see `error`
    kCancelled,      // given up by this side before an answer (AsyncCall::cancel)
    kInvalidResult,  // the peer answered with a result that does not decode as the message's
                     // result type (a typed call): `error` is a local -32603 saying where and why
  };
  Kind kind = Kind::kRemote;
  RpcError error{jsonrpc_code::kInternalError, ""};

  std::string describe() const;  // "timeout: no response to \"notify\" within 30000 ms"
};

// The kind as one word, for reports and transcripts: "remote", "timeout", "disconnected",
// "send_failed", "local", "cancelled", "invalid_result".
std::string_view kind_name(CallError::Kind kind);

}  // namespace rpckit
