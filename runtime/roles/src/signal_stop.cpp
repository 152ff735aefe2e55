#include "rpckit/roles/signal_stop.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <stdexcept>

namespace rpckit::roles {

namespace {

// The write end of the active SignalStop's pipe: all the handler touches (async-signal-safe).
std::atomic<int> g_pipe_write{-1};
struct sigaction g_old_term {};
struct sigaction g_old_int {};

void on_signal_handler(int signal) {
  const int saved = errno;
  const int fd = g_pipe_write.load();
  const char byte = signal == SIGINT ? 'i' : 't';
  if (fd >= 0) (void)!::write(fd, &byte, 1);
  errno = saved;
}

constexpr char kQuit = 'q';

}  // namespace

SignalStop::SignalStop(bool enabled, std::function<void(int signal)> on_signal)
    : enabled_(enabled), on_signal_(std::move(on_signal)) {
  if (!enabled_) return;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("SignalStop: pipe failed");
  pipe_read_ = fds[0];
  int expected = -1;
  if (!g_pipe_write.compare_exchange_strong(expected, fds[1])) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::logic_error("SignalStop: another one is active");
  }
  struct sigaction action {};
  action.sa_handler = &on_signal_handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGTERM, &action, &g_old_term);
  ::sigaction(SIGINT, &action, &g_old_int);
  // The watcher starts with both signals blocked and keeps them so: the handler runs on the
  // application's threads only, never on the one that reads the pipe, starting or not.
  sigset_t watched;
  sigset_t before;
  sigemptyset(&watched);
  sigaddset(&watched, SIGTERM);
  sigaddset(&watched, SIGINT);
  ::pthread_sigmask(SIG_BLOCK, &watched, &before);
  try {
    watcher_ = std::thread([this] { watch(); });
  } catch (...) {  // no thread: undo everything, as if this one had never been
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
    ::sigaction(SIGTERM, &g_old_term, nullptr);
    ::sigaction(SIGINT, &g_old_int, nullptr);
    ::close(g_pipe_write.exchange(-1));
    ::close(pipe_read_);
    throw;
  }
  ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

SignalStop::~SignalStop() {
  if (!enabled_) return;
  ::sigaction(SIGTERM, &g_old_term, nullptr);
  ::sigaction(SIGINT, &g_old_int, nullptr);
  const int fd = g_pipe_write.exchange(-1);
  (void)!::write(fd, &kQuit, 1);
  watcher_.join();
  ::close(fd);
  ::close(pipe_read_);
}

void SignalStop::watch() {
  bool fired = false;
  for (;;) {
    pollfd p{pipe_read_, POLLIN, 0};
    if (::poll(&p, 1, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    char byte = 0;
    if (::read(pipe_read_, &byte, 1) != 1) continue;
    if (byte == kQuit) return;
    if (!fired) {
      fired = true;  // the first signal stops; later ones change nothing
      if (on_signal_) on_signal_(byte == 'i' ? SIGINT : SIGTERM);
    }
  }
}

}  // namespace rpckit::roles
