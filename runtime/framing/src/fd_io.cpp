#include "rpckit/framing/fd_io.hpp"

#include <limits.h>
#include <poll.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <optional>
#include <span>
#include <vector>

#include "sigpipe_guard.hpp"

namespace rpckit::framing {

namespace {

std::error_code last_error() { return {errno, std::system_category()}; }

// Waits until a non-blocking descriptor is ready instead of spinning on EAGAIN.
std::error_code wait_for(int fd, short events) {
  pollfd entry{fd, events, 0};
  while (poll(&entry, 1, -1) == -1) {
    if (errno != EINTR) return last_error();
  }
  return {};
}

bool would_block(int error) { return error == EAGAIN || error == EWOULDBLOCK; }

}  // namespace

IoResult FdSource::read(std::span<char> buffer) {
  for (;;) {
    const ssize_t got = ::read(fd_, buffer.data(), buffer.size());
    if (got >= 0) return {static_cast<std::size_t>(got), {}};
    if (errno == EINTR) continue;
    if (would_block(errno)) {
      if (std::error_code error = wait_for(fd_, POLLIN)) return {0, error};
      continue;
    }
    return {0, last_error()};
  }
}

std::error_code FdSink::write_parts(std::span<const std::string_view> parts) {
  // A frame is two or three parts: no allocation for it.
  constexpr std::size_t kInline = 8;
  iovec inline_parts[kInline];
  std::vector<iovec> many;
  std::span<iovec> pending;
  std::size_t used = 0;
  if (parts.size() > kInline) many.resize(parts.size());
  iovec* slots = parts.size() > kInline ? many.data() : inline_parts;
  for (const std::string_view part : parts) {
    // iovec wants a non-const pointer; writev only reads through it.
    if (!part.empty()) slots[used++] = {const_cast<char*>(part.data()), part.size()};
  }
  if (used == 0) return {};
  pending = std::span<iovec>(slots, used);
  // Guarded unless SIGPIPE is ignored, or blocked in this thread (the runtime's own threads):
  // then EPIPE is all a closed pipe can give, and the write is the only system call (the
  // guard costs three).
  const bool blocked = sigpipe_blocked_in_this_thread();
  std::optional<SigpipeGuard> guard;
  if (!blocked && !sigpipe_ignored()) guard.emplace();
  std::size_t first = 0;
  while (first < pending.size()) {
    const int count = static_cast<int>(std::min<std::size_t>(pending.size() - first, IOV_MAX));
    const ssize_t wrote = ::writev(fd_, pending.data() + first, count);
    if (wrote < 0) {
      if (errno == EINTR) continue;
      if (would_block(errno)) {
        if (std::error_code error = wait_for(fd_, POLLOUT)) return error;
        continue;
      }
      if (errno == EPIPE && guard) guard->saw_epipe();
      if (errno == EPIPE && blocked) drop_pending_sigpipe();
      return last_error();
    }
    // Partial write: drop the iovecs written in full, trim the one written in part.
    auto done = static_cast<std::size_t>(wrote);
    while (first < pending.size() && done >= pending[first].iov_len) {
      done -= pending[first].iov_len;
      ++first;
    }
    if (first < pending.size()) {
      pending[first].iov_base = static_cast<char*>(pending[first].iov_base) + done;
      pending[first].iov_len -= done;
    }
  }
  return {};
}

}  // namespace rpckit::framing
