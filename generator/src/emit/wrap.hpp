#pragma once
// Generated C++ wrapped at kLineWidth columns, the last step of every C++ emitter (close_file).
// The emitters write a declaration or an expression on one line; a line that ends up longer
// (long type names, member lists, patterns) is broken here, the way clang-format's Google
// style would: at the outermost level that lets the first part fit, after a comma (the rest
// aligned after the open bracket), after an open bracket or after ` = ` (the rest indented
// four more). A string literal that alone is too long becomes adjacent literals, which C++
// joins into the same string. Comment and preprocessor lines are left as they are, and so is
// a line with nothing to break at.
#include <cstddef>
#include <string>
#include <string_view>

namespace rpckit::gen {

std::string wrap_lines(std::string_view text, std::size_t width);

}  // namespace rpckit::gen
