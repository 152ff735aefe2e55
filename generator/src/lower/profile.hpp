#pragma once
// Lowering of protocol.json's "x-profile" (schema/README.md, "Protocol profile").
#include "ir/ir.hpp"
#include "model.hpp"

namespace rpckit::gen {

// `m` must already hold the constants and messages the profile names. Throws SchemaError.
// `accept_legacy`: a profile in rpckit 0.1's first form (no "stop", no "oversize") is read
// with the meaning it had then (compat reads old releases so); otherwise it is an error.
ir::Profile lower_profile(const Node& profile, const ir::Module& m, bool accept_legacy = false);

}  // namespace rpckit::gen
