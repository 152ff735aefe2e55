#pragma once
// The whitespace the spec strips ("after trimming whitespace") and the canonical form of a
// capability string (section 6: non-empty, no leading or trailing whitespace).
#include <string>
#include <string_view>

namespace rpckit::core_line::detail {

inline constexpr std::string_view kSpace = " \t\r\n\f\v";

inline std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return std::string(s.substr(first, s.find_last_not_of(kSpace) - first + 1));
}

inline bool blank(std::string_view s) { return s.find_first_not_of(kSpace) == std::string_view::npos; }

inline bool canonical(std::string_view s) { return !s.empty() && trim(s) == s; }

}  // namespace rpckit::core_line::detail
