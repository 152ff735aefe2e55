#pragma once
// SignalStop: while it lives, SIGTERM and SIGINT no longer end the process; the first one runs
// `on_signal(signal)` (SIGTERM or SIGINT) on a thread of its own (not in a signal handler, so
// it may do anything), for a
// spawned role whose profile stops on SIGTERM. The previous handlers come back when it ends.
// At most one is active in a process at a time.
#include <functional>
#include <thread>

namespace rpckit::roles {

class SignalStop {
 public:
  // `enabled` false: does nothing (a profile that does not stop on SIGTERM keeps the default).
  SignalStop(bool enabled, std::function<void(int signal)> on_signal);
  ~SignalStop();
  SignalStop(const SignalStop&) = delete;
  SignalStop& operator=(const SignalStop&) = delete;

 private:
  void watch();

  bool enabled_ = false;
  std::function<void(int signal)> on_signal_;
  int pipe_read_ = -1;
  std::thread watcher_;
};

}  // namespace rpckit::roles
