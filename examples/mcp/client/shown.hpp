#pragma once
// How the sample client's transcript shows a value: on one line, cut to a length.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace mcp_client {

// At most `limit` characters of `text`, on one line ("..." marks a cut).
inline std::string shortened(std::string text, std::size_t limit = 120) {
  for (char& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  if (text.size() > limit) text = text.substr(0, limit) + "...";
  return text;
}

// A JSON value as compact text (invalid UTF-8 replaced), cut the same way.
inline std::string json_text(const nlohmann::json& value, std::size_t limit = 160) {
  return shortened(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), limit);
}

}  // namespace mcp_client
