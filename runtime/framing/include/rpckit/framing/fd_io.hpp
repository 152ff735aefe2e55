// ByteSource/ByteSink over POSIX file descriptors (stdio pipes, sockets, files).
#pragma once

#include <span>
#include <string_view>
#include <system_error>

#include "rpckit/framing/byte_io.hpp"

namespace rpckit::framing {

// Reads from a borrowed descriptor (the caller keeps ownership and closes it).
// Retries on EINTR; on a non-blocking descriptor it waits with poll() instead of spinning.
// Thread safety: one reading thread.
class FdSource final : public ByteSource {
 public:
  explicit FdSource(int fd) : fd_(fd) {}

  IoResult read(std::span<char> buffer) override;
  int fd() const { return fd_; }

 private:
  int fd_;
};

// Writes to a borrowed descriptor. Handles EINTR and partial writes (writev across parts),
// waits with poll() on a non-blocking descriptor.
//
// SIGPIPE policy: writing to a pipe whose read end is closed reports EPIPE
// (std::errc::broken_pipe) and never kills the process. Each write_all blocks SIGPIPE in the
// calling thread, and if the write raised one, consumes it with sigtimedwait before restoring
// the mask. Callers need no process-wide signal(SIGPIPE, SIG_IGN); a SIGPIPE already pending
// before the call is left alone. Where the runtime has ignored SIGPIPE process-wide
// (ignore_sigpipe()), or in a thread that blocks it for good (block_sigpipe_in_this_thread(),
// the runtime's own threads), the guard is skipped and the write is the only system call.
// Thread safety: concurrent write_all calls are safe for the kernel but may interleave; the
// frame writers serialise them.
// Ignores SIGPIPE process-wide, once, for processes that own their signal policy (the plugin
// roles call it: a plugin's stdout is its protocol). Writes then skip the guard above.
void ignore_sigpipe();
// Blocks SIGPIPE in the calling thread for good, so its writes skip the guard: for threads the
// runtime owns (an endpoint's two threads, a host's sender), never an application's.
void block_sigpipe_in_this_thread();

class FdSink final : public ByteSink {
 public:
  explicit FdSink(int fd) : fd_(fd) {}

  int fd() const { return fd_; }

 private:
  std::error_code write_parts(std::span<const std::string_view> parts) override;

  int fd_;
};

}  // namespace rpckit::framing
