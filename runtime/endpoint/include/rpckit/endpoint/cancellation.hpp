#pragma once
// Cancellation: a request its peer has cancelled, as the handler answering it sees it.
//
// A protocol whose profile names a cancel notification ("cancel": MCP's notifications/cancelled)
// lets the peer withdraw a request it sent. The endpoint reads that notification on its reading
// thread, so it reaches a handler that is busy (a long tool): the request's Cancellation is
// marked, a handler that looks (this_request::cancelled(), or waits with wait_for()) stops
// early, and whatever it answers is not sent, as the peer no longer waits for it. A handler
// that never looks runs to its end; only its answer is dropped.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace rpckit {

class Reply;  // reply.hpp: this_request::defer() is declared there

class Cancellation {
 public:
  // Whether the peer has cancelled the request.
  bool requested() const { return requested_.load(std::memory_order_acquire); }
  // The reason the peer gave (empty when none, or not cancelled).
  std::string reason() const;
  // Waits at most `timeout`; true as soon as the request is cancelled (at once if it was).
  // What a long handler sleeps in between its steps.
  bool wait_for(std::chrono::milliseconds timeout) const;
  // Marks the request cancelled and wakes wait_for(); the first reason stays.
  void request(std::string reason);

 private:
  std::atomic<bool> requested_{false};
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::string reason_;
};

// The request whose handler runs on the calling thread: typed handlers take no context
// argument, so they ask here. Outside a request's handler (a notification's, another thread,
// a protocol without cancel rules) there is none: nothing is ever cancelled.
namespace this_request {

// Its Cancellation, to hand to work that outlives the handler (a deferred Reply's worker);
// null when there is none.
std::shared_ptr<const Cancellation> cancellation();
bool cancelled();
// Sleeps at most `timeout`, waking early when the request is cancelled: true when it was.
bool wait_cancelled_for(std::chrono::milliseconds timeout);
// Its method ("" when none): for code that may only act on a request of its own kind (MCP's
// TaskStore defers only a tasks/result's reply).
std::string_view method();

}  // namespace this_request

namespace detail {
// Sets the calling thread's current request for the lifetime of the scope (restoring the one
// before: a handler waiting in call() runs nested ones): its cancellation, and, for a request
// whose handler runs, its method and how to take over its answer (`deferrer`; null where
// nothing may defer: a notification, a completion, a task's work). Both must outlive the scope.
class CurrentRequestScope {
 public:
  explicit CurrentRequestScope(std::shared_ptr<const Cancellation> cancellation,
                               const std::function<Reply()>* deferrer = nullptr,
                               std::string_view method = {});
  ~CurrentRequestScope();
  CurrentRequestScope(const CurrentRequestScope&) = delete;
  CurrentRequestScope& operator=(const CurrentRequestScope&) = delete;

 private:
  std::shared_ptr<const Cancellation> previous_;
  const std::function<Reply()>* previous_deferrer_;
  std::string_view previous_method_;
};
// The deferrer of the request whose handler runs on this thread (null when none).
const std::function<Reply()>* current_deferrer();
}  // namespace detail

}  // namespace rpckit
