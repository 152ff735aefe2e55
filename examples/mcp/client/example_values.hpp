#pragma once
// A small valid value for a JSON Schema: what the sample client sends a tool it knows only by
// its inputSchema (and what it answers an elicitation form with). Not a generator of every
// valid instance; enough for the schemas servers give their tools: a const or the first enum
// value, else the default, else the smallest value the bounds allow, with every required
// property of an object (and the optional ones left out).
#include <nlohmann/json.hpp>

namespace mcp_client {

nlohmann::json example_value(const nlohmann::json& schema, int depth = 0);

}  // namespace mcp_client
