#pragma once
// Lower layer: schema documents -> IR. Every naming and typing decision is made here
// (generator/README.md records them); anything the IR cannot express is a SchemaError.
#include "ir/ir.hpp"
#include "model.hpp"

namespace rpckit::gen {

struct LowerOptions {
  // Read a profile in rpckit 0.1's first form (lower_profile): for compat, which reads old
  // releases; the generator never writes code from one.
  bool accept_legacy_profile = false;
};

ir::Module lower(const SchemaSet& schema, LowerOptions options = {});

}  // namespace rpckit::gen
