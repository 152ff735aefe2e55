#pragma once
// The endpoint handler that sends every incoming message through a typed Router and answers
// as JSON-RPC says: the handler's result, -32601 for a method the direction does not have or
// nobody handles, -32602 naming the path for params that do not decode.
#include <string>
#include <utility>

#include "rpckit/dispatch/router.hpp"
#include "rpckit/endpoint/endpoint.hpp"

namespace rpckit::roles {

// `router` must outlive the endpoint the handler is given to.
template <class Direction>
Endpoint::Handler route_through(const Router<Direction>& router) {
  return [&router](const Incoming& incoming) -> nlohmann::json {
    RouteResult routed = router.route(incoming.method, incoming.params);
    switch (routed.status) {
      case RouteResult::Status::kOk:
        return std::move(routed.result);
      case RouteResult::Status::kUnknownMethod:
      case RouteResult::Status::kNoHandler:
        throw RpcError(jsonrpc_code::kMethodNotFound, "Method not found: " + incoming.method);
      case RouteResult::Status::kInvalidParams:
        throw RpcError(jsonrpc_code::kInvalidParams, "Invalid params: " + routed.error);
    }
    return nullptr;
  };
}

}  // namespace rpckit::roles
