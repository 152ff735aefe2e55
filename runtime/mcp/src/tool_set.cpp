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
  check_task_use(tool->item, params);
  try {
    return tool->handler(params);
  } catch (const RpcError&) {
    throw;
  } catch (const std::exception& e) {
    return tool_error(params.name + " failed: " + e.what());
  }
}

// tasks spec, "Tool-Level Negotiation": a tool's execution.taskSupport says whether it may be
// called as a task (params.task). Against "forbidden" (or none) a task call SHOULD be -32601;
// against "required" a plain call MUST be. (Whether the server takes task calls at all is its
// tasks.requests.tools.call capability, which the receipt gate checks before this.)
void ToolSet::check_task_use(const m::Tool& tool, const m::ToolsCallParams& params) {
  using Support = m::ToolExecutionTaskSupport;
  const Support support =
      tool.execution ? tool.execution->taskSupport_or_default() : Support(Support::kForbidden);
  if (params.task && support == Support::kForbidden) {
    throw RpcError(jsonrpc_code::kMethodNotFound,
                   "Tool " + params.name + " cannot be called as a task (taskSupport forbidden)");
  }
  if (!params.task && support == Support::kRequired) {
    throw RpcError(jsonrpc_code::kMethodNotFound,
                   "Tool " + params.name + " must be called as a task (taskSupport required)");
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
