#include "notifier.hpp"

#include "rpckit/streamnook/errors.hpp"

namespace live_alerts {

namespace sn = ::streamnook::v1;

Notifier::Notifier(rpckit::streamnook::HostApi& host, rpckit::streamnook::Logger& log)
    : host_(host), log_(log), worker_([this] { run(); }) {}

Notifier::~Notifier() { stop(); }

void Notifier::alert(std::string text, bool quiet) {
  sn::NotifyParams probe;
  probe.message = text;
  if (quiet || !host_.allowed<sn::messages::Notify>(probe).allowed) {
    log_.info("alert: " + text);
    return;
  }
  std::lock_guard lock(mutex_);
  queue_.push_back(std::move(text));
  wake_.notify_all();
}

std::size_t Notifier::delivered() const {
  std::lock_guard lock(mutex_);
  return delivered_;
}

void Notifier::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
    wake_.notify_all();
  }
  if (worker_.joinable()) worker_.join();
  for (const std::string& text : queue_) log_.warning("alert not delivered (stopping): " + text);
  queue_.clear();
}

void Notifier::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, nothing left
    // Honour the host's retry_after_ms before trying again. Once stopping, alerts already
    // accepted are still delivered (in-flight work, spec section 2) unless that would mean
    // waiting out a rate limit: stop() logs those.
    wake_.wait_until(lock, not_before_, [&] { return stopping_; });
    if (stopping_ && std::chrono::steady_clock::now() < not_before_) return;
    std::string text = queue_.front();
    lock.unlock();
    auto result = host_.notify(text);
    lock.lock();
    if (result.ok()) {
      queue_.pop_front();
      ++delivered_;
      continue;
    }
    const rpckit::CallError& error = result.error();
    auto data = rpckit::streamnook::error_data(error.error);
    bool rate_limited = error.kind == rpckit::CallError::Kind::kRemote &&
                        rpckit::streamnook::error_code(error.error) == sn::ErrorCode::kRateLimited;
    if (rate_limited) {
      double wait_ms = data && data->retry_after_ms ? *data->retry_after_ms : 10000.0;
      not_before_ = std::chrono::steady_clock::now() +
                    std::chrono::milliseconds(static_cast<std::int64_t>(wait_ms));
      lock.unlock();
      log_.info("notify rate limited; retrying in " + std::to_string(static_cast<long>(wait_ms)) + " ms");
      lock.lock();
      continue;  // keep the alert at the front
    }
    queue_.pop_front();
    lock.unlock();
    log_.warning("notify failed (" + error.describe() + "): " + text);
    lock.lock();
  }
}

}  // namespace live_alerts
