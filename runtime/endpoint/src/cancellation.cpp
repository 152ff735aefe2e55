#include "rpckit/endpoint/cancellation.hpp"

#include <utility>

namespace rpckit {

namespace {
// The request whose handler runs on this thread (see this_request).
thread_local std::shared_ptr<const Cancellation> current_request;
thread_local const std::function<Reply()>* current_request_deferrer = nullptr;
thread_local std::string_view current_request_method;
}  // namespace

std::string Cancellation::reason() const {
  std::lock_guard lock(mutex_);
  return reason_;
}

bool Cancellation::wait_for(std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [this] { return requested(); });
}

void Cancellation::request(std::string reason) {
  {
    std::lock_guard lock(mutex_);
    if (requested()) return;
    reason_ = std::move(reason);
    requested_.store(true, std::memory_order_release);
  }
  changed_.notify_all();
}

namespace this_request {

std::shared_ptr<const Cancellation> cancellation() { return current_request; }

bool cancelled() { return current_request != nullptr && current_request->requested(); }

std::string_view method() { return current_request_method; }

bool wait_cancelled_for(std::chrono::milliseconds timeout) {
  if (current_request == nullptr) {
    // Nothing can cancel it: a plain sleep, on the same kind of wait.
    Cancellation never;
    return never.wait_for(timeout);
  }
  return current_request->wait_for(timeout);
}

}  // namespace this_request

namespace detail {

CurrentRequestScope::CurrentRequestScope(std::shared_ptr<const Cancellation> cancellation,
                                         const std::function<Reply()>* deferrer,
                                         std::string_view method)
    : previous_(std::exchange(current_request, std::move(cancellation))),
      previous_deferrer_(std::exchange(current_request_deferrer, deferrer)),
      previous_method_(std::exchange(current_request_method, method)) {}

CurrentRequestScope::~CurrentRequestScope() {
  current_request = std::move(previous_);
  current_request_deferrer = previous_deferrer_;
  current_request_method = previous_method_;
}

const std::function<Reply()>* current_deferrer() { return current_request_deferrer; }

}  // namespace detail

}  // namespace rpckit
