#pragma once
// The whitespace the core line spec strips ("after trimming whitespace").
#include <string>
#include <string_view>

namespace core_line_sample {

inline constexpr std::string_view kSpace = " \t\r\n\f\v";

inline std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return std::string(s.substr(first, s.find_last_not_of(kSpace) - first + 1));
}

inline bool blank(std::string_view s) { return s.find_first_not_of(kSpace) == std::string_view::npos; }

}  // namespace core_line_sample
