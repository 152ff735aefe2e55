// x-result-when: MCP's tools/call whose params carry `task` is answered with a CreateTaskResult
// (basic/utilities/tasks) rather than a CallToolResult. Against a server written from the spec
// that runs tools/call as a task (tests/mcp/peers/task_server.py, in a real process), the
// generated descriptor messages::ToolsCallWithTask and its client function take that answer,
// typed; a call through the descriptor whose Result does not answer its params is refused
// before anything is written, naming the one that does, rather than failing on the answer. The
// task's result (tasks/result) is read as the type its caller names (rpckit::ResultAs).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <type_traits>

#include "peer_support.hpp"

namespace {

namespace mcp = ::mcp::v2025_11_25;
using namespace rpckit_mcp_test;
using ::testing::HasSubstr;
constexpr std::chrono::seconds kWait{20};

static_assert(std::is_base_of_v<mcp::messages::ToolsCall, mcp::messages::ToolsCallWithTask>);
static_assert(std::is_same_v<mcp::messages::ToolsCallWithTask::Result, mcp::CreateTaskResult>);
static_assert(
    std::is_same_v<mcp::messages::SamplingCreateMessageWithTask::Result, mcp::CreateTaskResult>);
static_assert(
    std::is_same_v<mcp::messages::ElicitationCreateWithTask::Result, mcp::CreateTaskResult>);

mcp::ToolsCallParams call(bool as_task) {
  mcp::ToolsCallParams p;
  p.name = "slow";
  if (as_task) p.task = mcp::TaskMetadata{.ttl = 60000};
  return p;
}

using ResultWhen = NotesTest;

TEST_F(ResultWhen, ATaskAugmentedToolCallIsAnsweredWithACreateTaskResult) {
  Server server(
      {.id = "tasks", .command = {RPCKIT_TASK_SERVER, notes_.string()}, .handshake_params = hello});
  ASSERT_TRUE(server.start());

  auto task = server.client().tools_call_with_task(call(true), kWait);
  ASSERT_TRUE(task.ok()) << task.error().describe();
  EXPECT_EQ(task->task.taskId, "task-1");
  EXPECT_EQ(task->task.status, mcp::TaskStatus::kWorking);
  ASSERT_TRUE(task->task.ttl.has_value());
  EXPECT_EQ(task->task.ttl.value(), 60000);

  // The same params through tools_call (Result = CallToolResult): refused here, never written.
  auto refused = server.client().tools_call(call(true), kWait);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, rpckit::CallError::Kind::kLocal);
  EXPECT_EQ(refused.error().error.code(), -32602);
  EXPECT_THAT(refused.error().describe(),
              HasSubstr("tools/call: these params are answered with another result: call it as "
                        "messages::ToolsCallWithTask"));
  // And params without task through the task descriptor: refused, naming ToolsCall.
  auto plain_as_task = server.client().tools_call_with_task(call(false), kWait);
  ASSERT_FALSE(plain_as_task.ok());
  EXPECT_EQ(plain_as_task.error().kind, rpckit::CallError::Kind::kLocal);
  EXPECT_EQ(plain_as_task.error().describe(),
            "refused locally: -32602 tools/call: these params are answered with another result: "
            "call it as messages::ToolsCall");

  // A plain call still gets its CallToolResult; the non-blocking forms choose alike.
  auto plain = server.client().tools_call(call(false), kWait);
  ASSERT_TRUE(plain.ok()) << plain.error().describe();
  ASSERT_EQ(plain->content.size(), 1u);
  auto future = server.client().tools_call_with_task_future(call(true));
  auto later = future.get();
  ASSERT_TRUE(later.ok()) << later.error().describe();
  EXPECT_EQ(later->task.pollInterval, 500);
  bool refused_async = false;
  server.client().tools_call_async(call(true), [&](rpckit::Result<mcp::ToolsCallResult> r) {
    refused_async = !r.ok() && r.error().kind == rpckit::CallError::Kind::kLocal;
  });
  EXPECT_TRUE(refused_async) << "a refused call_async completes at once";

  // tasks/result gives what the task's request would have returned: its caller names the type
  // (rpckit::ResultAs), as the SDK's getTaskResult(taskId, CallToolResultSchema) does.
  auto done =
      server.caller().call<rpckit::ResultAs<mcp::messages::TasksResult, mcp::ToolsCallResult>>(
          mcp::TasksResultParams{.taskId = task->task.taskId}, kWait);
  ASSERT_TRUE(done.ok()) << done.error().describe();
  ASSERT_EQ(done->content.size(), 1u);
  ASSERT_TRUE(done->_meta.has_value());

  server.stop();
  // What reached the server: the two task calls, the plain one and the task's result, nothing
  // refused.
  EXPECT_EQ(notes(), "call task\ncall plain\ncall task\nresult task-1\n");
}

}  // namespace
