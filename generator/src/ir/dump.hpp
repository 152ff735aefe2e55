#pragma once
// `rpckit generate --dump-ir`: the IR as stable, line-oriented text, for lowering tests.
#include <string>

#include "ir/ir.hpp"

namespace rpckit::gen {

std::string dump_ir(const ir::Module& m);
// The profile alone, one line per concern (part of dump_ir): what compat compares.
std::string dump_profile(const ir::Profile& p);
std::string describe(const ir::TypeRef& t);  // "array<nullable<string>>{maxItems=8}"

}  // namespace rpckit::gen
