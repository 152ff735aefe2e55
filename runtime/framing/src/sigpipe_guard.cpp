#include "sigpipe_guard.hpp"

#include <pthread.h>

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
