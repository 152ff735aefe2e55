// ASCII character classes shared by the codec's parsers (JSON text, ECMAScript patterns):
// independent of the C locale, which <cctype> is not.
#pragma once

namespace rpckit::codec::ascii {

constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace rpckit::codec::ascii
