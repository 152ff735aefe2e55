// Small string helpers for header parsing and for reasons that quote peer bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rpckit::framing::text {

// Strips spaces and tabs (the HTTP "optional whitespace") from both ends.
std::string_view trim(std::string_view s);
bool iequals(std::string_view a, std::string_view b);
bool is_blank(std::string_view s);  // only ' ', '\t', '\r'
std::string_view strip(std::string_view s);  // drops ' ', '\t', '\r' from both ends
// `s` in double quotes, C-escaped and cut to max_chars, safe to put in a log line even when
// the peer sent binary garbage.
std::string quote(std::string_view s, std::size_t max_chars = 64);
// "the <limit>-byte limit", as every oversize reason words it.
std::string byte_limit(std::size_t limit);

}  // namespace rpckit::framing::text
