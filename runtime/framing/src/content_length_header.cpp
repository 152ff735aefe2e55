#include "content_length_header.hpp"

#include <charconv>
#include <system_error>

#include "text.hpp"

namespace rpckit::framing {

namespace {

ReadResult failure(ReadStatus status, std::string reason) {
  return ReadResult{status, {}, std::move(reason)};
}

bool all_digits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// Plain decimal digits only: no sign, no hex, no spaces inside.
std::optional<ReadResult> parse_length(std::string_view value, std::uint64_t& out) {
  if (value.empty()) {
    return failure(ReadStatus::kBadContentLength, "Content-Length has an empty value");
  }
  if (value.front() == '-' && all_digits(value.substr(1))) {
    return failure(ReadStatus::kBadContentLength,
                   "Content-Length " + text::quote(value) + " is negative");
  }
  if (!all_digits(value)) {
    return failure(ReadStatus::kBadContentLength,
                   "Content-Length " + text::quote(value) + " is not a decimal byte count");
  }
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (ec == std::errc::result_out_of_range) {
    return failure(ReadStatus::kBadContentLength,
                   "Content-Length " + text::quote(value) + " overflows a 64-bit count");
  }
  if (ec != std::errc() || end != value.data() + value.size()) {
    return failure(ReadStatus::kBadContentLength,
                   "Content-Length " + text::quote(value) + " is not a decimal byte count");
  }
  return std::nullopt;
}

}  // namespace

std::optional<ReadResult> ContentLengthHeader::add_line(std::string_view line) {
  ++lines_;
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) {
    return failure(
        ReadStatus::kHeaderWithoutColon,
        "header line " + std::to_string(lines_) + " has no ':' (got " + text::quote(line) + ")");
  }
  if (!text::iequals(text::trim(line.substr(0, colon)), "Content-Length")) {
    return std::nullopt;  // unknown headers (Content-Type, ...) are ignored
  }
  std::uint64_t length = 0;
  if (auto bad = parse_length(text::trim(line.substr(colon + 1)), length)) return bad;
  if (content_length_ && *content_length_ != length) {
    return failure(ReadStatus::kConflictingContentLength,
                   "Content-Length given twice with different values (" +
                       std::to_string(*content_length_) + " and " + std::to_string(length) + ")");
  }
  content_length_ = length;
  return std::nullopt;
}

}  // namespace rpckit::framing
