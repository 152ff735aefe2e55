// rpckit::mcp::TaskStore (basic/utilities/tasks): a task's work on a thread of its own, its
// status through tasks/get and tasks/list, its outcome through tasks/result (waited for here,
// where no request's handler can defer), tasks/cancel seen by the work as a request's
// cancellation, the bounds (max_tasks, ttl), and ToolSet's task calls with the tool-level
// negotiation (execution.taskSupport). The reply deferred from a real handler is exercised
// against the sample server (mcp.SampleTasks, sample_tasks_test.cpp).
#include "rpckit/mcp/task_store.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gate.hpp"
#include "mcp_2025_11_25/dispatch.hpp"
#include "rpckit/dispatch/router.hpp"
#include "rpckit/endpoint/cancellation.hpp"
#include "rpckit/endpoint/reply.hpp"
#include "rpckit/endpoint/rpc_error.hpp"
#include "rpckit/mcp/tool_results.hpp"
#include "rpckit/mcp/tool_set.hpp"

namespace {

namespace m = ::mcp::v2025_11_25;
using nlohmann::json;
using rpckit::RpcError;
using rpckit::mcp::TaskOutcome;
using rpckit::mcp::TaskStore;
using ::testing::HasSubstr;

// A gate the test opens: work that waits on it runs until the test says (at most 10 s).
using rpckit_test::Gate;

TaskOutcome text_outcome(const std::string& text) {
  TaskOutcome outcome;
  outcome.result = rpckit::JsonValue(json{{"content", {{{"type", "text"}, {"text", text}}}}});
  return outcome;
}

int error_code_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const RpcError& e) {
    return e.code();
  }
  return 0;
}

TEST(TaskStore, ATaskRunsItsWorkAndTasksResultAnswersWhatTheRequestWouldHave) {
  Gate gate;  // before the store: its works wait on it until the store is gone
  TaskStore tasks;
  m::CreateTaskResult created = tasks.start(m::TaskMetadata{.ttl = 60000}, [&gate] {
    gate.wait();
    return text_outcome("done");
  });
  const std::string id = created.task.taskId;
  EXPECT_FALSE(id.empty());
  EXPECT_EQ(created.task.status, m::TaskStatus::kWorking);
  ASSERT_TRUE(created.task.ttl.has_value());
  EXPECT_EQ(created.task.ttl.value(), 60000);
  EXPECT_EQ(created.task.pollInterval, 500);
  EXPECT_EQ(created.task.createdAt, created.task.lastUpdatedAt);
  EXPECT_THAT(created.task.createdAt,
              ::testing::MatchesRegex("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\\.[0-9]{3}Z"));
  EXPECT_EQ(tasks.get({.taskId = id}).status, m::TaskStatus::kWorking);

  // tasks/result blocks until the task ends (MUST), then answers the work's result with the
  // task named in its _meta.
  auto answered = std::async(std::launch::async, [&] { return tasks.result({.taskId = id}); });
  EXPECT_EQ(answered.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout);
  gate.open();
  m::TasksResultResult result = answered.get();
  EXPECT_EQ(result.at("content").get(), json::parse(R"([{"type": "text", "text": "done"}])"));
  EXPECT_EQ(result.at("_meta").get(),
            json::parse(R"({"io.modelcontextprotocol/related-task": {"taskId": ")" + id + "\"}}"));
  m::TasksGetResult got = tasks.get({.taskId = id});
  EXPECT_EQ(got.status, m::TaskStatus::kCompleted);
  EXPECT_FALSE(got._meta.has_value()) << "tasks/get SHOULD NOT carry related-task";
  // Asked again: the same answer.
  EXPECT_EQ(tasks.result({.taskId = id}).at("content").get(), result.at("content").get());
}

// As the generated bind routes it: the answer encoded from the result's map of members.
TEST(TaskStore, TasksResultIsEncodedAsTheRequestsResult) {
  TaskStore tasks;
  const std::string id = tasks.start({}, [] { return text_outcome("routed"); }).task.taskId;
  tasks.result({.taskId = id});  // ended
  rpckit::Router<m::ClientToServer> router;
  router.on<m::messages::TasksResult>(
      [&tasks](const m::TasksResultParams& p) { return tasks.result(p); });
  const json params = {{"taskId", id}};
  rpckit::RouteResult routed = router.route("tasks/result", &params);
  ASSERT_EQ(routed.status, rpckit::RouteResult::Status::kOk) << routed.error;
  EXPECT_EQ(routed.result.get().dump(),
            R"({"_meta":{"io.modelcontextprotocol/related-task":{"taskId":")" + id +
                R"("}},"content":[{"text":"routed","type":"text"}]})");
}

