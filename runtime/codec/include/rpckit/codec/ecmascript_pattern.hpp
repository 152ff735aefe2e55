#pragma once
// JSON Schema patterns are ECMAScript regular expressions (ajv compiles them with the `u`
// flag); the generated decoders and the validator match them with RE2, which runs in time linear in the input
// and without recursion. This translates one into the other, keeping ECMAScript's meaning:
//
//   \s, \S   ECMAScript's Unicode white space and line terminators (RE2's \s is ASCII only)
//   .        any code point but \n, \r, U+2028, U+2029 (RE2's . excludes only \n)
//   \v \0 \xHH \uHHHH \u{H..} \cX   spelled as RE2 \x{...}; surrogate pairs joined
//   [ inside a class   a literal '[' (RE2 would read "[:alpha:]" as a POSIX class)
//   []  [^]  never matches / matches any code point
//   (?<name>...)       RE2's (?P<name>...)
//
// Refused, with the offset and a reason (RE2 cannot run them in linear time, or ECMAScript's
// `u` mode rejects them): backreferences (\1, \k<name>), lookahead and lookbehind, \p{...}
// property escapes, \S inside a class with other items, lone surrogates, repetition counts
// over 1000, and anything the `u` flag makes a syntax error (identity escapes of letters,
// lone braces or brackets).
#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

namespace rpckit::codec {

struct PatternError {
  std::size_t offset;  // byte offset in the ECMAScript pattern
  std::string reason;
};

// The RE2 spelling of `ecmascript`, or why it cannot be matched in linear time.
std::variant<std::string, PatternError> ecmascript_to_re2(std::string_view ecmascript);

// Why RE2 rejects `re2` (compiled as the runtime compiles it), or "" when it compiles.
std::string re2_error(const std::string& re2);

}  // namespace rpckit::codec
