#pragma once
// Parsing text the endpoint's reader has already validated (depth and numbers within limits),
// so nothing that walks the result recurses deeper than the profile allows.
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rpckit::detail {

// Never throws: should nlohmann ever disagree with the scan, the value is treated as
// unparseable rather than ending the thread.
inline std::optional<nlohmann::json> parse_validated(std::string_view text) {
  nlohmann::json value = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) return std::nullopt;
  return value;
}

}  // namespace rpckit::detail
