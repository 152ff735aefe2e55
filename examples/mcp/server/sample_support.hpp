#pragma once
// What the sample server's handler files share: its one static text, and how a text becomes a
// content block or a tool's failure.
#include <string>
#include <string_view>
#include <utility>

#include "mcp_2025_11_25/types.hpp"

namespace mcp_sample {

namespace mcp = ::mcp::v2025_11_25;

inline constexpr std::string_view kReadmeUri = "sample://readme";
inline constexpr std::string_view kReadmeText =
    "This server is the rpckit MCP sample: tools add, echo, count, ping_client, summarize and "
    "note, this resource, the template sample://echo/{text}, the greet prompt.\n";
inline constexpr std::string_view kEchoPrefix = "sample://echo/";

inline mcp::ContentBlock text_block(std::string text) {
  mcp::TextContent t;
  t.text = std::move(text);
  return {t};
}

// A tool's failure is a result the model reads (isError), not a JSON-RPC error (tools spec,
// "Error Handling").
inline mcp::ToolsCallResult tool_error(std::string text) {
  mcp::ToolsCallResult r;
  r.content.push_back(text_block(std::move(text)));
  r.isError = true;
  return r;
}

}  // namespace mcp_sample
