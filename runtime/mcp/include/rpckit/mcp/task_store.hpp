#pragma once
// rpckit::mcp::TaskStore: the tasks an MCP receiver runs for its task-augmented requests
// (basic/utilities/tasks). start() runs a request's work on a thread of its own and gives the
// CreateTaskResult to answer the request with; get(), result(), list() and cancel() answer
// tasks/get, tasks/result, tasks/list and tasks/cancel.
//
//   rpckit::mcp::TaskStore tasks;
//   std::optional<CreateTaskResult> tools_call_with_task(Peer&, const ToolsCallParams& p) override
//   {
//     return tools.call_as_task(p, tasks);      // ToolSet: the tool's execution.taskSupport
//   }
//   TasksGetResult tasks_get(Peer&, const TasksGetParams& p) override { return tasks.get(p); }
//   TasksResultResult tasks_result(Peer&, const TasksResultParams& p) override {
//     return tasks.result(p);
//   }
//
// - tasks/result of a task still running is answered when it ends: called from tasks/result's
//   own handler, result() defers its reply (rpckit::this_request::defer()), so the endpoint goes
//   on serving the peer (its tasks/get, its tasks/cancel) meanwhile; called from anywhere else,
//   it waits. The answer is what the request would have answered, a result (with
//   io.modelcontextprotocol/related-task in its _meta) or its JSON-RPC error.
// - The work runs as a request's handler does: rpckit::this_request::cancelled() and
//   wait_cancelled_for() see tasks/cancel, and this_task::relate() adds the related-task key to
//   what it sends (rpckit::mcp::Progress does). A cancelled task stays cancelled whatever its
//   work then returns; its tasks/result is -32603 ("Task ... was cancelled", the words of the
//   TypeScript SDK's client).
// - Bounded: at most Options::max_tasks tasks are kept and at most as many works run. A
//   cancelled task makes room at once; an ended one is kept for its ttl, then forgotten. When
//   full, start() throws -32603. At most max_waiters deferred tasks/result wait on one task.
//   Unknown or forgotten ids are -32602. Task ids are 128 random bits.
// - The destructor cancels the tasks still running and waits for their work to return, and for
//   the result() calls that wait; none may begin once it has.
//
// Thread-safe. on_status's function gets the params of notifications/tasks/status (the whole
// Task) when a task ends or is cancelled, on the thread that changed it (its work's, or the one
// answering tasks/cancel), with no lock held.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "mcp_2025_11_25/types.hpp"
#include "rpckit/endpoint/rpc_error.hpp"
#include "rpckit/values/json_value.hpp"

namespace rpckit::mcp {

namespace m = ::mcp::v2025_11_25;

// The task whose work runs on the calling thread (set by TaskStore for the length of the work).
namespace this_task {
// Its id; none outside a task's work.
std::optional<std::string> id();
// Adds io.modelcontextprotocol/related-task ({taskId}) to `meta` when a task's work runs here:
// the spec's MUST for every request, notification and response related to a task.
void relate(std::optional<m::Meta>& meta);
}  // namespace this_task

// What a task's work ends with: the result its request would have answered (an object), or the
// JSON-RPC error it would have answered. `failed` marks a result that reports a failure (a
// tool's isError: the task is then failed, not completed).
struct TaskOutcome {
  JsonValue result;
  std::optional<RpcError> error;
  bool failed = false;
  std::optional<std::string> status_message;
};

class TaskStore {
 public:
  struct Options {
    std::chrono::milliseconds default_ttl{std::chrono::minutes(5)};  // none requested
    std::chrono::milliseconds max_ttl{std::chrono::hours(1)};        // a longer one is cut
    std::chrono::milliseconds poll_interval{500};                    // suggested to pollers
    std::size_t max_tasks = 100;                                     // kept, and running
    std::size_t max_waiters = 8;  // deferred tasks/result waiting on one task
    std::size_t page_size = 50;   // tasks/list
  };
  // The work of one task. An RpcError it throws is its request's error; any other exception,
  // -32603 naming it.
  using Work = std::function<TaskOutcome()>;

  TaskStore() : TaskStore(Options{}) {}
  explicit TaskStore(Options options);
  ~TaskStore();
  TaskStore(const TaskStore&) = delete;
  TaskStore& operator=(const TaskStore&) = delete;

  using StatusObserver = std::function<void(const m::NotificationsTasksStatusParams&)>;
  void on_status(StatusObserver fn);

  // A task for a request whose params carried `requested`, running `work`: the result to answer
  // the request with (status working, the ttl granted, the poll interval).
  m::CreateTaskResult start(const m::TaskMetadata& requested, Work work);

  m::TasksGetResult get(const m::TasksGetParams& params) const;
  m::TasksResultResult result(const m::TasksResultParams& params);
  m::TasksListResult list(const m::TasksListParams& params) const;
  m::TasksCancelResult cancel(const m::TasksCancelParams& params);

  // Tasks kept (running or ended, not yet forgotten).
  std::size_t size() const;

 private:
  struct Entry;
  struct Runner {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };

  // Runs `work` for `entry` on a new thread; throws -32603 (the entry forgotten) if none starts.
  void launch(const std::shared_ptr<Entry>& entry, Work work);
  void run(const std::shared_ptr<Entry>& entry, const Work& work);
  void finish(const std::shared_ptr<Entry>& entry, TaskOutcome outcome);
  // With the lock held:
  std::shared_ptr<Entry> find(const std::string& task_id) const;
  void forget(std::uint64_t order) const;
  void forget_expired() const;
  bool make_room();
  // With runners_mutex_ held: joins the runners whose work has returned; how many still run.
  std::size_t reap_runners();

  const Options options_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;  // a task ended, or a blocked result() left
  mutable std::map<std::uint64_t, std::shared_ptr<Entry>> entries_;  // by creation
  mutable std::map<std::string, std::uint64_t> ids_;
  std::uint64_t next_order_ = 1;
  bool stopping_ = false;
  std::size_t blocked_ = 0;  // result() calls waiting without a deferred reply
  StatusObserver on_status_;
  std::mutex runners_mutex_;
  std::vector<Runner> runners_;
};

}  // namespace rpckit::mcp
