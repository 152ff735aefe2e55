#pragma once
// The spawner's side of one call of a one-shot exchange (protocol.json "x-exchange"),
// without the protocol: the process, its pipes, each line under its step's deadline and the
// whole call under the invoke deadline, which a watchdog enforces by killing the process and
// waking the reader, so no behaviour of the child can hang the caller. OneShotCall
// (one_shot.hpp) puts the generated Exchange's types and deadlines on it.
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>

#include "rpckit/framing/fd_io.hpp"
#include "rpckit/framing/interruptible_fd_source.hpp"
#include "rpckit/framing/ndjson_reader.hpp"
#include "rpckit/framing/ndjson_writer.hpp"
#include "rpckit/process/child_process.hpp"
#include "rpckit/roles/one_shot_line.hpp"

namespace rpckit::roles {

class OneShotProcess {
 public:
  using Clock = std::chrono::steady_clock;
  struct Settings {
    process::SpawnOptions spawn;  // `executable` is resolved like a shell (resolve_command)
    std::size_t max_line_bytes = 0;
    bool strict_lines = false;
    // Zero: no such deadline. Each is capped at a year.
    std::chrono::milliseconds invoke_timeout{0};
    std::chrono::milliseconds launch_timeout{0};
    std::chrono::milliseconds teardown_timeout{0};
    std::chrono::milliseconds reap_timeout{0};
  };

  explicit OneShotProcess(Settings settings);
  ~OneShotProcess();  // a child still running is killed and reaped
  OneShotProcess(const OneShotProcess&) = delete;
  OneShotProcess& operator=(const OneShotProcess&) = delete;

  // Checks the working directory, resolves the command (a relative path against that
  // directory), spawns it as the leader of a process group of its own; the reason when any
  // fails or the spawn itself took longer than the launch timeout (the child is then killed).
  // Starts the invoke deadline's clock.
  std::optional<std::string> launch();
  // One line to the child's stdin; std::errc::timed_out once the invoke deadline has passed.
  std::error_code send_line(std::string_view line);
  // One line from the child's stdout within `within` of now (zero: only the invoke deadline).
  LineReceived receive_line(std::chrono::milliseconds within);

  // After the last step: closes the child's stdin and waits for its exit within the teardown
  // timeout (and the invoke deadline).
  struct Finish {
    enum class Status { kExited, kStillRunning, kTimeout } status = Status::kExited;
    process::ExitStatus exit;  // kExited
  };
  Finish finish();
  // Kills the child's process group and waits at most the reap timeout for the child; false
  // if it was not reaped.
  bool abort();

  bool expired() const;  // the invoke deadline passed while the call ran
  std::chrono::milliseconds teardown_timeout() const { return settings_.teardown_timeout; }

 private:
  std::optional<std::string> start();
  void watch(Clock::time_point deadline);

  Settings settings_;
  Clock::time_point invoke_deadline_ = Clock::time_point::max();
  std::unique_ptr<process::ChildProcess> child_;
  std::unique_ptr<framing::InterruptibleFdSource> source_;
  std::unique_ptr<framing::NdjsonReader> reader_;
  std::unique_ptr<framing::FdSink> sink_;
  std::unique_ptr<framing::NdjsonWriter> writer_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false, expired_ = false;
  std::thread watchdog_;
};

}  // namespace rpckit::roles
