// An in-memory pipe: bytes written to the sink end come out of the source end, with the
// semantics of a real pipe (blocking reads, bounded capacity, EOF once the writer closes,
// EPIPE once the reader closes). Two of them connect two endpoints in one process.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string_view>
#include <system_error>

#include "rpckit/framing/byte_io.hpp"

namespace rpckit::framing {

namespace detail {
struct PipeState;
}  // namespace detail

// Linux's default pipe capacity; pass a larger value (or SIZE_MAX) for an unbounded pipe.
inline constexpr std::size_t kDefaultPipeCapacity = std::size_t{64} * 1024;

// Read end. Thread safety: one reading thread; close() may be called from any thread.
class MemoryPipeSource final : public ByteSource {
 public:
  explicit MemoryPipeSource(std::shared_ptr<detail::PipeState> state);
  ~MemoryPipeSource() override;
  MemoryPipeSource(const MemoryPipeSource&) = delete;
  MemoryPipeSource& operator=(const MemoryPipeSource&) = delete;

  // Blocks until data arrives or the sink closes (then returns EOF once drained), or until
  // the deadline (std::errc::stream_timeout), as a descriptor's InterruptibleFdSource does.
  IoResult read(std::span<char> buffer) override;
  bool set_deadline(std::optional<std::chrono::steady_clock::time_point> deadline) override {
    deadline_ = deadline;
    return true;
  }
  // Makes pending and future writes fail with broken_pipe, and wakes a blocked read(), which
  // then returns EOF: the way to stop a reader thread during shutdown.
  void close();

 private:
  std::shared_ptr<detail::PipeState> state_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;  // reading thread only
};

// Write end. Thread safety: any threads; each write_all is atomic with respect to the others.
class MemoryPipeSink final : public ByteSink {
 public:
  explicit MemoryPipeSink(std::shared_ptr<detail::PipeState> state);
  ~MemoryPipeSink() override;
  MemoryPipeSink(const MemoryPipeSink&) = delete;
  MemoryPipeSink& operator=(const MemoryPipeSink&) = delete;

  // The reader sees EOF after draining what was written. Later writes fail (bad_file_descriptor).
  void close();

 private:
  // Blocks while the pipe is full; fails with broken_pipe once the source is closed.
  std::error_code write_parts(std::span<const std::string_view> parts) override;

  std::shared_ptr<detail::PipeState> state_;
  std::mutex write_mutex_;  // keeps concurrent write_all calls from interleaving
};

struct MemoryPipe {
  std::unique_ptr<MemoryPipeSource> source;
  std::unique_ptr<MemoryPipeSink> sink;
};

MemoryPipe make_memory_pipe(std::size_t capacity = kDefaultPipeCapacity);

}  // namespace rpckit::framing
