#pragma once
// The additive checks moved to the product (rpckit_compat, tool/compat/api_diff.hpp: `rpckit
// compat` compares the generated C++ API with them); the generator tests keep their names.
#include "emit/api_surface.hpp"
#include "tool/compat/api_diff.hpp"

namespace rpckit::gen::test {

using compat::api_surface_problems;
using compat::ir_additive_problems;

}  // namespace rpckit::gen::test
