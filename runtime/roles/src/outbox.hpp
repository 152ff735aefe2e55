#pragma once
// Outbox: the sender thread of one supervised plugin. Lifecycle writes (the handshake, health
// checks, shutdown, deferred replies' jobs) run in the order they were given; events queue,
// bounded, and go out drained into one write. A plugin that stops reading blocks only this
// thread, never the control thread or another plugin. Thread-safe.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include "rpckit/endpoint/endpoint.hpp"

namespace rpckit::roles::detail {

class Outbox {
 public:
  explicit Outbox(std::size_t max_events);
  ~Outbox();  // the queued are dropped; a write under way is let finish (the caller kills first)
  Outbox(const Outbox&) = delete;
  Outbox& operator=(const Outbox&) = delete;

  // Runs `job` on the sender thread, ahead of queued events.
  void run_in_order(std::function<void()> job);
  // Events go to `endpoint` from now on (the plugin runs), or are refused (nullptr: it stopped;
  // those still queued are dropped, never replayed to a later process).
  void open(std::shared_ptr<Endpoint> endpoint);
  void close();
  bool is_open() const;
  enum class Push { kQueued, kFull, kClosed };
  Push push(std::string_view method, std::shared_ptr<const std::string> params_json);

 private:
  void loop();

  const std::size_t max_events_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool quit_ = false;
  std::shared_ptr<Endpoint> endpoint_;  // while open
  std::deque<std::pair<std::string, std::shared_ptr<const std::string>>> events_;
  std::deque<std::function<void()>> jobs_;
  std::thread thread_;
};

}  // namespace rpckit::roles::detail
