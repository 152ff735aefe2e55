// The interface every framing's reader implements.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>

#include "rpckit/framing/read_result.hpp"

namespace rpckit::framing {

// Tuning knobs shared by the readers; the defaults suit stdio pipes.
struct ReaderOptions {
  // Bytes requested from the source per read(): frames are parsed out of a buffer, never
  // pulled byte by byte.
  std::size_t chunk_bytes = std::size_t{64} * 1024;
  // Cap on a Content-Length header section (blank line included), so a peer cannot make us
  // buffer headers without bound. Real headers are ~25 bytes.
  std::size_t max_header_bytes = std::size_t{8} * 1024;
  // NDJSON only, for protocols that read lines more strictly than JSON-RPC peers do (core
  // line plugins): a blank line is delivered as an empty body, for the caller to refuse,
  // instead of being skipped; and a last line ended by the end of the stream rather than
  // '\n' is a frame (the next read() is kEof) instead of kTruncatedBody.
  bool deliver_blank_lines = false;
  bool accept_unterminated_last_line = false;
  // A frame over the size limit is skipped instead of ending the stream: read() reports it
  // once as kOversize (the reason says how big it was, as far as is known) and the next
  // read() goes on with the frame after it. What the over-long frame holds is dropped as it
  // arrives, never buffered whole. Off: kOversize is final, like every other failure.
  bool resume_after_oversize = false;
  // NDJSON only: a lone '\r' also ends a line (LF, CRLF or CR), for peers that split input
  // so (loaf RPC).
  bool split_on_cr = false;
};

// Reads frames from a ByteSource.
//
// read() blocks until a whole frame, the end of the stream, or a failure. It reports every
// problem in the result and does not throw (short of std::bad_alloc), so it can run on its own
// thread. After anything but kOk the stream cannot be resynchronised: every later read()
// returns the same status and reason without touching the source. Two exceptions: kOversize
// with ReaderOptions::resume_after_oversize, after which reading goes on, and kTimedOut (a
// deadline set with set_deadline()), after which the next read() resumes the frame it was in.
//
// Thread safety: one thread calls read() (a reader owns parse state). The source must outlive
// the reader.
class FrameReader {
 public:
  virtual ~FrameReader() = default;

  virtual ReadResult read() = 0;

  // Whether a kOversize from read() is followed by the next frame (resume_after_oversize)
  // rather than being final; a reader's user that skips over-long frames needs one that does.
  virtual bool resumes_after_oversize() const { return false; }

  // read() gives up at `deadline` with kTimedOut, keeping what it has read of the frame
  // (nullopt: it waits for ever). False, and nothing changes, where the source cannot time
  // out (ByteSource::set_deadline). Reading thread only.
  virtual bool set_deadline(std::optional<std::chrono::steady_clock::time_point> /*deadline*/) {
    return false;
  }
};

}  // namespace rpckit::framing
