#pragma once
// The results a tool returns, built from a text or a JSON value (tools spec, "Tool Result").
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "mcp_2025_11_25/types.hpp"

namespace rpckit::mcp {

namespace m = ::mcp::v2025_11_25;

// A text content block.
m::ContentBlock text_block(std::string text);
// A result of one text block.
m::ToolsCallResult text_result(std::string text);
// A tool's failure as the model reads it: a result with isError and the text, not a JSON-RPC
// error (tools spec, "Error Handling": execution errors, input validation errors among them).
m::ToolsCallResult tool_error(std::string text);
// A structured result: `structured` (an object) as structuredContent, mirrored as a text block
// for clients that read only content (tools spec, "Structured Content"); any other value is
// the text block alone.
m::ToolsCallResult structured_result(const nlohmann::json& structured);

}  // namespace rpckit::mcp
