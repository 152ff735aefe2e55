// Reader for `Content-Length: <N>\r\n\r\n<N bytes>` frames (LSP-style base protocol).
#pragma once

#include <cstddef>
#include <optional>

#include "rpckit/framing/byte_io.hpp"
#include "rpckit/framing/frame_reader.hpp"
#include "rpckit/framing/read_buffer.hpp"

namespace rpckit::framing {

// Rules: header lines end in CRLF and the section ends with an empty line; names are
// case-insensitive; unknown headers are ignored; spaces/tabs around names and values are
// tolerated; N counts bytes and must be plain decimal digits. Content-Length given twice is
// accepted only with the same value. N > max_body_bytes is reported as kOversize as soon as
// the header section is complete, before any body byte is requested.
// Thread safety: see FrameReader (one reading thread).
class ContentLengthReader final : public FrameReader {
 public:
  ContentLengthReader(ByteSource& source, std::size_t max_body_bytes, ReaderOptions options = {});

  ReadResult read() override;

 private:
  ReadResult read_header(std::size_t& body_bytes);
  ReadResult read_body(std::size_t body_bytes);
  ReadResult fail(ReadStatus status, std::string reason);

  ByteSource& source_;
  std::size_t max_body_bytes_;
  ReaderOptions options_;
  ReadBuffer buffer_;
  std::optional<ReadResult> terminal_;  // sticky eof / failure
};

}  // namespace rpckit::framing
