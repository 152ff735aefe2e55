#pragma once
// Notifier: delivers alerts through the host's `notify`, honouring rate_limited: when the
// host says "retry after N ms" the alert waits (in order, with the ones behind it) on a worker
// thread instead of being dropped or hammered. Without the notify grant, or in quiet mode,
// alerts go to the log.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "rpckit/streamnook/host_api.hpp"
#include "rpckit/streamnook/logger.hpp"

namespace live_alerts {

class Notifier {
 public:
  Notifier(rpckit::streamnook::HostApi& host, rpckit::streamnook::Logger& log);
  ~Notifier();  // stop()

  void alert(std::string text, bool quiet);
  // Stops the worker once it has delivered the alerts already queued; alerts that would have
  // to wait out a rate limit are written to the log instead, not lost silently.
  void stop();
  std::size_t delivered() const;

 private:
  void run();

  rpckit::streamnook::HostApi& host_;
  rpckit::streamnook::Logger& log_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::string> queue_;
  std::chrono::steady_clock::time_point not_before_{};
  std::size_t delivered_ = 0;
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace live_alerts
