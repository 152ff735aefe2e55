// read_transcript(): recorded bytes -> frames, for the three forms a conversation is kept in
// (read by TranscriptStream); naming and detecting the form.
#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "rpckit/validate/transcript.hpp"
#include "rpckit/validate/transcript_stream.hpp"

namespace rpckit::validate {

using nlohmann::json;

std::optional<TranscriptFormat> parse_transcript_format(std::string_view name) {
  if (name == "content-length") return TranscriptFormat::kContentLength;
  if (name == "ndjson") return TranscriptFormat::kNdjson;
  if (name == "jsonl") return TranscriptFormat::kJsonLines;
  return std::nullopt;
}

std::string_view to_string(TranscriptFormat format) {
  switch (format) {
    case TranscriptFormat::kContentLength: return "content-length";
    case TranscriptFormat::kNdjson: return "ndjson";
    case TranscriptFormat::kJsonLines: return "jsonl";
  }
  return "";
}

TranscriptFormat detect_transcript_format(std::string_view bytes) {
  const auto first = bytes.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return TranscriptFormat::kNdjson;
  std::string head(bytes.substr(first, 15));
  std::transform(head.begin(), head.end(), head.begin(), [](unsigned char c) { return std::tolower(c); });
  if (head == "content-length:") return TranscriptFormat::kContentLength;
  const auto end = bytes.find('\n', first);
  json entry = json::parse(bytes.substr(first, end == std::string_view::npos ? end : end - first), nullptr, false);
  // A transcript entry names its type; a JSON-RPC message never has these (nor "t" needed).
  if (entry.is_object() && !entry.contains("jsonrpc") && entry.contains("type") &&
      entry["type"].is_string()) {
    const std::string type = entry["type"].get<std::string>();
    if (type == "frame" || type == "lifecycle" || type == "host" || type == "report") {
      return TranscriptFormat::kJsonLines;
    }
  }
  return TranscriptFormat::kNdjson;
}

std::vector<Frame> read_transcript(std::string_view bytes, TranscriptFormat format,
                                   const std::string& from, std::vector<Finding>& problems) {
  std::vector<Frame> frames;
  TranscriptStream stream(bytes, format, from);
  TranscriptEntry entry;
  while (stream.next(entry, problems)) {
    if (entry.is_frame) frames.push_back(std::move(entry.frame));
  }
  return frames;
}

}  // namespace rpckit::validate
