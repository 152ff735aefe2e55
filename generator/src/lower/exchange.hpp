#pragma once
// Lowering of protocol.json's "x-exchange" (schema/README.md, "One-shot exchange").
#include "ir/ir.hpp"
#include "model.hpp"

namespace rpckit::gen {

// `m` must already hold the constants and types the exchange names. Throws SchemaError.
ir::Exchange lower_exchange(const Node& exchange, const ir::Module& m);

}  // namespace rpckit::gen
