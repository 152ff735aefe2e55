#include "rpckit/roles/stdout_guard.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <system_error>

namespace rpckit::roles {

StdoutGuard::StdoutGuard() {
  std::fflush(stdout);
  std::cout.flush();
  protocol_fd_ = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (protocol_fd_ < 0) throw std::system_error(errno, std::generic_category(), "dup stdout");
  saved_stdout_ = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (saved_stdout_ < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    int error = errno;
    ::close(protocol_fd_);
    if (saved_stdout_ >= 0) ::close(saved_stdout_);
    throw std::system_error(error, std::generic_category(), "redirect stdout to stderr");
  }
}

StdoutGuard::~StdoutGuard() {
  std::fflush(stdout);
  std::cout.flush();
  ::dup2(saved_stdout_, STDOUT_FILENO);
  ::close(saved_stdout_);
  ::close(protocol_fd_);
}

}  // namespace rpckit::roles
