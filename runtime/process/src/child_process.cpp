#include "rpckit/process/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace rpckit::process {
namespace {

// Closes a descriptor pair on scope exit unless released.
struct Pipe {
  int fds[2] = {-1, -1};
  ~Pipe() {
    for (int fd : fds) {
      if (fd >= 0) ::close(fd);
    }
  }
  int release(int i) {
    int fd = fds[i];
    fds[i] = -1;
    return fd;
  }
};

std::string errno_text(int error) { return std::strerror(error); }

}  // namespace

std::unique_ptr<ChildProcess> ChildProcess::spawn(const SpawnOptions& options,
                                                  std::string* error) {
  Pipe in, out;
  if (::pipe2(in.fds, O_CLOEXEC) != 0 || ::pipe2(out.fds, O_CLOEXEC) != 0) {
    *error = "cannot create pipes: " + errno_text(errno);
    return nullptr;
  }
  int log_fd = -1;
  if (options.stderr_log) {
    std::error_code ec;
    std::filesystem::create_directories(options.stderr_log->parent_path(), ec);
    log_fd = ::open(options.stderr_log->c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log_fd < 0) {
      *error = "cannot open " + options.stderr_log->string() + ": " + errno_text(errno);
      return nullptr;
    }
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.fds[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out.fds[1], STDOUT_FILENO);
  if (log_fd >= 0) posix_spawn_file_actions_adddup2(&actions, log_fd, STDERR_FILENO);
  // Nothing of ours beyond stdio reaches the plugin, O_CLOEXEC or not.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  if (!options.working_dir.empty()) {
    posix_spawn_file_actions_addchdir_np(&actions, options.working_dir.c_str());
  }
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // The child starts with default signal dispositions and an empty mask.
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  if (options.own_process_group) {
    posix_spawnattr_setpgroup(&attr, 0);  // a new group, led by the child
    flags |= POSIX_SPAWN_SETPGROUP;
  }
  posix_spawnattr_setflags(&attr, flags);

  std::string path = options.executable.string();
  std::vector<std::string> argv_text = {path};
  argv_text.insert(argv_text.end(), options.args.begin(), options.args.end());
  std::vector<char*> argv;
  argv.reserve(argv_text.size() + 1);
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);

  std::vector<std::string> env_text;
  std::vector<char*> env;
  if (options.environment) {
    env_text = *options.environment;
    for (auto& e : env_text) env.push_back(e.data());
    env.push_back(nullptr);
  }

  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, path.c_str(), &actions, &attr, argv.data(),
                         options.environment ? env.data() : environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (log_fd >= 0) ::close(log_fd);
  if (rc != 0) {
    *error = "cannot execute " + path + ": " + errno_text(rc);
    return nullptr;
  }

  std::unique_ptr<ChildProcess> child(new ChildProcess());
  child->pid_ = pid;
  child->pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));  // -1 on old kernels
  child->group_ = options.own_process_group;
  child->stdin_fd_ = in.release(1);
  child->stdout_fd_ = out.release(0);
  return child;
}

ChildProcess::~ChildProcess() {
  if (!exit_status()) {
    kill();
    wait();
  }
  close_stdin();
  if (stdout_fd_ >= 0) ::close(stdout_fd_);
  if (pidfd_ >= 0) ::close(pidfd_);
}

void ChildProcess::close_stdin() {
  std::lock_guard lock(mutex_);
  if (stdin_fd_ >= 0) ::close(stdin_fd_);
  stdin_fd_ = -1;
}

void ChildProcess::end_stdin() {
  std::lock_guard lock(mutex_);
  if (stdin_fd_ < 0) return;
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null_fd < 0) return;
  ::dup3(null_fd, stdin_fd_, O_CLOEXEC);  // atomically: the pipe's write end is closed
  ::close(null_fd);
}

void ChildProcess::send_signal(int signal) {
  std::lock_guard lock(mutex_);
  if (status_) return;
  // The leader is not reaped yet (status_ is set before reaping), so its group id names no
  // other group.
  if (group_) ::kill(-pid_, signal);
  if (pidfd_ >= 0) {
    ::syscall(SYS_pidfd_send_signal, pidfd_, signal, nullptr, 0);
  } else {
    ::kill(pid_, signal);  // not reaped yet (status_ is set before reaping completes)
  }
}

ExitStatus ChildProcess::wait() {
  {
    std::lock_guard lock(mutex_);
    if (status_) return *status_;
  }
  // Wait without reaping, so kill() can never hit a recycled pid...
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
  }
  ExitStatus status;
  status.signaled = info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED;
  status.code = info.si_status;
  std::lock_guard lock(mutex_);
  status_ = status;
  // The group dies with its leader; its id is still held by the unreaped leader.
  if (group_) ::kill(-pid_, SIGKILL);
  // ...then reap under the lock kill() takes.
  int ignored = 0;
  while (::waitpid(pid_, &ignored, 0) < 0 && errno == EINTR) {
  }
  return status;
}

std::optional<ExitStatus> ChildProcess::wait_for(std::chrono::milliseconds timeout) {
  if (auto done = exit_status()) return done;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    siginfo_t info{};
    info.si_pid = 0;
    int rc = ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOWAIT | WNOHANG);
    if (rc == 0 && info.si_pid != 0) return wait();  // ended: reap it as wait() does
    if (rc != 0 && errno != EINTR) return exit_status();  // reaped by a concurrent wait()
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline -
                                                             std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    if (pidfd_ >= 0) {
      // Readable once the process has ended.
      pollfd fd{pidfd_, POLLIN, 0};
      ::poll(&fd, 1, static_cast<int>(std::min<std::chrono::milliseconds::rep>(left.count(), 1 << 30)));
    } else {
      ::usleep(static_cast<useconds_t>(std::min<std::chrono::milliseconds::rep>(left.count(), 5) * 1000));
    }
  }
}

std::optional<ExitStatus> ChildProcess::exit_status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

}  // namespace rpckit::process
