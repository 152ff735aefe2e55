#pragma once
// A one-shot gate for tests: wait() blocks until open(), bounded so a broken test ends instead
// of hanging, and says whether it opened.
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace rpckit_test {

class Gate {
 public:
  void open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  bool wait(std::chrono::milliseconds limit = std::chrono::seconds(10)) const {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, limit, [&] { return open_; });
  }
  bool is_open() const {
    std::lock_guard lock(mutex_);
    return open_;
  }

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  bool open_ = false;
};

}  // namespace rpckit_test
