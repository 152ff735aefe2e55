#pragma once
// Included right after the one role header a test translation unit is about: proves that
// header (and all it includes) kept nlohmann/json.hpp and <regex> out. json_fwd.hpp defines
// the version macros too, so what proves it is that nlohmann::json is only declared here.
#include <nlohmann/json_fwd.hpp>

#ifdef INCLUDE_NLOHMANN_JSON_HPP_
#error "the role header pulled in nlohmann/json.hpp"
#endif
#ifdef _GLIBCXX_REGEX
#error "the role header pulled in <regex>"
#endif

namespace light_header_checks {
template <class T>
concept Complete = requires { sizeof(T); };
static_assert(!Complete<nlohmann::json>, "nlohmann::json must be incomplete here");
}  // namespace light_header_checks
