#pragma once
// How both sides of core line plugins v1 read a line (spec section 1): newline-delimited,
// surrounding whitespace stripped, a blank line is a line (and malformed, so it is delivered
// for the caller to refuse, not skipped), a last line ended by EOF instead of LF counts, and
// nothing longer than max_line_bytes is buffered.
#include <cstddef>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core_line_v1/constants.hpp"
#include "rpckit/codec/json_reader.hpp"
#include "rpckit/framing/frame_reader.hpp"

namespace core_line_sample {

inline constexpr std::size_t kMaxLineBytes = core_line::v1::kMaxLineBytes;

inline rpckit::framing::ReaderOptions line_rules() {
  rpckit::framing::ReaderOptions options;
  options.deliver_blank_lines = true;
  options.accept_unterminated_last_line = true;
  return options;
}

// The line as one JSON object, or nullopt (empty, not JSON, trailing bytes, not an object,
// nested deeper than rpckit::codec::kMaxJsonDepth, invalid UTF-8). Checked by rpckit's
// iterative reader first, so nothing after it recurses on a peer's nesting.
inline std::optional<nlohmann::json> parse_object(std::string_view line) {
  try {
    rpckit::codec::validate_json(line);
  } catch (const rpckit::codec::JsonError&) {
    return std::nullopt;
  }
  nlohmann::json value = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!value.is_object()) return std::nullopt;
  return value;
}

}  // namespace core_line_sample
