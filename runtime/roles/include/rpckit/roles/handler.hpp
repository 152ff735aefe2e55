#pragma once
// What generated handler interfaces (`<Role>Handler` in <module>/roles.hpp) build on: the
// answer every request handler gives until the application overrides it.
#include <string>
#include <string_view>

#include "rpckit/endpoint/rpc_error.hpp"

namespace rpckit::roles {

// -32601 for a request the application does not handle: a schema that gains a request
// keeps every existing application compiling and answering as JSON-RPC says.
[[noreturn]] inline void method_not_found(std::string_view method) {
  throw RpcError(jsonrpc_code::kMethodNotFound, "Method not found: " + std::string(method));
}

}  // namespace rpckit::roles
