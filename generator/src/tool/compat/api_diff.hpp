#pragma once
// The C++ API comparison: "an additive schema change adds symbols and renames none"
// (DESIGN.md), as two checks of an old and a new generation. Each returns one line per
// broken promise; empty = additive. compare() (compat.hpp) runs both.
#include <string>
#include <vector>

#include "emit/emit.hpp"
#include "ir/ir.hpp"

namespace rpckit::compat {

// IR level: every old type still exists with the same kind; every old struct field with the
// same C++ name, type (describe()), required-ness, const and default; every old enum value
// with the same C++ name and wire value and, for string enums, the same position; every old
// union member in its place; every old message with the same descriptor, params, result,
// presence, deadline, gate and errors; every old constant unchanged; same module identity.
std::vector<std::string> ir_additive_problems(const gen::ir::Module& before,
                                              const gen::ir::Module& after);

// Text level, over the generated headers (*.hpp). A "declaration line" is a line that declares
// a named symbol: it sits directly in a namespace, struct, class or enum (not in a function
// body or an initializer list) and is not a comment, a preprocessor line, a lone brace or an
// access specifier. Each is keyed by its scope path ("streamnook::v1/Channel") and must
// appear, byte for byte, in the same scope of the new header. See api_diff.cpp for the
// two kinds of lines that are ignored and why.
struct DeclarationLine {
  std::string scope;
  std::string text;  // trimmed, trailing comment included (it carries a string enum's wire)
};
std::vector<DeclarationLine> declaration_lines(const std::string& header);
std::vector<std::string> text_additive_problems(const std::vector<gen::OutputFile>& before,
                                                const std::vector<gen::OutputFile>& after);

}  // namespace rpckit::compat
