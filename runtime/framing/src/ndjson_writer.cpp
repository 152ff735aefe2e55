#include "rpckit/framing/ndjson_writer.hpp"

#include <array>

#include "text.hpp"
#include "write_frame.hpp"

namespace rpckit::framing {

NdjsonWriter::NdjsonWriter(ByteSink& sink, std::size_t max_body_bytes)
    : out_(sink), max_body_bytes_(max_body_bytes) {}

WriteResult NdjsonWriter::write(std::string_view body) {
  if (auto refused = check_size(body, max_body_bytes_)) return *refused;
  if (const std::size_t lf = body.find('\n'); lf != std::string_view::npos) {
    return {WriteStatus::kInvalidBody,
            {},
            "body holds a raw newline at byte " + std::to_string(lf) +
                " (NDJSON needs one body per line)"};
  }
  if (text::is_blank(body)) {
    return {WriteStatus::kInvalidBody, {}, "body is blank (NDJSON readers skip blank lines)"};
  }
  const std::array<std::string_view, 2> parts{body, "\n"};
  return out_.write(parts);
}

}  // namespace rpckit::framing
