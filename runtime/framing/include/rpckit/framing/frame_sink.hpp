// Where both frame writers put whole frames: one ByteSink, with writes coalesced.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "rpckit/framing/byte_io.hpp"
#include "rpckit/framing/frame_writer.hpp"

namespace rpckit::framing {

// Writes frames (each given as parts: header, body, ...) to a sink, whole and in the order
// they were submitted, from any number of threads. While one thread writes, the frames other
// threads submit are gathered, and that thread then sends them all in one write_parts call
// (one writev) before it returns; each caller still returns only once its own frame is
// written or has failed. A failed write fails its frames and every later one (the stream
// may hold a partial frame): the failure is sticky.
class FrameSink {
 public:
  explicit FrameSink(ByteSink& sink) : sink_(sink) {}

  WriteResult write(std::span<const std::string_view> parts);
  // Frames waiting for the write in progress to take them (for tests and statistics).
  std::size_t waiting_frames() const;

 private:
  // Records a failed write: the frames from ticket `first` on have failed.
  void fail(std::error_code error, std::uint64_t first);

  ByteSink& sink_;
  mutable std::mutex mutex_;
  std::condition_variable written_;
  bool writing_ = false;               // a thread is in write_parts
  std::string waiting_;                // frames submitted meanwhile, back to back
  std::size_t waiting_count_ = 0;      // how many frames waiting_ holds
  std::uint64_t submitted_ = 0;        // tickets handed out, one per frame
  std::uint64_t settled_ = 0;          // every ticket up to this one is written or failed
  std::uint64_t first_failed_ = UINT64_MAX;  // tickets from here on failed
  std::optional<WriteResult> failure_;
};

}  // namespace rpckit::framing
