#include "sigpipe_guard.hpp"

#include "rpckit/framing/fd_io.hpp"

#include <pthread.h>

#include <atomic>
#include <cerrno>
#include <ctime>

namespace rpckit::framing {


namespace {
sigset_t sigpipe_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  return set;
}
}  // namespace

namespace {
// Set by ignore_sigpipe(): only the runtime's own word counts, never a disposition found
// (an application that set SIG_IGN may restore the default later, under our feet).
std::atomic<bool> g_ignored{false};
// This thread blocks SIGPIPE for good (block_sigpipe_in_this_thread).
thread_local bool t_blocked = false;
}  // namespace

bool sigpipe_blocked_in_this_thread() { return t_blocked; }

void block_sigpipe_in_this_thread() {
  if (t_blocked) return;
  const sigset_t pipe_set = sigpipe_set();
  if (pthread_sigmask(SIG_BLOCK, &pipe_set, nullptr) == 0) t_blocked = true;
}

void drop_pending_sigpipe() {
  const int saved_errno = errno;
  const sigset_t pipe_set = sigpipe_set();
  const timespec no_wait{};
  while (sigtimedwait(&pipe_set, nullptr, &no_wait) == -1 && errno == EINTR) {
  }
  errno = saved_errno;
}

bool sigpipe_ignored() { return g_ignored.load(std::memory_order_relaxed); }

void ignore_sigpipe() {
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  if (sigaction(SIGPIPE, &ignore, nullptr) == 0) g_ignored.store(true, std::memory_order_relaxed);
}

SigpipeGuard::SigpipeGuard() {
  const sigset_t pipe_set = sigpipe_set();
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_mask_);
  sigset_t pending;
  sigemptyset(&pending);
  sigpending(&pending);
  was_pending_ = sigismember(&pending, SIGPIPE) == 1;
}

SigpipeGuard::~SigpipeGuard() {
  const int saved_errno = errno;
  if (saw_epipe_ && !was_pending_) {
    const sigset_t pipe_set = sigpipe_set();
    const timespec no_wait{};
    while (sigtimedwait(&pipe_set, nullptr, &no_wait) == -1 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
  errno = saved_errno;
}

}  // namespace rpckit::framing
