#pragma once
// Lower layer: schema documents -> IR. Every naming and typing decision is made here
// (generator/README.md records them); anything the IR cannot express is a SchemaError.
#include "ir/ir.hpp"
#include "load/schema_set.hpp"

namespace rpckit::gen {

ir::Module lower(const SchemaSet& schema);

}  // namespace rpckit::gen
