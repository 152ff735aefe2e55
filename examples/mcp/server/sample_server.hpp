#pragma once
// The sample MCP server's handlers over the generated ServerHandler: tools (add, echo; count,
// which reports progress, logs and stops when the client cancels it; ping_client, which pings
// the client back), one text resource, one prompt and the log level. Everything on the wire
// (framing, ids, errors, the lifecycle, cancellation) is the generic plugin role's, driven by
// MCP's profile; what the server sends the client goes through the generated ClientClient.
#include <mutex>
#include <string>

#include "mcp_2025_11_25/roles.hpp"

namespace mcp_sample {

namespace mcp = mcp::v2025_11_25;

struct Peer {};  // one client per server process: nothing to tell apart

class SampleServer : public mcp::ServerHandler<Peer> {
 public:
  explicit SampleServer(const mcp::ClientClient& client) : client_(client) {}

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
  mcp::ToolsCallResult count(const mcp::ToolsCallParams& p);
  mcp::ToolsCallResult ping_client();
  void log(const mcp::LoggingLevel& level, const std::string& text);

  const mcp::ClientClient& client_;
  mutable std::mutex mutex_;
  std::string log_level_ = "info";
};

}  // namespace mcp_sample
