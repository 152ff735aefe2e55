#pragma once
// The protocol's documentation as `rpckit trace` embeds it: every schema node its messages
// reach (through $ref, properties, items, additionalProperties, allOf/anyOf/oneOf), each with
// its description, title, type, required members and enum, and per message where its envelope
// and result start. The page walks it along a message's JSON pointers to show each member's
// description beside the value. Read from the model `rpckit validate` loads; no schema reader
// of its own.
#include <nlohmann/json.hpp>

#include "rpckit/validate/protocol.hpp"

namespace rpckit::trace {

// {"nodes": [{"d", "n", "t", "r", "e", "p": {member: node}, "i", "a", "x": [node...]}...],
//  "methods": {name: {"d", "kind", "from", "to", "env": node, "res": node}}, "error": node}
nlohmann::json schema_docs(const validate::ProtocolSchema& protocol);

}  // namespace rpckit::trace
