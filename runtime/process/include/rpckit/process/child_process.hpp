#pragma once
// ChildProcess: a spawned executable with pipes on its stdin and stdout and its stderr
// appended to a file. No descriptor of ours leaks into it (everything above 2 is closed in the
// child), it runs in the directory it is given, and it is never left a zombie: the destructor
// kills and reaps a child that is still running.
#include <sys/types.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "rpckit/supervision/supervisor.hpp"

namespace rpckit::process {

using supervision::ExitStatus;

struct SpawnOptions {
  std::filesystem::path executable;  // absolute, or relative to working_dir
  std::vector<std::string> args;     // argv[1..]
  std::filesystem::path working_dir;
  std::optional<std::filesystem::path> stderr_log;  // appended to; created with its folder
  // The child's whole environment ("KEY=VALUE" strings) when set, even empty; else ours.
  std::optional<std::vector<std::string>> environment;
  // The child leads a process group of its own, which kill() kills and which is killed when
  // the child ends: whatever it starts (a wrapper script's interpreter, a grandchild holding
  // the pipes) does not outlive it.
  bool own_process_group = false;
};

class ChildProcess {
 public:
  // Starts the process, or returns nullptr with *error saying why ("cannot execute
  // /p/bin/x: No such file or directory").
  static std::unique_ptr<ChildProcess> spawn(const SpawnOptions& options, std::string* error);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  int stdin_fd() const { return stdin_fd_; }    // write end of the child's stdin
  int stdout_fd() const { return stdout_fd_; }  // read end of the child's stdout
  void close_stdin();
  // The child reads end of input on stdin, while stdin_fd() stays a valid descriptor (it now
  // writes to /dev/null): a writer racing with this one writes nowhere, never into a number
  // reused by another open.
  void end_stdin();

  // SIGKILL, unless the process has already been reaped (a pidfd makes this race-free); with
  // own_process_group, to its whole group.
  void kill() { send_signal(SIGKILL); }
  // SIGTERM the same way: a request to stop that the process may handle.
  void terminate() { send_signal(SIGTERM); }
  void send_signal(int signal);
  // Blocks until the process ends and reaps it. One thread waits; the result is kept.
  ExitStatus wait();
  // wait(), but gives up (nullopt, the process left running) after `timeout`.
  std::optional<ExitStatus> wait_for(std::chrono::milliseconds timeout);
  std::optional<ExitStatus> exit_status() const;

 private:
  ChildProcess() = default;

  pid_t pid_ = -1;
  int pidfd_ = -1;
  bool group_ = false;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  mutable std::mutex mutex_;
  std::optional<ExitStatus> status_;
};

}  // namespace rpckit::process
