#include "rpckit/mcp/task_store.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <utility>

#include "mcp_2025_11_25/messages.hpp"
#include "rpckit/endpoint/cancellation.hpp"
#include "rpckit/endpoint/reply.hpp"
#include "rpckit/mcp/cursor.hpp"

namespace rpckit::mcp {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::string_view kRelatedTask = "io.modelcontextprotocol/related-task";

// RFC 3339 UTC with milliseconds: what createdAt and lastUpdatedAt carry.
std::string now_iso8601() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  const std::size_t length = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  char fraction[8];
  std::snprintf(fraction, sizeof fraction, ".%03dZ", static_cast<int>(millis));
  return std::string(text, length) + fraction;
}

// 128 random bits, as hex: not guessable from another task's id (the spec's MUST where tasks are
// not bound to a session; the TypeScript SDK's are 16 random bytes too).
std::string random_id() {
  std::random_device device;
  std::string id;
  for (int i = 0; i < 4; ++i) {
    char word[9];
    std::snprintf(word, sizeof word, "%08x", static_cast<unsigned>(device()));
    id += word;
  }
  return id;
}

// The task whose work runs on this thread (this_task).
thread_local const std::string* current_task_id = nullptr;

bool is_terminal(const m::TaskStatus& status) {
  return status == m::TaskStatus::kCompleted || status == m::TaskStatus::kFailed ||
         status == m::TaskStatus::kCancelled;
}

// tasks/get, tasks/cancel and notifications/tasks/status carry the Task flattened.
template <class Result>
Result flattened(const m::Task& task) {
  Result r;
  r.taskId = task.taskId;
  r.status = task.status;
  r.statusMessage = task.statusMessage;
  r.createdAt = task.createdAt;
  r.lastUpdatedAt = task.lastUpdatedAt;
  r.ttl = task.ttl;
  r.pollInterval = task.pollInterval;
  return r;
}

RpcError not_found(const std::string& task_id) {
  return RpcError(jsonrpc_code::kInvalidParams, "Task not found: " + task_id);
}

RpcError was_cancelled(const std::string& task_id) {
  return RpcError(jsonrpc_code::kInternalError, "Task " + task_id + " was cancelled");
}

}  // namespace

namespace this_task {

std::optional<std::string> id() {
  if (current_task_id == nullptr) return std::nullopt;
  return *current_task_id;
}

void relate(std::optional<m::Meta>& meta) {
  if (current_task_id == nullptr) return;
  if (!meta) meta.emplace();
  (*meta)[std::string(kRelatedTask)] = JsonValue(nlohmann::json{{"taskId", *current_task_id}});
}

}  // namespace this_task

struct TaskStore::Entry {
  std::uint64_t order = 0;
  m::Task task;
  Clock::time_point forget_after = Clock::time_point::max();
  std::shared_ptr<Cancellation> cancellation = std::make_shared<Cancellation>();
  std::optional<TaskOutcome> outcome;  // set when its work ended (unless cancelled first)
  std::vector<Reply> waiters;          // deferred tasks/result
};

TaskStore::TaskStore(Options options) : options_(options) {}

TaskStore::~TaskStore() {
  {
    std::unique_lock lock(mutex_);
    stopping_ = true;
    for (auto& [order, entry] : entries_) {
      if (!is_terminal(entry->task.status)) entry->cancellation->request("the server is stopping");
    }
    changed_.notify_all();
    changed_.wait(lock, [this] { return blocked_ == 0; });  // they leave, and touch us no more
  }
  // Joined without the runners' lock: a work may still start a task (refused: stopping).
  for (;;) {
    std::vector<Runner> runners;
    {
      std::lock_guard lock(runners_mutex_);
      runners.swap(runners_);
    }
    if (runners.empty()) break;
    for (Runner& runner : runners) runner.thread.join();
  }
}

void TaskStore::on_status(StatusObserver fn) {
  std::lock_guard lock(mutex_);
  on_status_ = std::move(fn);
}

m::CreateTaskResult TaskStore::start(const m::TaskMetadata& requested, Work work) {
  std::shared_ptr<Entry> entry = std::make_shared<Entry>();
  m::CreateTaskResult created;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) throw RpcError(jsonrpc_code::kInternalError, "the server is stopping");
    forget_expired();
    if (entries_.size() >= options_.max_tasks && !make_room()) {
      throw RpcError(jsonrpc_code::kInternalError,
                     "Too many tasks: " + std::to_string(entries_.size()) + " kept");
    }
    std::chrono::milliseconds ttl = options_.default_ttl;
    if (requested.ttl) {
      ttl = std::clamp(std::chrono::milliseconds(*requested.ttl), std::chrono::milliseconds(0),
                       options_.max_ttl);
    }
    entry->order = next_order_++;
    do {
      entry->task.taskId = random_id();
    } while (ids_.count(entry->task.taskId) != 0);
    entry->task.status = m::TaskStatus::kWorking;
    entry->task.createdAt = now_iso8601();
    entry->task.lastUpdatedAt = entry->task.createdAt;
    entry->task.ttl = static_cast<std::int64_t>(ttl.count());
    entry->task.pollInterval = static_cast<std::int64_t>(options_.poll_interval.count());
    entry->forget_after = Clock::now() + ttl;
    entries_.emplace(entry->order, entry);
    ids_.emplace(entry->task.taskId, entry->order);
    created.task = entry->task;
  }
  launch(entry, std::move(work));
  return created;
}

