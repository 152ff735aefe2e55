#pragma once
// Reading a recorded transcript one entry at a time, in memory bounded by its longest frame or
// line: what read_transcript() does for a buffer, for a file of any size (`rpckit trace` reads
// a 100,000-frame session this way). The three recorded forms are those of transcript.hpp.
#include <cstddef>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "rpckit/validate/transcript_types.hpp"

namespace rpckit::validate {

struct TranscriptEntry {
  // A frame, or (JSON lines only) a line that is something else: a lifecycle event, a host's
  // narration, a plugin's report. Such a line is in `entry`; `frame` is then empty.
  bool is_frame = true;
  Frame frame;
  // The line the entry was read from (JSON lines and NDJSON; empty for Content-Length), for
  // placing a finding at its column.
  std::string line;
  // JSON lines: the whole parsed line (a frame's has its time, "t"); otherwise null.
  nlohmann::json entry;
};

class TranscriptStream {
 public:
  // `format` unset: detected from the first bytes (detect_transcript_format). `from` names the
  // sender of every frame of a raw stream. `in` (or `bytes`) must outlive the stream.
  TranscriptStream(std::istream& in, std::optional<TranscriptFormat> format, std::string from);
  TranscriptStream(std::string_view bytes, std::optional<TranscriptFormat> format,
                   std::string from);
  ~TranscriptStream();
  TranscriptStream(const TranscriptStream&) = delete;
  TranscriptStream& operator=(const TranscriptStream&) = delete;

  TranscriptFormat format() const;
  // The next entry, or false at the end. Problems of the recording itself (a line that is not
  // a JSON object, a broken Content-Length header: reading stops there) go to `problems`.
  bool next(TranscriptEntry& entry, std::vector<Finding>& problems);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rpckit::validate
