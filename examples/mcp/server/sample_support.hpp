#pragma once
// What the sample server's handler files share: its one static text.
#include <string>
#include <string_view>

#include "mcp_2025_11_25/types.hpp"

namespace mcp_sample {

namespace mcp = ::mcp::v2025_11_25;

inline constexpr std::string_view kReadmeUri = "sample://readme";
inline constexpr std::string_view kReadmeText =
    "This server is the rpckit MCP sample: tools add, echo, count, ping_client, summarize and "
    "note, this resource, the template sample://echo/{text}, the greet prompt.\n";

}  // namespace mcp_sample
