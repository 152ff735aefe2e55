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
// -1: not asked yet; 0: SIGPIPE is handled or defaulted; 1: ignored.
std::atomic<int> g_ignored{-1};
}  // namespace

bool sigpipe_ignored() {
  int known = g_ignored.load(std::memory_order_relaxed);
  if (known < 0) {
    struct sigaction current {};
    known = sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_IGN ? 1 : 0;
    g_ignored.store(known, std::memory_order_relaxed);
  }
  return known == 1;
}

void ignore_sigpipe() {
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  if (sigaction(SIGPIPE, &ignore, nullptr) == 0) g_ignored.store(1, std::memory_order_relaxed);
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
