#pragma once
// What the transcript checkers take and give: a frame, and a finding about one.
#include <cstddef>
#include <cstdint>
#include <string>

#include "rpckit/validate/violation.hpp"

namespace rpckit::validate {

// How a conversation was recorded: the raw bytes of one pipe, or a host's JSON-lines transcript.
enum class TranscriptFormat : std::uint8_t { kContentLength, kNdjson, kJsonLines };

struct Frame {
  std::size_t number = 0;  // 1-based, in the order frames crossed the pipe(s)
  std::size_t line = 0;    // line in the transcript file (JSON-lines and NDJSON), else 0
  std::string peer;        // which conversation ("" when there is one); ids are per peer
  std::string from;        // the role that sent it ("" = unknown: taken from the method)
  std::string body;        // the frame's bytes
  std::size_t offset = 0;  // where its line starts in the transcript file (when `line` is set)
};

struct Finding {
  std::size_t frame = 0;  // 0: the transcript as a whole (e.g. a request never answered)
  std::size_t line = 0;
  std::string peer;
  std::string from;
  Violation violation;
};

}  // namespace rpckit::validate
