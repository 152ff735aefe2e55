// Reader for newline-delimited JSON: one body per line.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

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
// ReaderOptions::resume_after_oversize skips an over-long line (dropped as it arrives: at
// most max_body_bytes + 1 + chunk_bytes are held) and reads on; split_on_cr ends lines at a
// lone '\r' too.
// Thread safety: see FrameReader (one reading thread).
class NdjsonReader final : public FrameReader {
 public:
  NdjsonReader(ByteSource& source, std::size_t max_body_bytes, ReaderOptions options = {});

  ReadResult read() override;
  bool resumes_after_oversize() const override { return resume_after_oversize_; }
  bool set_deadline(std::optional<std::chrono::steady_clock::time_point> deadline) override {
    return source_.set_deadline(deadline);
  }

 private:
  struct LineEnd {
    std::size_t at;    // offset of the terminator, or npos
    std::size_t size;  // 1 (LF, CR) or 2 (CRLF)
  };
  ReadResult fail(ReadStatus status, std::string reason);
  ReadResult oversize(std::string reason);  // final unless resume_after_oversize
  // A strict or CR-splitting option is on: delivered lines are stripped.
  bool strips_lines() const;
  LineEnd find_end(std::string_view data, std::size_t from) const;
  void consume_line(std::string_view data, LineEnd end);
  void drop_lf_after_cr();
  std::optional<ReadResult> skip_rest_of_line();

  ByteSource& source_;
  std::size_t max_body_bytes_;
  bool deliver_blank_lines_;
  bool accept_unterminated_last_line_;
  bool resume_after_oversize_;
  bool split_on_cr_;
  bool skipping_ = false;       // inside an over-long line being dropped
  bool lf_may_follow_ = false;  // the last line ended with the last byte buffered, a '\r'
  ReadBuffer buffer_;
  std::optional<ReadResult> terminal_;  // sticky eof / failure
};

}  // namespace rpckit::framing
