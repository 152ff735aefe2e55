#pragma once
// The C++ API comparison: "an additive schema change adds symbols and renames none"
// (DESIGN.md), as two checks of an old and a new module, both read from the model (IR): what
// each symbol means, and how the headers declare it. Each returns one line per broken
// promise; empty = additive. compare() (compat.hpp) runs both.
#include <string>
#include <vector>

#include "emit/api_surface.hpp"
#include "ir/ir.hpp"

namespace rpckit::compat {

// IR level: every old type still exists with the same kind; every old struct field with the
// same C++ name, type (describe()), required-ness, const and default; every old enum value
// with the same C++ name and wire value and, for string enums, the same position; every old
// union member in its place; every old message with the same descriptor, params, result,
// presence, deadline, gate and errors; every old constant unchanged; same module identity.
std::vector<std::string> ir_additive_problems(const gen::ir::Module& before,
                                              const gen::ir::Module& after);

// Declaration level, over the API the headers declare (gen::api_surface): every old
// declaration is still declared, in the same scope and spelled the same. A string enum's
// value keeps its position, a message's gate and errors arrays their lengths; a dispatch
// direction's message list may grow. One line per declaration changed or gone.
std::vector<std::string> api_surface_problems(const std::vector<gen::ApiFact>& before,
                                              const std::vector<gen::ApiFact>& after);

}  // namespace rpckit::compat
