// Reader for `Content-Length: <N>\r\n\r\n<N bytes>` frames (LSP-style base protocol).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "rpckit/framing/byte_io.hpp"
#include "rpckit/framing/frame_reader.hpp"
#include "rpckit/framing/read_buffer.hpp"

namespace rpckit::framing {

// Rules: header lines end in CRLF and the section ends with an empty line; names are
// case-insensitive; unknown headers are ignored; spaces/tabs around names and values are
// tolerated; N counts bytes and must be plain decimal digits. Content-Length given twice is
// accepted only with the same value. N > max_body_bytes is reported as kOversize as soon as
// the header section is complete, before any body byte is requested (and, with
// ReaderOptions::resume_after_oversize, its body is then dropped as it arrives).
// Thread safety: see FrameReader (one reading thread).
class ContentLengthReader final : public FrameReader {
 public:
  ContentLengthReader(ByteSource& source, std::size_t max_body_bytes, ReaderOptions options = {});

  ReadResult read() override;
  bool resumes_after_oversize() const override { return options_.resume_after_oversize; }
  bool set_deadline(std::optional<std::chrono::steady_clock::time_point> deadline) override {
    return source_.set_deadline(deadline);
  }

 private:
  ReadResult read_header(std::size_t& body_bytes);
  ReadResult read_body();
  ReadResult fail(ReadStatus status, std::string reason);
  std::optional<ReadResult> skip_body();

  ByteSource& source_;
  std::size_t max_body_bytes_;
  ReaderOptions options_;
  ReadBuffer buffer_;
  std::optional<ReadResult> terminal_;  // sticky eof / failure
  std::uint64_t skip_remaining_ = 0;    // body bytes of an over-long frame still to drop
  // The body being read, sized by its header, and how much of it has arrived: kept across a
  // kTimedOut, as its header is already consumed.
  std::optional<std::string> body_;
  std::size_t body_filled_ = 0;
};

}  // namespace rpckit::framing
