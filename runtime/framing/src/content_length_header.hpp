// Parsing of one Content-Length header line, kept apart from the buffering around it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "rpckit/framing/read_result.hpp"

namespace rpckit::framing {

// Accumulates what the header lines of one frame say.
class ContentLengthHeader {
 public:
  // Takes one line (without its CRLF). Returns the failure, or nothing if the line is fine.
  std::optional<ReadResult> add_line(std::string_view line);

  const std::optional<std::uint64_t>& content_length() const { return content_length_; }
  std::size_t lines() const { return lines_; }

 private:
  std::optional<std::uint64_t> content_length_;
  std::size_t lines_ = 0;
};

}  // namespace rpckit::framing
