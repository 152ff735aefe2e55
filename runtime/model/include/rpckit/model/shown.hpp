#pragma once
// How a diagnostic quotes what it rejects: the value as compact JSON, and a closed set of
// accepted values as "a", "b", "c" (the value and the choices, so a typo shows itself).
#include <nlohmann/json.hpp>
#include <string>

namespace rpckit::model {

// Compact JSON, ASCII only, cut to about 60 characters ("..." marks a cut).
std::string shown(const nlohmann::ordered_json& value);

// "\"a\", \"b\"" for any range of strings or string_views.
template <typename Range>
std::string quoted_list(const Range& values) {
  std::string out;
  for (const auto& v : values) {
    if (!out.empty()) out += ", ";
    out += nlohmann::ordered_json(std::string(v)).dump();
  }
  return out;
}

}  // namespace rpckit::model