void TaskStore::launch(const std::shared_ptr<Entry>& entry, Work work) {
  std::string refused;
  {
    std::lock_guard lock(runners_mutex_);
    const std::size_t running = reap_runners();
    if (running >= options_.max_tasks) {
      refused = "Too many tasks: " + std::to_string(running) + " still running";
    } else {
      try {
        runners_.reserve(runners_.size() + 1);  // so that push_back cannot throw below
        auto done = std::make_shared<std::atomic<bool>>(false);
        std::thread thread([this, entry, work = std::move(work), done] {
          run(entry, work);
          done->store(true, std::memory_order_release);
        });
        runners_.push_back({std::move(thread), std::move(done)});
      } catch (const std::exception& e) {
        refused = std::string("Cannot start a task: ") + e.what();
      }
    }
  }
  if (refused.empty()) return;
  {
    std::lock_guard lock(mutex_);
    forget(entry->order);
  }
  throw RpcError(jsonrpc_code::kInternalError, refused);
}

void TaskStore::run(const std::shared_ptr<Entry>& entry, const Work& work) {
  TaskOutcome outcome;
  try {
    // The work sees tasks/cancel as a request's handler sees notifications/cancelled; it has
    // no reply to defer.
    rpckit::detail::CurrentRequestScope current(entry->cancellation);
    current_task_id = &entry->task.taskId;  // set once, before the work: never written again
    outcome = work();
  } catch (const RpcError& e) {
    outcome.error = e;
  } catch (const std::exception& e) {
    outcome.error =
        RpcError(jsonrpc_code::kInternalError, std::string("Internal error in task: ") + e.what());
  } catch (...) {
    outcome.error = RpcError(jsonrpc_code::kInternalError, "Internal error in task");
  }
  current_task_id = nullptr;
  finish(entry, std::move(outcome));
}

// What tasks/result answers for an ended task: the request's result with the task named in its
// _meta, or the error it would have answered.
static JsonValue answer_of(const m::Task& task, const TaskOutcome& outcome) {
  nlohmann::json result =
      outcome.result.get().is_object() ? outcome.result.get() : nlohmann::json::object();
  nlohmann::json& meta = result["_meta"];
  if (!meta.is_object()) meta = nlohmann::json::object();
  meta[std::string(kRelatedTask)] = {{"taskId", task.taskId}};
  return JsonValue(std::move(result));
}

void TaskStore::finish(const std::shared_ptr<Entry>& entry, TaskOutcome outcome) {
  std::vector<Reply> waiters;
  m::Task changed;
  StatusObserver on_status;
  {
    std::lock_guard lock(mutex_);
    if (entry->task.status == m::TaskStatus::kCancelled) return;  // stays cancelled
    const bool failed = outcome.error.has_value() || outcome.failed;
    entry->task.status = failed ? m::TaskStatus::kFailed : m::TaskStatus::kCompleted;
    entry->task.statusMessage = outcome.status_message;
    if (!entry->task.statusMessage && outcome.error)
      entry->task.statusMessage = outcome.error->message();
    entry->task.lastUpdatedAt = now_iso8601();
    entry->outcome = std::move(outcome);
    waiters = std::move(entry->waiters);
    changed = entry->task;
    on_status = on_status_;
  }
  changed_.notify_all();
  if (!waiters.empty()) {
    const TaskOutcome& ended = *entry->outcome;  // no longer written: read without the lock
    const std::optional<JsonValue> answer =
        ended.error ? std::nullopt : std::optional<JsonValue>(answer_of(changed, ended));
    for (Reply& reply : waiters) {
      if (ended.error) {
        reply.error(*ended.error);
      } else {
        reply.result(*answer);
      }
    }
  }
  if (on_status) on_status(flattened<m::NotificationsTasksStatusParams>(changed));
}

m::TasksGetResult TaskStore::get(const m::TasksGetParams& params) const {
  std::lock_guard lock(mutex_);
  forget_expired();
  std::shared_ptr<Entry> entry = find(params.taskId);
  if (!entry) throw not_found(params.taskId);
  return flattened<m::TasksGetResult>(entry->task);
}

