// What a FrameReader hands back: a status, the body when ok, and a reason a human can act on.
#pragma once

#include <string>
#include <string_view>

namespace rpckit::framing {

enum class ReadStatus {
  kOk,
  kEof,       // clean end of stream between frames
  kOversize,  // declared (or buffered) body larger than the limit; detected before reading it
  kIoError,   // the ByteSource failed (not the peer's framing)
  // The deadline set with FrameReader::set_deadline passed before a whole frame arrived. Not
  // final: nothing read so far is lost, and the next read() goes on where this one stopped.
  kTimedOut,
  // Malformed framing; is_malformed() is true for exactly these.
  kMissingContentLength,      // header section without a Content-Length field
  kBadContentLength,          // empty, non-numeric, negative or overflowing value
  kConflictingContentLength,  // Content-Length given twice with different values
  kHeaderWithoutColon,        // a header line that is not `name: value`
  kBadLineEnding,             // a header line ended by a bare '\n' (CRLF is required)
  kHeaderTooLong,             // header section exceeds the header cap
  kTruncatedHeader,           // stream ended inside the header section
  kTruncatedBody,             // stream ended inside the body (or inside an NDJSON line)
};

bool is_malformed(ReadStatus status);
std::string_view to_string(ReadStatus status);

struct ReadResult {
  ReadStatus status = ReadStatus::kOk;
  std::string body;    // the frame's bytes when status == kOk, else empty
  std::string reason;  // empty when ok, e.g. "header line 2 has no ':' (got \"garbage\")"

  bool ok() const { return status == ReadStatus::kOk; }
  static ReadResult timed_out() {
    return {ReadStatus::kTimedOut, {}, "the deadline passed before a whole frame arrived"};
  }
};

}  // namespace rpckit::framing
