// The interface every framing's writer implements.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <system_error>

namespace rpckit::framing {

enum class WriteStatus {
  kOk,
  kOversize,     // body larger than the limit; nothing written
  kInvalidBody,  // body the framing cannot carry (NDJSON: raw newline, blank); nothing written
  kIoError,      // the sink failed; the stream may hold a partial frame
};

std::string_view to_string(WriteStatus status);

struct WriteResult {
  WriteStatus status = WriteStatus::kOk;
  std::error_code error;  // set for kIoError (e.g. std::errc::broken_pipe)
  std::string reason;     // empty when ok

  bool ok() const { return status == WriteStatus::kOk; }
};

// Writes frames to a ByteSink.
//
// Thread safety: write() may be called from any number of threads at once. Each frame goes to
// the sink whole (header and body gathered), so frames never interleave; frames submitted
// while another thread writes go out together in one write_all call (FrameSink). A refused body (kOversize, kInvalidBody) writes nothing and
// leaves the writer usable. After kIoError the writer stays failed (the peer may have seen a
// partial frame), returning the same error for every later write. The sink must outlive the
// writer.
class FrameWriter {
 public:
  virtual ~FrameWriter() = default;

  virtual WriteResult write(std::string_view body) = 0;
  // Several frames in order, in one gathered write where the framing can (a sender draining
  // its queue): ok when all were written, else the first failure (a refused body is skipped,
  // the others are still written).
  virtual WriteResult write_many(std::span<const std::string_view> bodies);
};

}  // namespace rpckit::framing
