#include "rpckit/mcp/tool_set.hpp"

#include <exception>

#include "rpckit/endpoint/rpc_error.hpp"

namespace rpckit::mcp {

m::ToolsListResult ToolSet::list(const m::ToolsListParams& params) const {
  m::ToolsListResult r;
  r.tools = page(params.cursor, r.nextCursor);
  return r;
}

m::ToolsCallResult ToolSet::call(const m::ToolsCallParams& params) const {
  const auto tool = find(params.name);
  // tools spec, "Error Handling": an unknown tool is a protocol error, -32602.
  if (!tool) throw RpcError(jsonrpc_code::kInvalidParams, "Unknown tool: " + params.name);
  try {
    return tool->handler(params);
  } catch (const RpcError&) {
    throw;
  } catch (const std::exception& e) {
    return tool_error(params.name + " failed: " + e.what());
  }
}

nlohmann::json ToolSet::arguments_of(const m::ToolsCallParams& params) {
  nlohmann::json arguments = nlohmann::json::object();
  if (params.arguments) {
    for (const auto& [key, value] : *params.arguments) arguments[key] = value.get();
  }
  return arguments;
}

}  // namespace rpckit::mcp
