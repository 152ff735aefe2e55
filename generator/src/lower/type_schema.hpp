#pragma once
// A type's JSON Schema on its own (x-type-schemas): what a peer that does not have our schema
// files is shown, e.g. an MCP tool's inputSchema generated from the struct its arguments
// decode into. Private to lower/.
#include <string>

#include "rpckit/model/schema_set.hpp"

namespace rpckit::gen {

// The schema written at `node`, self-contained: every $ref replaced by the schema it names
// (its "description" kept when the target has none), our "x-" annotations and "definitions"
// left out, as compact JSON text in the schema's key order.
std::string self_contained_schema(const model::SchemaSet& set, const model::Node& node);

}  // namespace rpckit::gen
