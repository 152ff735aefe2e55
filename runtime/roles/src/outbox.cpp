#include "outbox.hpp"

#include <vector>

#include "rpckit/framing/fd_io.hpp"

namespace rpckit::roles::detail {

Outbox::Outbox(std::size_t max_events) : max_events_(max_events) {
  thread_ = std::thread([this] {
    framing::block_sigpipe_in_this_thread();  // ours: its writes need no per-write guard
    loop();
  });
}

Outbox::~Outbox() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
    endpoint_.reset();
  }
  wake_.notify_all();
  thread_.join();
}

void Outbox::run_in_order(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    if (quit_) return;
    jobs_.push_back(std::move(job));
  }
  wake_.notify_all();
}

void Outbox::open(std::shared_ptr<Endpoint> endpoint) {
  std::lock_guard lock(mutex_);
  endpoint_ = std::move(endpoint);
}

void Outbox::close() {
  std::lock_guard lock(mutex_);
  endpoint_.reset();
  events_.clear();
}

bool Outbox::is_open() const {
  std::lock_guard lock(mutex_);
  return endpoint_ != nullptr;
}

Outbox::Push Outbox::push(std::string_view method, std::shared_ptr<const std::string> params_json) {
  {
    std::lock_guard lock(mutex_);
    if (!endpoint_) return Push::kClosed;
    if (events_.size() >= max_events_) return Push::kFull;
    events_.emplace_back(std::string(method), std::move(params_json));
  }
  wake_.notify_all();
  return Push::kQueued;
}

void Outbox::loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return quit_ || !jobs_.empty() || (!events_.empty() && endpoint_); });
    if (quit_) return;
    if (!jobs_.empty()) {
      auto job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
      lock.lock();
      continue;
    }
    // Everything queued so far goes out in one write (up to a bound, so a job waits little).
    constexpr std::size_t kMaxBatch = 256;
    std::vector<std::pair<std::string, std::shared_ptr<const std::string>>> batch;
    while (!events_.empty() && batch.size() < kMaxBatch) {
      batch.push_back(std::move(events_.front()));
      events_.pop_front();
    }
    std::shared_ptr<Endpoint> endpoint = endpoint_;
    lock.unlock();
    std::vector<Endpoint::EncodedNotification> notifications;
    notifications.reserve(batch.size());
    for (const auto& [method, params] : batch) notifications.push_back({method, *params});
    // Only this plugin's sender waits if its pipe is full.
    endpoint->notify_encoded_many(notifications);
    endpoint.reset();
    lock.lock();
  }
}

}  // namespace rpckit::roles::detail
