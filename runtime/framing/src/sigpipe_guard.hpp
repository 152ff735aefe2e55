// Keeps a write to a closed pipe from killing the process, without touching process-wide
// signal state: SIGPIPE is blocked in this thread for the guard's lifetime, and one the
// guarded write raised is consumed before the mask is restored. (SIGPIPE from write(2) is
// directed at the writing thread, so the thread mask is enough.)
#pragma once

#include <signal.h>

namespace rpckit::framing {

// Whether ignore_sigpipe() (rpckit/framing/fd_io.hpp) has ignored SIGPIPE process-wide, so
// that a write needs no guard. Ignoring is taken to be for good.
bool sigpipe_ignored();

// Whether this thread blocks SIGPIPE for good (block_sigpipe_in_this_thread(), declared in
// rpckit/framing/fd_io.hpp): its writes need no guard, and an EPIPE leaves a SIGPIPE pending
// for drop_pending_sigpipe() to take.
bool sigpipe_blocked_in_this_thread();
void drop_pending_sigpipe();

class SigpipeGuard {
 public:
  SigpipeGuard();
  ~SigpipeGuard();
  SigpipeGuard(const SigpipeGuard&) = delete;
  SigpipeGuard& operator=(const SigpipeGuard&) = delete;

  // Call when the guarded write failed with EPIPE: a SIGPIPE is then pending for us to drop.
  void saw_epipe() { saw_epipe_ = true; }

 private:
  sigset_t old_mask_;
  bool was_pending_ = false;  // someone else's SIGPIPE: leave it for them
  bool saw_epipe_ = false;
};

}  // namespace rpckit::framing
