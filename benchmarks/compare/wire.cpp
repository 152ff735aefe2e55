#include "wire.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <system_error>

extern char** environ;

namespace rpckit::compare {
namespace {

constexpr std::string_view kContentLength = "Content-Length:";

std::size_t content_length(std::string_view header) {
  const std::size_t at = header.find(kContentLength);
  if (at == std::string_view::npos) throw std::runtime_error("frame header without Content-Length");
  std::size_t i = at + kContentLength.size();
  while (i < header.size() && header[i] == ' ') ++i;
  std::size_t length = 0;
  const auto [end, ec] = std::from_chars(header.data() + i, header.data() + header.size(), length);
  if (ec != std::errc() || end == header.data() + i) throw std::runtime_error("bad Content-Length");
  return length;
}

[[noreturn]] void fail(const char* what) { throw std::system_error(errno, std::generic_category(), what); }

}  // namespace

bool FrameReader::fill() {
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
  for (;;) {
    const ssize_t n = ::read(fd_, buffer_.data() + end_, buffer_.size() - end_);
    if (n > 0) {
      end_ += static_cast<std::size_t>(n);
      return true;
    }
    if (n == 0) return false;
    if (errno != EINTR) fail("read");
  }
}

std::optional<std::string_view> FrameReader::next() {
  std::size_t header_size = 0;  // up to and without the blank line
  for (std::size_t searched = 0;;) {
    const std::string_view available(buffer_.data() + begin_, end_ - begin_);
    const std::size_t at = available.find("\r\n\r\n", searched);
    if (at != std::string_view::npos) {
      header_size = at;
      break;
    }
    searched = available.size() < 3 ? 0 : available.size() - 3;
    if (!fill()) {
      if (begin_ == end_) return std::nullopt;
      throw std::runtime_error("EOF inside a frame header");
    }
  }
  const std::size_t length =
      content_length(std::string_view(buffer_.data() + begin_, header_size));
  const std::size_t body = header_size + 4;  // offset from begin_
  while (end_ - begin_ < body + length) {
    if (!fill()) throw std::runtime_error("EOF inside a frame body");
  }
  const std::string_view out(buffer_.data() + begin_ + body, length);
  begin_ += body + length;
  return out;
}

std::string frame(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body);
  return out;
}

std::size_t framed_size(std::size_t body_size) {
  return std::string_view("Content-Length: \r\n\r\n").size() + std::to_string(body_size).size() +
         body_size;
}

void write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write");
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

void write_frame(int fd, std::string_view body) {
  char header[48];
  const int header_size =
      std::snprintf(header, sizeof header, "Content-Length: %zu\r\n\r\n", body.size());
  iovec parts[2] = {{header, static_cast<std::size_t>(header_size)},
                    {const_cast<char*>(body.data()), body.size()}};
  const std::size_t total = static_cast<std::size_t>(header_size) + body.size();
  const ssize_t n = ::writev(fd, parts, 2);
  if (n < 0 && errno != EINTR) fail("writev");
  const std::size_t written = n < 0 ? 0 : static_cast<std::size_t>(n);
  if (written == total) return;
  // A partial write (a full pipe and a signal): the rest the simple way.
  const std::string rest = std::string(header, static_cast<std::size_t>(header_size)) +
                           std::string(body);
  write_all(fd, std::string_view(rest).substr(written));
}

Child spawn_self(const char* mode) {
  char exe[4096];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) fail("readlink /proc/self/exe");
  exe[n] = '\0';
  int in[2];
  int out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) fail("pipe2");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  char* argv[] = {exe, const_cast<char*>(mode), nullptr};
  Child child;
  const int error = posix_spawn(&child.pid, exe, &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  if (error != 0) {
    errno = error;
    fail("posix_spawn");
  }
  child.to_child = in[1];
  child.from_child = out[0];
  return child;
}

std::string finish(Child& child) {
  if (child.to_child >= 0) ::close(child.to_child);
  child.to_child = -1;
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (child.from_child >= 0) ::close(child.from_child);
  child.from_child = -1;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  if (WIFEXITED(status)) return "child exited with " + std::to_string(WEXITSTATUS(status));
  return "child killed by signal " + std::to_string(WTERMSIG(status));
}

}  // namespace rpckit::compare
