#include "event_log.hpp"

namespace loaf_client {

void EventLog::add(const rpckit::loaf::Event& event) {
  std::lock_guard lock(mutex_);
  events_.push_back(event);
  ++counts_[event.type];
  changed_.notify_all();
}

bool EventLog::wait_for(const std::function<bool(const rpckit::loaf::Event&)>& done,
                        std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] {
    for (const auto& e : events_) {
      if (done(e)) return true;
    }
    return false;
  });
}

bool EventLog::wait_count(const std::string& type, int n, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return counts_[type] >= n; });
}

std::map<std::string, int> EventLog::counts() const {
  std::lock_guard lock(mutex_);
  return counts_;
}

int EventLog::count(const std::string& type) const {
  std::lock_guard lock(mutex_);
  auto it = counts_.find(type);
  return it == counts_.end() ? 0 : it->second;
}

}  // namespace loaf_client
