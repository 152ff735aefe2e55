#include "rpckit/framing/fd_io.hpp"

#include <limits.h>
#include <poll.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <optional>
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
  std::vector<iovec> pending;
  pending.reserve(parts.size());
  for (const std::string_view part : parts) {
    // iovec wants a non-const pointer; writev only reads through it.
    if (!part.empty()) pending.push_back({const_cast<char*>(part.data()), part.size()});
  }
  if (pending.empty()) return {};
  // Guarded unless SIGPIPE is ignored already: then EPIPE is all a closed pipe can give, and
  // the write is the only system call (the guard costs three).
  std::optional<SigpipeGuard> guard;
  if (!sigpipe_ignored()) guard.emplace();
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