TEST(TaskStore, AFailureIsAFailedTaskAndItsErrorIsTasksResultsAnswer) {
  TaskStore tasks;
  const std::string tool_error = tasks
                                     .start({},
                                            [] {
                                              TaskOutcome outcome = text_outcome("no");
                                              outcome.failed = true;  // a tool's isError
                                              return outcome;
                                            })
                                     .task.taskId;
  const std::string thrown =
      tasks.start({}, []() -> TaskOutcome { throw RpcError(-32042, "needs a URL elicitation"); })
          .task.taskId;
  const std::string crashed =
      tasks.start({}, []() -> TaskOutcome { throw std::runtime_error("disk on fire"); })
          .task.taskId;

  // The tool's own error result is still its result: answered as a result, the task failed.
  EXPECT_EQ(tasks.result({.taskId = tool_error}).count("content"), 1u);
  EXPECT_EQ(tasks.get({.taskId = tool_error}).status, m::TaskStatus::kFailed);
  try {
    tasks.result({.taskId = thrown});
    ADD_FAILURE() << "expected the work's RpcError";
  } catch (const RpcError& e) {
    EXPECT_EQ(e.code(), -32042);
    EXPECT_EQ(e.message(), "needs a URL elicitation");
  }
  m::TasksGetResult failed = tasks.get({.taskId = thrown});
  EXPECT_EQ(failed.status, m::TaskStatus::kFailed);
  EXPECT_EQ(failed.statusMessage, "needs a URL elicitation");
  try {
    tasks.result({.taskId = crashed});
    ADD_FAILURE() << "expected -32603";
  } catch (const RpcError& e) {
    EXPECT_EQ(e.code(), -32603);
    EXPECT_THAT(e.message(), HasSubstr("disk on fire"));
  }
}

TEST(TaskStore, CancelStopsTheWorkAndTheTaskStaysCancelled) {
  TaskStore tasks;
  std::vector<m::NotificationsTasksStatusParams> reported;
  std::mutex reported_mutex;
  tasks.on_status([&](const m::NotificationsTasksStatusParams& status) {
    std::lock_guard lock(reported_mutex);
    reported.push_back(status);
  });
  std::promise<std::string> reason;
  const std::string id =
      tasks
          .start({},
                 [&reason] {
                   // As a request's handler waits: woken by the cancel.
                   EXPECT_TRUE(rpckit::this_request::wait_cancelled_for(std::chrono::minutes(5)));
                   reason.set_value(rpckit::this_request::cancellation()->reason());
                   return text_outcome("finished anyway");
                 })
          .task.taskId;
  auto waiting = std::async(std::launch::async, [&] { return tasks.result({.taskId = id}); });
  m::TasksCancelResult cancelled = tasks.cancel({.taskId = id});
  EXPECT_EQ(cancelled.status, m::TaskStatus::kCancelled);
  EXPECT_EQ(cancelled.statusMessage, "The task was cancelled by request.");
  EXPECT_EQ(reason.get_future().get(), "tasks/cancel");
  try {
    waiting.get();
    ADD_FAILURE() << "a cancelled task's tasks/result is an error";
  } catch (const RpcError& e) {
    EXPECT_EQ(e.code(), -32603);
    EXPECT_EQ(e.message(), "Task " + id + " was cancelled");
  }
  // Its work returned a result afterwards: the task is still cancelled (MUST).
  EXPECT_EQ(tasks.get({.taskId = id}).status, m::TaskStatus::kCancelled);
  // Cancelling a task in a terminal status is -32602 (MUST).
  EXPECT_EQ(error_code_of([&] { tasks.cancel({.taskId = id}); }), -32602);
  std::lock_guard lock(reported_mutex);
  ASSERT_EQ(reported.size(), 1u) << "the work's later result changes nothing";
  EXPECT_EQ(reported[0].taskId, id);
  EXPECT_EQ(reported[0].status, m::TaskStatus::kCancelled);
}