m::TasksResultResult TaskStore::result(const m::TasksResultParams& params) {
  std::unique_lock lock(mutex_);
  forget_expired();
  std::shared_ptr<Entry> entry = find(params.taskId);
  if (!entry) throw not_found(params.taskId);
  if (!is_terminal(entry->task.status)) {
    // Only tasks/result's own reply is taken over; any other caller waits.
    if (this_request::method() == m::messages::TasksResult::kMethod) {
      Reply reply = this_request::defer();
      if (reply.pending()) {
        // Answered by finish() or cancel(); a waiter whose request the peer withdrew makes room.
        std::erase_if(entry->waiters, [](const Reply& waiter) {
          return waiter.cancellation() && waiter.cancellation()->requested();
        });
        if (entry->waiters.size() >= options_.max_waiters) {
          lock.unlock();
          reply.error(RpcError(jsonrpc_code::kInternalError,
                               "Too many tasks/result waiting on task " + params.taskId));
          return {};
        }
        entry->waiters.push_back(std::move(reply));
        return {};
      }
    }
    ++blocked_;
    changed_.wait(lock, [&] { return is_terminal(entry->task.status) || stopping_; });
    --blocked_;
    if (stopping_) changed_.notify_all();  // the destructor waits for the last one to leave
    if (!is_terminal(entry->task.status)) {
      throw RpcError(jsonrpc_code::kInternalError, "the server is stopping");
    }
  }
  if (entry->task.status == m::TaskStatus::kCancelled) throw was_cancelled(params.taskId);
  if (entry->outcome->error) throw RpcError(*entry->outcome->error);
  m::TasksResultResult out;
  const JsonValue answer = answer_of(entry->task, *entry->outcome);
  for (const auto& [key, value] : answer.get().items()) {
    out.emplace(key, JsonValue(value));
  }
  return out;
}

m::TasksListResult TaskStore::list(const m::TasksListParams& params) const {
  std::lock_guard lock(mutex_);
  forget_expired();
  const std::uint64_t after = cursor_after(params.cursor, next_order_);
  m::TasksListResult out;
  for (auto it = entries_.upper_bound(after); it != entries_.end(); ++it) {
    if (options_.page_size != 0 && out.tasks.size() == options_.page_size) {
      out.nextCursor = std::to_string(std::prev(it)->first);  // the last one sent
      break;
    }
    out.tasks.push_back(it->second->task);
  }
  return out;
}

m::TasksCancelResult TaskStore::cancel(const m::TasksCancelParams& params) {
  std::vector<Reply> waiters;
  m::Task changed;
  StatusObserver on_status;
  {
    std::lock_guard lock(mutex_);
    forget_expired();
    std::shared_ptr<Entry> entry = find(params.taskId);
    if (!entry) throw not_found(params.taskId);
    if (is_terminal(entry->task.status)) {
      throw RpcError(jsonrpc_code::kInvalidParams, "Cannot cancel task in terminal status: " +
                                                       std::string(entry->task.status.wire()));
    }
    entry->task.status = m::TaskStatus::kCancelled;
    entry->task.statusMessage = "The task was cancelled by request.";
    entry->task.lastUpdatedAt = now_iso8601();
    entry->cancellation->request("tasks/cancel");
    waiters = std::move(entry->waiters);
    changed = entry->task;
    on_status = on_status_;
  }
  changed_.notify_all();
  for (Reply& reply : waiters) reply.error(was_cancelled(params.taskId));
  if (on_status) on_status(flattened<m::NotificationsTasksStatusParams>(changed));
  return flattened<m::TasksCancelResult>(changed);
}

std::size_t TaskStore::size() const {
  std::lock_guard lock(mutex_);
  forget_expired();
  return entries_.size();
}

std::shared_ptr<TaskStore::Entry> TaskStore::find(const std::string& task_id) const {
  auto id = ids_.find(task_id);
  return id == ids_.end() ? nullptr : entries_.at(id->second);
}

void TaskStore::forget(std::uint64_t order) const {
  auto it = entries_.find(order);
  if (it == entries_.end()) return;
  ids_.erase(it->second->task.taskId);
  entries_.erase(it);
}

// An ended task past its ttl; one still running is kept until it ends (its work holds it).
void TaskStore::forget_expired() const {
  const Clock::time_point now = Clock::now();
  std::vector<std::uint64_t> expired;
  for (const auto& [order, entry] : entries_) {
    if (is_terminal(entry->task.status) && entry->forget_after <= now) expired.push_back(order);
  }
  for (std::uint64_t order : expired) forget(order);
}

// The oldest cancelled task goes to make room for a new one (the spec lets a receiver delete
// those at any time; a result is kept for the ttl it was given); false when there is none.
bool TaskStore::make_room() {
  for (const auto& [order, entry] : entries_) {
    if (entry->task.status == m::TaskStatus::kCancelled) {
      forget(order);
      return true;
    }
  }
  return false;
}

// With runners_mutex_ held.
std::size_t TaskStore::reap_runners() {
  std::erase_if(runners_, [](Runner& runner) {
    if (!runner.done->load(std::memory_order_acquire)) return false;
    runner.thread.join();
    return true;
  });
  return runners_.size();
}

}  // namespace rpckit::mcp
