// read_transcript(): recorded bytes -> frames, for the three forms a conversation is kept in.
#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "rpckit/framing/framing.hpp"
#include "rpckit/framing/memory_io.hpp"
#include "rpckit/validate/transcript.hpp"

namespace rpckit::validate {

using nlohmann::json;

namespace {

Finding framing_problem(std::size_t frame, std::size_t line, std::string expected,
                        std::string found) {
  Finding f;
  f.frame = frame;
  f.line = line;
  f.violation = {Violation::Severity::kError, "", "", "framing", std::move(expected),
                 std::move(found)};
  return f;
}

std::vector<Frame> read_content_length(std::string_view bytes, const std::string& from,
                                       std::vector<Finding>& problems) {
  std::vector<Frame> frames;
  framing::MemorySource source{std::string(bytes)};
  // The reader's own cap is the whole input, so a frame over the protocol's cap is read whole
  // and reported by the checker (which sees live frames the same way) instead of ending here.
  auto reader = framing::make_reader(framing::Framing::kContentLength, source,
                                     std::max<std::size_t>(bytes.size(), 1));
  while (true) {
    framing::ReadResult r = reader->read();
    if (r.status == framing::ReadStatus::kEof) break;
    const std::size_t number = frames.size() + 1;
    if (!r.ok()) {
      problems.push_back(framing_problem(number, 0, "a Content-Length frame",
                                         std::string(framing::to_string(r.status)) + ": " +
                                             r.reason + " (reading stops here)"));
      break;
    }
    frames.push_back({number, 0, "", from, std::move(r.body)});
  }
  return frames;
}

std::vector<Frame> read_ndjson(std::string_view bytes, const std::string& from) {
  std::vector<Frame> frames;
  std::size_t line = 0, start = 0;
  while (start < bytes.size()) {
    const auto end = bytes.find('\n', start);
    std::string_view text = bytes.substr(start, end == std::string_view::npos ? end : end - start);
    const std::size_t offset = start;
    ++line;
    start = end == std::string_view::npos ? bytes.size() : end + 1;
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (std::all_of(text.begin(), text.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); })) {
      continue;  // blank lines carry no frame
    }
    frames.push_back({frames.size() + 1, line, "", from, std::string(text), offset});
  }
  return frames;
}

std::vector<Frame> read_json_lines(std::string_view bytes, std::vector<Finding>& problems) {
  std::vector<Frame> frames;
  for (Frame& line : read_ndjson(bytes, "")) {
    json entry = json::parse(line.body, nullptr, false);
    if (entry.is_discarded() || !entry.is_object()) {
      problems.push_back(framing_problem(0, line.line, "a JSON-lines transcript entry", "a line that is not a JSON object"));
      continue;
    }
    if (entry.value("type", "") != "frame") continue;  // lifecycle and host notes
    const std::string direction = entry.value("direction", "");
    const auto to = direction.find("_to_");
    const auto& message = entry.contains("message") ? entry["message"] : json();
    // An unparsable frame was kept as the string of its bytes.
    std::string body = message.is_string() ? message.get<std::string>() : message.dump();
    frames.push_back({frames.size() + 1, line.line, entry.value("plugin", ""),
                      to == std::string::npos ? "" : direction.substr(0, to), std::move(body),
                      line.offset});
  }
  return frames;
}

}  // namespace

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
  if (entry.is_object() && entry.contains("type") && entry.contains("t") && !entry.contains("jsonrpc")) {
    return TranscriptFormat::kJsonLines;
  }
  return TranscriptFormat::kNdjson;
}

std::vector<Frame> read_transcript(std::string_view bytes, TranscriptFormat format,
                                   const std::string& from, std::vector<Finding>& problems) {
  switch (format) {
    case TranscriptFormat::kContentLength: return read_content_length(bytes, from, problems);
    case TranscriptFormat::kNdjson: return read_ndjson(bytes, from);
    case TranscriptFormat::kJsonLines: return read_json_lines(bytes, problems);
  }
  return {};
}

}  // namespace rpckit::validate