TEST(TaskStore, UnknownIdsAndCursorsAreInvalidParams) {
  TaskStore tasks;
  EXPECT_EQ(error_code_of([&] { tasks.get({.taskId = "nope"}); }), -32602);
  EXPECT_EQ(error_code_of([&] { tasks.result({.taskId = "nope"}); }), -32602);
  EXPECT_EQ(error_code_of([&] { tasks.cancel({.taskId = "nope"}); }), -32602);
  for (const char* cursor : {"", "x", "0", "1", "-1", "99"}) {
    EXPECT_EQ(error_code_of([&] { tasks.list({.cursor = std::string(cursor)}); }), -32602)
        << cursor;
  }
}

TEST(TaskStore, ListPagesInCreationOrder) {
  TaskStore::Options options;
  options.page_size = 2;
  TaskStore tasks(options);
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i)
    ids.push_back(tasks.start({}, [] { return text_outcome(""); }).task.taskId);
  std::vector<std::string> listed;
  std::optional<std::string> cursor;
  int pages = 0;
  do {
    m::TasksListResult page = tasks.list({.cursor = cursor});
    for (const m::Task& task : page.tasks) listed.push_back(task.taskId);
    cursor = page.nextCursor;
    ++pages;
  } while (cursor && pages < 10);
  EXPECT_EQ(listed, ids);
  EXPECT_EQ(pages, 3);
}

TEST(TaskStore, TheTtlIsCutToTheMaximumAndAnEndedTaskIsForgottenAfterIt) {
  TaskStore::Options options;
  options.max_ttl = std::chrono::milliseconds(20);
  TaskStore tasks(options);
  m::CreateTaskResult created =
      tasks.start(m::TaskMetadata{.ttl = 3600000}, [] { return text_outcome("soon gone"); });
  EXPECT_EQ(created.task.ttl.value(), 20) << "the receiver MAY override the ttl";
  const std::string id = created.task.taskId;
  tasks.result({.taskId = id});  // ended
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  EXPECT_EQ(error_code_of([&] { tasks.get({.taskId = id}); }), -32602);
  EXPECT_EQ(tasks.size(), 0u);
}

