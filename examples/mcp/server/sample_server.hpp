#pragma once
// The sample MCP server's handlers: two tools (add, echo), one text resource, one prompt and
// the log level, over the generated ServerHandler. Everything on the wire (framing, ids,
// errors, the lifecycle) is the generic plugin role's, driven by MCP's profile.
#include <mutex>
#include <string>

#include "mcp_2025_11_25/roles.hpp"

namespace mcp_sample {

namespace mcp = mcp::v2025_11_25;

struct Peer {};  // one client per server process: nothing to tell apart

class SampleServer : public mcp::ServerHandler<Peer> {
 public:
  mcp::InitializeResult initialize(Peer&, const mcp::InitializeParams& p) override;
  mcp::PingResult ping(Peer&, const mcp::PingParams&) override;
  mcp::ToolsListResult tools_list(Peer&, const mcp::ToolsListParams&) override;
  mcp::ToolsCallResult tools_call(Peer&, const mcp::ToolsCallParams& p) override;
  mcp::ResourcesListResult resources_list(Peer&, const mcp::ResourcesListParams&) override;
  mcp::ResourcesReadResult resources_read(Peer&, const mcp::ResourcesReadParams& p) override;
  mcp::PromptsListResult prompts_list(Peer&, const mcp::PromptsListParams&) override;
  mcp::PromptsGetResult prompts_get(Peer&, const mcp::PromptsGetParams& p) override;
  mcp::LoggingSetLevelResult logging_setLevel(Peer&, const mcp::LoggingSetLevelParams& p) override;

  std::string log_level() const;

 private:
  mutable std::mutex mutex_;
  std::string log_level_ = "info";
};

}  // namespace mcp_sample
