#pragma once
// The errors a call ends with when the peer gives no usable answer: the texts callers see.
#include <chrono>
#include <string>
#include <string_view>

#include "rpckit/endpoint/rpc_error.hpp"

namespace rpckit::detail {

CallError disconnected(std::string_view method, bool waiting);
CallError timed_out(std::string_view method, std::chrono::milliseconds timeout);
CallError send_failed(std::string_view method);
CallError cancelled(std::string_view method, std::string_view reason);
CallError unusable(std::string_view method, const std::string& why);

}  // namespace rpckit::detail
