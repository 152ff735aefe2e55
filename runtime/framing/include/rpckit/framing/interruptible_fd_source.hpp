// A file-descriptor source whose blocked read() another thread can cut short: the way to stop
// a reader thread on a pipe (closing the descriptor from another thread does not wake it).
#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <span>

#include "rpckit/framing/byte_io.hpp"

namespace rpckit::framing {

// Reads from a borrowed descriptor; waits in poll() on it and on a private wake pipe.
// Thread safety: one reading thread; interrupt() from any thread, any number of times.
class InterruptibleFdSource final : public ByteSource {
 public:
  explicit InterruptibleFdSource(int fd);
  ~InterruptibleFdSource() override;
  InterruptibleFdSource(const InterruptibleFdSource&) = delete;
  InterruptibleFdSource& operator=(const InterruptibleFdSource&) = delete;

  // After interrupt(), read() returns std::errc::operation_canceled, now and forever.
  IoResult read(std::span<char> buffer) override;
  void interrupt();
  // A read() still waiting at `deadline` returns std::errc::stream_timeout (reading thread only;
  // nullopt, the default, waits for ever): for a protocol step, or a call, with its deadline.
  bool set_deadline(std::optional<std::chrono::steady_clock::time_point> deadline) override {
    deadline_ = deadline;
    return true;
  }
  int fd() const { return fd_; }

 private:
  int fd_;
  int wake_read_ = -1;
  int wake_write_ = -1;
  std::atomic<bool> interrupted_{false};
  std::optional<std::chrono::steady_clock::time_point> deadline_;
};

}  // namespace rpckit::framing