TEST(TaskStore, AtMostMaxTasksKeptAndRunningAndACancelledOneMakesRoom) {
  Gate gate;  // before the store: its works wait on it until the store is gone
  TaskStore::Options options;
  options.max_tasks = 2;
  TaskStore tasks(options);
  auto gated = [&gate] {
    gate.wait();  // deaf to tasks/cancel: its thread runs on after the task is cancelled
    return text_outcome("");
  };
  auto refused = [&tasks](const std::string& why) {
    try {
      tasks.start({}, [] { return text_outcome(""); });
      ADD_FAILURE() << "a third task";
    } catch (const RpcError& e) {
      EXPECT_EQ(e.code(), -32603);
      EXPECT_THAT(e.message(), HasSubstr(why));
    }
  };
  const std::string first = tasks.start({}, gated).task.taskId;
  tasks.start({}, gated);
  refused("Too many tasks: 2 kept");
  // Cancelled, the first makes room among the kept tasks, but its work still runs.
  tasks.cancel({.taskId = first});
  refused("Too many tasks: 2 still running");
  EXPECT_EQ(error_code_of([&] { tasks.get({.taskId = first}); }), -32602) << "made room";
  EXPECT_EQ(tasks.size(), 1u) << "the refused one is not kept";
  gate.open();
  // Once both works have returned (their threads end just after): room to run.
  std::string next;
  for (int i = 0; i < 2000 && next.empty(); ++i) {
    try {
      next = tasks.start({}, [] { return text_outcome(""); }).task.taskId;
    } catch (const RpcError& e) {
      ASSERT_THAT(e.message(), HasSubstr("still running"));
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  ASSERT_FALSE(next.empty());
  // An ended task is kept for its ttl, not dropped for a new one.
  tasks.result({.taskId = next});
  refused("Too many tasks: 2 kept");
}

// The work knows its task (this_task), and what it sends names it; elsewhere nothing does.
TEST(TaskStore, TheWorkKnowsItsTaskAndRelatesWhatItSends) {
  EXPECT_FALSE(rpckit::mcp::this_task::id().has_value());
  std::optional<m::Meta> outside;
  rpckit::mcp::this_task::relate(outside);
  EXPECT_FALSE(outside.has_value());
  TaskStore tasks;
  std::promise<std::pair<std::optional<std::string>, std::optional<m::Meta>>> seen;
  const std::string id = tasks
                             .start({},
                                    [&seen] {
                                      std::optional<m::Meta> meta = m::Meta{{"k", json(1)}};
                                      rpckit::mcp::this_task::relate(meta);
                                      seen.set_value({rpckit::mcp::this_task::id(), meta});
                                      return text_outcome("");
                                    })
                             .task.taskId;
  auto [task_id, meta] = seen.get_future().get();
  EXPECT_EQ(task_id, id);
  ASSERT_TRUE(meta.has_value());
  EXPECT_EQ(meta->at("k").get(), json(1)) << "what was there stays";
  EXPECT_EQ(meta->at("io.modelcontextprotocol/related-task").get(), json({{"taskId", id}}));
  EXPECT_EQ(id.size(), 32u) << "128 random bits, in hex";
}

// result() takes over the reply only of tasks/result's own handler: called from another
// request's handler (a tools/call that waits on a task), it waits instead.
TEST(TaskStore, ResultDefersOnlyTheReplyOfATasksResult) {
  Gate gates[2];  // one per round, before the store
  TaskStore tasks;
  int round = 0;
  for (const char* method : {"tools/call", "tasks/result"}) {
    Gate& gate = gates[round++];
    const std::string id = tasks
                               .start({},
                                      [&gate] {
                                        gate.wait();
                                        return text_outcome("waited");
                                      })
                               .task.taskId;
    int deferred = 0;
    const std::function<rpckit::Reply()> deferrer = [&deferred] {
      ++deferred;
      return rpckit::Reply();  // nothing to answer through: result() waits
    };
    std::thread opener([&gate] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      gate.open();
    });
    {
      rpckit::detail::CurrentRequestScope handler(nullptr, &deferrer, method);
      EXPECT_EQ(tasks.result({.taskId = id}).at("content").get()[0]["text"], "waited") << method;
    }
    opener.join();
    EXPECT_EQ(deferred, std::string(method) == "tasks/result" ? 1 : 0) << method;
  }
}

TEST(TaskStore, TheDestructorCancelsWhatStillRunsAndWaitsForIt) {
  std::atomic<bool> saw_cancel{false};
  {
    TaskStore tasks;
    tasks.start({}, [&saw_cancel] {
      saw_cancel = rpckit::this_request::wait_cancelled_for(std::chrono::minutes(5));
      return text_outcome("");
    });
  }
  EXPECT_TRUE(saw_cancel);
}

// Tool-level negotiation (tasks spec): forbidden (the default) and required.
TEST(ToolSetTasks, ATaskCallRunsTheToolWhoseTaskSupportAllowsIt) {
  rpckit::mcp::ToolSet tools;
  auto tool = [](const std::string& name, std::optional<m::ToolExecutionTaskSupport> support) {
    m::Tool t;
    t.name = name;
    if (support) t.execution = m::ToolExecution{.taskSupport = support};
    return t;
  };
  auto says = [](const std::string& text) {
    return [text](const m::ToolsCallParams&) { return rpckit::mcp::text_result(text); };
  };
  tools.add(tool("plain", std::nullopt), says("plain"));
  tools.add(tool("forbidden", m::ToolExecutionTaskSupport::kForbidden), says("forbidden"));
  tools.add(tool("optional", m::ToolExecutionTaskSupport::kOptional), says("optional"));
  tools.add(tool("required", m::ToolExecutionTaskSupport::kRequired),
            [](const m::ToolsCallParams&) { return rpckit::mcp::tool_error("it broke"); });
  TaskStore tasks;
  auto as_task = [](const std::string& name) {
    m::ToolsCallParams p;
    p.name = name;
    p.task = m::TaskMetadata{};
    return p;
  };
  for (const char* name : {"plain", "forbidden"}) {
    try {
      tools.call_as_task(as_task(name), tasks);
      ADD_FAILURE() << name;
    } catch (const RpcError& e) {
      EXPECT_EQ(e.code(), -32601) << name;
      EXPECT_EQ(e.message(), std::string("Tool ") + name +
                                 " cannot be called as a task (execution.taskSupport)");
    }
  }
  EXPECT_EQ(error_code_of([&] { tools.call_as_task(as_task("missing"), tasks); }), -32602);
  EXPECT_EQ(tasks.size(), 0u) << "a refused call makes no task";

  const std::string optional = tools.call_as_task(as_task("optional"), tasks).task.taskId;
  EXPECT_EQ(tasks.result({.taskId = optional}).at("content").get()[0]["text"], "optional");
  EXPECT_EQ(tasks.get({.taskId = optional}).status, m::TaskStatus::kCompleted);
  const std::string required = tools.call_as_task(as_task("required"), tasks).task.taskId;
  EXPECT_EQ(tasks.result({.taskId = required}).at("isError").get(), true);
  EXPECT_EQ(tasks.get({.taskId = required}).status, m::TaskStatus::kFailed)
      << "a tool result with isError is a failed task";

  // Called plainly by a server that declared tasks.requests.tools.call: required is -32601
  // (MUST), optional answers. Without the declaration taskSupport does not bind (the default:
  // mcp.ToolSet.ATaskCallIsServedAsAPlainCallWhateverTheToolsTaskSupport).
  m::ToolsCallParams plain;
  plain.name = "required";
  EXPECT_EQ(tools.call(plain).isError, true) << "not declared: served";
  tools.declare_tasks(true);
  EXPECT_EQ(error_code_of([&] { tools.call(plain); }), -32601);
  plain.name = "optional";
  EXPECT_EQ(tools.call(plain).content.size(), 1u);
}

// The router takes a handler per x-result-when descriptor: the params that carry its member go
// to it; declined (nullopt), or without the member, to the request's own handler.
TEST(RouterResultWhen, TheParamsChooseTheHandlerAndADeclinedOneFallsBack) {
  rpckit::Router<m::ClientToServer> router;
  bool take_tasks = true;
  router.on<m::messages::ToolsCall>(
      [](const m::ToolsCallParams& p) { return rpckit::mcp::text_result("plain " + p.name); });
  router.on<m::messages::ToolsCallWithTask>(
      [&take_tasks](const m::ToolsCallParams& p) -> std::optional<m::CreateTaskResult> {
        if (!take_tasks) return std::nullopt;
        m::CreateTaskResult r;
        r.task.taskId = "for " + p.name;
        return r;
      });
  const json as_task = json::parse(R"({"name": "t", "task": {"ttl": 5}})");
  const json plain = json::parse(R"({"name": "t"})");
  const json null_task = json::parse(R"({"name": "t", "task": null})");
  EXPECT_EQ(router.route("tools/call", &as_task).result.get()["task"]["taskId"], "for t");
  EXPECT_EQ(router.route("tools/call", &plain).result.get()["content"][0]["text"], "plain t");
  // The schema's task is an object: null is refused by the decoder, before any choice.
  rpckit::RouteResult null_routed = router.route("tools/call", &null_task);
  EXPECT_EQ(null_routed.status, rpckit::RouteResult::Status::kInvalidParams);
  EXPECT_EQ(null_routed.error, "tools/call: params.task: expected object, got null");
  take_tasks = false;
  EXPECT_EQ(router.route("tools/call", &as_task).result.get()["content"][0]["text"], "plain t");
  // Registered again: replaced, not added.
  router.on<m::messages::ToolsCallWithTask>([](const m::ToolsCallParams&) {
    m::CreateTaskResult r;
    r.task.taskId = "second";
    return r;
  });
  EXPECT_EQ(router.route("tools/call", &as_task).result.get()["task"]["taskId"], "second");
  // A copy routes alike.
  rpckit::Router<m::ClientToServer> copy = router;
  EXPECT_EQ(copy.route("tools/call", &as_task).result.get()["task"]["taskId"], "second");
  // Bad params: the decoder's error, before any handler.
  const json bad = json::parse(R"({"name": 1, "task": {}})");
  rpckit::RouteResult refused = router.route("tools/call", &bad);
  EXPECT_EQ(refused.status, rpckit::RouteResult::Status::kInvalidParams);
  EXPECT_THAT(refused.error, HasSubstr("params.name"));
}

TEST(RouterResultWhen, WithOnlyTheTaskHandlerPlainParamsHaveNone) {
  rpckit::Router<m::ClientToServer> router;
  router.on<m::messages::ToolsCallWithTask>(
      [](const m::ToolsCallParams&) { return m::CreateTaskResult{}; });
  EXPECT_TRUE(router.has_handler("tools/call"));
  const json as_task = json::parse(R"({"name": "t", "task": {}})");
  const json plain = json::parse(R"({"name": "t"})");
  EXPECT_EQ(router.route("tools/call", &as_task).status, rpckit::RouteResult::Status::kOk);
  rpckit::RouteResult none = router.route("tools/call", &plain);
  EXPECT_EQ(none.status, rpckit::RouteResult::Status::kNoHandler);
  EXPECT_EQ(none.error, "no handler for \"tools/call\" with these params");
}

}  // namespace
