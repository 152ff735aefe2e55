#include "call_errors.hpp"

namespace rpckit::detail {

CallError disconnected(std::string_view method, bool waiting) {
  return CallError{CallError::Kind::kDisconnected,
                   RpcError(jsonrpc_code::kInternalError,
                            (waiting ? "connection closed while waiting for \""
                                     : "connection closed before \"") +
                                std::string(method) + "\"")};
}

CallError timed_out(std::string_view method, std::chrono::milliseconds timeout) {
  return CallError{CallError::Kind::kTimeout,
                   RpcError(jsonrpc_code::kInternalError,
                            "no response to \"" + std::string(method) + "\" within " +
                                std::to_string(timeout.count()) + " ms")};
}

CallError send_failed(std::string_view method) {
  return CallError{CallError::Kind::kSendFailed,
                   RpcError(jsonrpc_code::kInternalError,
                            "could not send \"" + std::string(method) + "\"")};
}

CallError cancelled(std::string_view method, std::string_view reason) {
  return CallError{CallError::Kind::kCancelled,
                   RpcError(jsonrpc_code::kInternalError,
                            "\"" + std::string(method) + "\" given up: " + std::string(reason))};
}

CallError unusable(std::string_view method, const std::string& why) {
  return CallError{CallError::Kind::kRemote,
                   RpcError(jsonrpc_code::kInternalError,
                            "unusable response to \"" + std::string(method) + "\"" +
                                (why.empty() ? "" : ": " + why))};
}

}  // namespace rpckit::detail
