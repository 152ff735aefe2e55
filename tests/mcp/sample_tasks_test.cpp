// The sample server runs tools/call as a task (basic/utilities/tasks), in a real process, driven
// by the generated typed client: the task-augmented call answered at once with a
// CreateTaskResult, tasks/get polled while the tool counts, tasks/result answered when the task
// ends with what the call would have returned. More tasks/result wait at once than the server's
// endpoint has threads, and tasks/get and tasks/cancel are still answered meanwhile: the server
// defers those replies (rpckit::this_request::defer()) instead of holding a thread per waiter.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "peer_support.hpp"

namespace {

namespace mcp = ::mcp::v2025_11_25;
using namespace rpckit_mcp_test;
using ::testing::HasSubstr;
constexpr std::chrono::seconds kTaskWait{30};

mcp::ToolsCallParams count_to(int n, int delay_ms, bool as_task = true) {
  mcp::ToolsCallParams p;
  p.name = "count";
  p.arguments.emplace();
  (*p.arguments)["to"] = nlohmann::json(n);
  (*p.arguments)["delay_ms"] = nlohmann::json(delay_ms);
  if (as_task) p.task = mcp::TaskMetadata{.ttl = 60000};
  return p;
}

using TaskResult = rpckit::ResultAs<mcp::messages::TasksResult, mcp::ToolsCallResult>;

TEST(SampleTasks, ACountRunsAsATaskAndTasksResultWaitsWithoutHoldingTheServer) {
  Server server({.id = "sample", .command = {RPCKIT_MCP_SAMPLE_SERVER}, .handshake_params = hello});
  ASSERT_TRUE(server.start());
  auto declared = server.handshake_result();
  ASSERT_TRUE(declared.has_value());
  ASSERT_TRUE(declared->capabilities.tasks.has_value());
  ASSERT_TRUE(declared->capabilities.tasks->requests->tools->call.has_value());

  // The tool says it may run as a task.
  auto tools = server.client().tools_list({}, kTaskWait);
  ASSERT_TRUE(tools.ok()) << tools.error().describe();
  for (const mcp::Tool& tool : tools->tools) {
    const bool optional =
        tool.execution && tool.execution->taskSupport == mcp::ToolExecutionTaskSupport::kOptional;
    EXPECT_EQ(optional, tool.name == "count") << tool.name;
  }

  // A slow count (a second before each of its 60 steps: it ends only by the cancel below) and a
  // short one.
  auto slow = server.client().tools_call_with_task(count_to(60, 1000), kTaskWait);
  ASSERT_TRUE(slow.ok()) << slow.error().describe();
  EXPECT_EQ(slow->task.status, mcp::TaskStatus::kWorking);
  auto quick = server.client().tools_call_with_task(count_to(3, 1), kTaskWait);
  ASSERT_TRUE(quick.ok()) << quick.error().describe();
  ASSERT_NE(slow->task.taskId, quick->task.taskId);

  // Three tasks/result on the slow task wait at once: more than the server's two endpoint
  // threads could hold, were each waiter a blocked handler.
  std::vector<rpckit::FutureResult<mcp::ToolsCallResult>> waiting;
  for (int i = 0; i < 3; ++i) {
    waiting.push_back(server.caller().call_future<TaskResult>({.taskId = slow->task.taskId}));
  }
  // Meanwhile the server answers: tasks/get, the quick task's result, tasks/list.
  auto status = server.client().tasks_get({.taskId = slow->task.taskId}, kTaskWait);
  ASSERT_TRUE(status.ok()) << status.error().describe();
  EXPECT_EQ(status->status, mcp::TaskStatus::kWorking);
  auto counted = server.caller().call<TaskResult>({.taskId = quick->task.taskId}, kTaskWait);
  ASSERT_TRUE(counted.ok()) << counted.error().describe();
  ASSERT_EQ(counted->content.size(), 1u);
  EXPECT_EQ(std::get<mcp::TextContent>(counted->content[0].value).text, "3");
  ASSERT_TRUE(counted->_meta.has_value());
  EXPECT_EQ(counted->_meta->at("io.modelcontextprotocol/related-task").get(),
            nlohmann::json({{"taskId", quick->task.taskId}}));
  auto quick_status = server.client().tasks_get({.taskId = quick->task.taskId}, kTaskWait);
  ASSERT_TRUE(quick_status.ok());
  EXPECT_EQ(quick_status->status, mcp::TaskStatus::kCompleted);
  auto listed = server.client().tasks_list({}, kTaskWait);
  ASSERT_TRUE(listed.ok()) << listed.error().describe();
  EXPECT_EQ(listed->tasks.size(), 2u);

  // tasks/cancel ends the slow one: the count stops, the waiters get the cancelled error.
  auto cancelled = server.client().tasks_cancel({.taskId = slow->task.taskId}, kTaskWait);
  ASSERT_TRUE(cancelled.ok()) << cancelled.error().describe();
  EXPECT_EQ(cancelled->status, mcp::TaskStatus::kCancelled);
  for (auto& future : waiting) {
    auto answer = future.get();
    ASSERT_FALSE(answer.ok());
    EXPECT_EQ(answer.error().kind, rpckit::CallError::Kind::kRemote);
    EXPECT_EQ(answer.error().error.code(), -32603);
    EXPECT_THAT(answer.error().error.message(), HasSubstr("was cancelled"));
  }
  auto again = server.client().tasks_cancel({.taskId = slow->task.taskId}, kTaskWait);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().error.code(), -32602) << "a terminal task cannot be cancelled";

  // A plain call of the same tool still answers at once; a task call of a tool that does not
  // take one is -32601.
  auto plain = server.client().tools_call(count_to(2, 0, false), kTaskWait);
  ASSERT_TRUE(plain.ok()) << plain.error().describe();
  mcp::ToolsCallParams echo;
  echo.name = "echo";
  echo.arguments.emplace();
  (*echo.arguments)["text"] = nlohmann::json("hi");
  echo.task = mcp::TaskMetadata{};
  auto refused = server.client().tools_call_with_task(echo, kTaskWait);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().error.code(), -32601);
  server.stop();
}

}  // namespace
