#include "rpckit/framing/ndjson_writer.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "text.hpp"
#include "write_frame.hpp"

namespace rpckit::framing {

NdjsonWriter::NdjsonWriter(ByteSink& sink, std::size_t max_body_bytes)
    : out_(sink), max_body_bytes_(max_body_bytes) {}

namespace {

// Why NDJSON cannot carry `body`, if it cannot.
std::optional<WriteResult> refuse(std::string_view body) {
  if (const std::size_t lf = body.find('\n'); lf != std::string_view::npos) {
    return WriteResult{WriteStatus::kInvalidBody,
                       {},
                       "body holds a raw newline at byte " + std::to_string(lf) +
                           " (NDJSON needs one body per line)"};
  }
  if (text::is_blank(body)) {
    return WriteResult{
        WriteStatus::kInvalidBody, {}, "body is blank (NDJSON readers skip blank lines)"};
  }
  return std::nullopt;
}

}  // namespace

WriteResult NdjsonWriter::write(std::string_view body) {
  if (auto refused = check_size(body, max_body_bytes_)) return *refused;
  if (auto refused = refuse(body)) return *refused;
  const std::array<std::string_view, 2> parts{body, "\n"};
  return out_.write(parts);
}

WriteResult NdjsonWriter::write_many(std::span<const std::string_view> bodies) {
  for (std::string_view body : bodies) {
    if (check_size(body, max_body_bytes_) || refuse(body)) return FrameWriter::write_many(bodies);
  }
  std::vector<std::string_view> parts;
  parts.reserve(bodies.size() * 2);
  for (std::string_view body : bodies) {
    parts.push_back(body);
    parts.emplace_back("\n");
  }
  return out_.write(parts);
}

}  // namespace rpckit::framing
