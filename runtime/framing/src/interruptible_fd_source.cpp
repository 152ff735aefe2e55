#include "rpckit/framing/interruptible_fd_source.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

namespace rpckit::framing {

InterruptibleFdSource::InterruptibleFdSource(int fd) : fd_(fd) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    throw std::system_error(errno, std::generic_category(), "pipe2 for InterruptibleFdSource");
  }
  wake_read_ = fds[0];
  wake_write_ = fds[1];
}

InterruptibleFdSource::~InterruptibleFdSource() {
  ::close(wake_read_);
  ::close(wake_write_);
}

void InterruptibleFdSource::interrupt() {
  if (interrupted_.exchange(true)) return;
  char byte = 1;
  // A full wake pipe already wakes the reader; nothing else to do on failure.
  [[maybe_unused]] auto n = ::write(wake_write_, &byte, 1);
}

IoResult InterruptibleFdSource::read(std::span<char> buffer) {
  for (;;) {
    if (interrupted_.load()) return {0, std::make_error_code(std::errc::operation_canceled)};
    pollfd fds[2] = {{fd_, POLLIN, 0}, {wake_read_, POLLIN, 0}};
    int timeout_ms = -1;
    if (deadline_) {
      auto left = std::chrono::ceil<std::chrono::milliseconds>(
          *deadline_ - std::chrono::steady_clock::now());
      if (left.count() <= 0) return {0, std::make_error_code(std::errc::stream_timeout)};
      timeout_ms = static_cast<int>(std::min<std::chrono::milliseconds::rep>(left.count(), 1 << 30));
    }
    int ready = ::poll(fds, 2, timeout_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      return {0, std::error_code(errno, std::generic_category())};
    }
    if (fds[1].revents != 0) continue;  // interrupted: reported at the top of the loop
    if (fds[0].revents == 0) continue;
    ssize_t n = ::read(fd_, buffer.data(), buffer.size());
    if (n > 0) return {static_cast<std::size_t>(n), {}};
    if (n == 0) return {};  // EOF
    if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
    return {0, std::error_code(errno, std::generic_category())};
  }
}

}  // namespace rpckit::framing
