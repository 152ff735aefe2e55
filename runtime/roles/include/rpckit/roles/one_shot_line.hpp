#pragma once
// Lines of a one-shot exchange (protocol.json "x-exchange"), the part both sides share: the
// reader options a profile's line rules mean, and one line read as a JSON object.
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "rpckit/framing/frame_reader.hpp"

namespace rpckit::roles {

// What a side got when it waited for a step's line.
struct LineReceived {
  enum class Status {
    kOk,         // `message` is the line's JSON object
    kTimeout,    // the step's deadline or the invoke deadline passed first
    kEof,        // the stream ended before any byte of the line
    kMalformed,  // empty, over the limit, not exactly one JSON object, too deep, bad UTF-8
    kIoError,
  };
  Status status = Status::kIoError;
  nlohmann::json message;  // kOk
  std::string line;        // the line as read (kOk, and kMalformed when a line was read)
  std::string reason;      // says where and why, for anything but kOk
  bool ok() const { return status == Status::kOk; }
};

// Strict lines: a blank line is delivered (to be refused as malformed), and a last line ended
// by EOF instead of '\n' counts; delivered lines have surrounding whitespace stripped.
framing::ReaderOptions line_reader_options(bool strict_lines);

// A line already read (the reader said kOk) as a LineReceived: kOk with its JSON object, or
// kMalformed saying why. Checked by rpckit's iterative reader first, so nothing after it
// recurses on a peer's nesting.
LineReceived parse_line(std::string line);

// A reader's failure as a LineReceived (kOversize is malformed; kEof, kIoError as such).
LineReceived read_failure(const framing::ReadResult& result);

}  // namespace rpckit::roles
