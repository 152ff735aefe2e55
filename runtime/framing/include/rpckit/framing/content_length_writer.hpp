// Writer for `Content-Length: <N>\r\n\r\n<N bytes>` frames.
#pragma once

#include <cstddef>
#include <mutex>
#include <optional>
#include <string_view>

#include "rpckit/framing/byte_io.hpp"
#include "rpckit/framing/frame_sink.hpp"
#include "rpckit/framing/frame_writer.hpp"

namespace rpckit::framing {

// Emits exactly one header, `Content-Length: <N>`. Thread safety: see FrameWriter (any threads).
class ContentLengthWriter final : public FrameWriter {
 public:
  ContentLengthWriter(ByteSink& sink, std::size_t max_body_bytes);

  WriteResult write(std::string_view body) override;
  WriteResult write_many(std::span<const std::string_view> bodies) override;  // one writev

 private:
  FrameSink out_;  // whole frames, coalesced; the sticky I/O failure
  std::size_t max_body_bytes_;
};

}  // namespace rpckit::framing
