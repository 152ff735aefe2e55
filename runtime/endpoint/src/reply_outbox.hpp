#pragma once
// What an endpoint shares with its deferred replies: how to send a response, until the
// endpoint ends (then `send` is cleared, under the mutex, so no reply outlives it).
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "in_flight.hpp"
#include "rpckit/endpoint/rpc_error.hpp"

namespace rpckit::detail {

struct ReplyOutbox {
  std::mutex mutex;
  // Sends the one response to request `id` of `method`: a result or an error. Returns
  // whether it was written.
  std::function<bool(const nlohmann::json& id, const std::string& method,
                     const nlohmann::json* result, const RpcError* error)>
      send;
  // The peer's requests it may still cancel (null: the protocol has no cancel rules).
  std::shared_ptr<InFlightRequests> in_flight;
};

}  // namespace rpckit::detail
