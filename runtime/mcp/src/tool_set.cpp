#include "rpckit/mcp/tool_set.hpp"

#include <exception>
#include <variant>

#include "rpckit/codec/value_codec.hpp"
#include "rpckit/endpoint/rpc_error.hpp"
#include "rpckit/mcp/task_store.hpp"

namespace rpckit::mcp {

m::ToolsListResult ToolSet::list(const m::ToolsListParams& params) const {
  m::ToolsListResult r;
  r.tools = page(params.cursor, r.nextCursor);
  return r;
}

namespace {

m::ToolExecutionTaskSupport task_support(const m::Tool& tool) {
  return tool.execution ? tool.execution->taskSupport_or_default()
                        : m::ToolExecutionTaskSupport::kForbidden;
}

}  // namespace

m::ToolsCallResult ToolSet::call(const m::ToolsCallParams& params) const {
  const auto tool = find(params.name);
  // tools spec, "Error Handling": an unknown tool is a protocol error, -32602.
  if (!tool) throw RpcError(jsonrpc_code::kInvalidParams, "Unknown tool: " + params.name);
  if (tasks_declared_ && task_support(tool->item) == m::ToolExecutionTaskSupport::kRequired) {
    throw RpcError(jsonrpc_code::kMethodNotFound,
                   "Tool " + params.name + " must be called as a task (execution.taskSupport)");
  }
  return run(*tool, params);
}

m::CreateTaskResult ToolSet::call_as_task(const m::ToolsCallParams& params,
                                          TaskStore& tasks) const {
  auto tool = find(params.name);
  if (!tool) throw RpcError(jsonrpc_code::kInvalidParams, "Unknown tool: " + params.name);
  if (task_support(tool->item) == m::ToolExecutionTaskSupport::kForbidden) {
    throw RpcError(jsonrpc_code::kMethodNotFound,
                   "Tool " + params.name + " cannot be called as a task (execution.taskSupport)");
  }
  return tasks.start(params.task.value_or(m::TaskMetadata{}), [tool = std::move(tool), params]() {
    m::ToolsCallResult result = run(*tool, params);
    TaskOutcome outcome;
    outcome.failed = result.isError.value_or(false);
    if (outcome.failed && !result.content.empty()) {
      // The failed task says why (SHOULD): the tool's first text.
      if (const auto* text = std::get_if<m::TextContent>(&result.content[0].value)) {
        outcome.status_message = text->text;
      }
    }
    outcome.result = codec::encode(result);
    return outcome;
  });
}

m::ToolsCallResult ToolSet::run(const Entry& tool, const m::ToolsCallParams& params) {
  try {
    return tool.handler(params);
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
