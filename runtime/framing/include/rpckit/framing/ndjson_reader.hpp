// Reader for newline-delimited JSON: one body per line.
#pragma once

#include <cstddef>
#include <optional>

#include "rpckit/framing/byte_io.hpp"
#include "rpckit/framing/frame_reader.hpp"
#include "rpckit/framing/read_buffer.hpp"

namespace rpckit::framing {

// Rules: a body ends at '\n' (a '\r' just before it is dropped, so CRLF works); blank lines
// (only spaces, tabs, '\r') are skipped; a line longer than max_body_bytes is kOversize,
// detected as soon as that many bytes are buffered without a newline, so at most
// max_body_bytes + 1 + chunk_bytes are ever held; EOF after a non-blank partial line is
// kTruncatedBody. The line's content is not checked to be JSON: that is the decoder's job.
// ReaderOptions::deliver_blank_lines and accept_unterminated_last_line make it stricter
// about blank lines and laxer about a final line without '\n'; a delivered line then has its
// surrounding spaces, tabs and '\r' stripped (the limit still counts them).
// Thread safety: see FrameReader (one reading thread).
class NdjsonReader final : public FrameReader {
 public:
  NdjsonReader(ByteSource& source, std::size_t max_body_bytes, ReaderOptions options = {});

  ReadResult read() override;

 private:
  ReadResult fail(ReadStatus status, std::string reason);
  // Either strict option is on: delivered lines are stripped.
  bool strips_lines() const;

  ByteSource& source_;
  std::size_t max_body_bytes_;
  bool deliver_blank_lines_;
  bool accept_unterminated_last_line_;
  ReadBuffer buffer_;
  std::optional<ReadResult> terminal_;  // sticky eof / failure
};

}  // namespace rpckit::framing
