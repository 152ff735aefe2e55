#pragma once
// The additive checks moved to the product (rpckit_compat, tool/compat/api_diff.hpp: `rpckit
// compat` compares the generated C++ API with them); the generator tests keep their names.
#include "tool/compat/api_diff.hpp"

namespace rpckit::gen::test {

using compat::declaration_lines;
using compat::DeclarationLine;
using compat::ir_additive_problems;
using compat::text_additive_problems;

}  // namespace rpckit::gen::test
