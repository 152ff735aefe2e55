#pragma once
// Lowering of protocol.json's "x-profile" (schema/README.md, "Protocol profile").
#include "ir/ir.hpp"
#include "load/schema_set.hpp"

namespace rpckit::gen {

// `m` must already hold the constants and messages the profile names. Throws SchemaError.
ir::Profile lower_profile(const Node& profile, const ir::Module& m);

}  // namespace rpckit::gen
