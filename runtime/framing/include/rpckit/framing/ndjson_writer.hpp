// Writer for newline-delimited JSON: the body then '\n'.
#pragma once

#include <cstddef>
#include <mutex>
#include <optional>
#include <string_view>

#include "rpckit/framing/byte_io.hpp"
#include "rpckit/framing/frame_sink.hpp"
#include "rpckit/framing/frame_writer.hpp"

namespace rpckit::framing {

// Refuses (kInvalidBody) a body holding a raw '\n', which would split it into two frames, and
// a blank body, which the reader would skip. Serialised JSON has neither: newlines inside
// strings are escaped. Thread safety: see FrameWriter (any threads).
class NdjsonWriter final : public FrameWriter {
 public:
  NdjsonWriter(ByteSink& sink, std::size_t max_body_bytes);

  WriteResult write(std::string_view body) override;
  WriteResult write_many(std::span<const std::string_view> bodies) override;  // one writev

 private:
  FrameSink out_;  // whole frames, coalesced; the sticky I/O failure
  std::size_t max_body_bytes_;
};

}  // namespace rpckit::framing
