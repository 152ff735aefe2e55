#pragma once
// Routing an incoming message through a typed Router and answering as JSON-RPC says: the
// handler's result, -32601 for a method the direction does not have or nobody handles,
// -32602 naming the path for params that do not decode.
#include <string>
#include <string_view>
#include <utility>

#include "rpckit/dispatch/router.hpp"
#include "rpckit/endpoint/endpoint.hpp"

namespace rpckit::roles {

// The router's answer to one message, or the RpcError to answer with instead.
template <class Direction>
JsonValue route_or_throw(const Router<Direction>& router, std::string_view method,
                         const LazyJson& params) {
  RouteResult routed = router.route(method, params);
  switch (routed.status) {
    case RouteResult::Status::kOk:
      return std::move(routed.result);
    case RouteResult::Status::kUnknownMethod:
    case RouteResult::Status::kNoHandler:
      throw RpcError(jsonrpc_code::kMethodNotFound, "Method not found: " + std::string(method));
    case RouteResult::Status::kInvalidParams:
      throw RpcError(jsonrpc_code::kInvalidParams, "Invalid params: " + routed.error);
  }
  return JsonValue();
}

// The endpoint handler that routes every message through `router`, which must outlive the
// endpoint the handler is given to.
template <class Direction>
Endpoint::Handler route_through(const Router<Direction>& router) {
  return [&router](const Incoming& incoming) -> JsonValue {
    return route_or_throw(router, incoming.method, incoming.params);
  };
}

}  // namespace rpckit::roles
