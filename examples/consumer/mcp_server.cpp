// An MCP server in C++: one tool, on the installed MCP bindings and the generic plugin role,
// which serves stdin/stdout as MCP's profile says (a JSON-RPC message per line, the end of
// stdin to stop). The handler is the only code: no framing, ids or lifecycle.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "mcp_2025_11_25/constants.hpp"
#include "mcp_2025_11_25/errors.hpp"
#include "mcp_2025_11_25/roles.hpp"
#include "rpckit/roles/plugin_role.hpp"

namespace word_counter {

namespace mcp = ::mcp::v2025_11_25;

struct Session {};  // what the handlers are told of their client: nothing needed here

class Server : public mcp::ServerHandler<Session> {
 public:
  mcp::InitializeResult initialize(Session&, const mcp::InitializeParams&) override {
    mcp::InitializeResult r;
    r.protocolVersion = std::string(mcp::kProtocolVersion);
    r.capabilities.tools.emplace();
    r.serverInfo = {.name = "word-counter", .version = "1.0.0"};
    return r;
  }

  mcp::ToolsListResult tools_list(Session&, const mcp::ToolsListParams&) override {
    mcp::Tool tool;
    tool.name = "count_words";
    tool.description = "Counts the words of a text.";
    const auto schema = nlohmann::json::parse(
        R"({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})");
    tool.inputSchema = schema.get<mcp::ToolInputSchema>();
    return {.tools = {tool}};
  }

  mcp::ToolsCallResult tools_call(Session&, const mcp::ToolsCallParams& call) override {
    if (call.name != "count_words") {
      throw mcp::make_error(mcp::ErrorCode::kInvalidParams, "unknown tool: " + call.name);
    }
    mcp::ToolsCallResult result;
    mcp::TextContent answer;
    const nlohmann::json* text = nullptr;
    if (call.arguments && call.arguments->contains("text")) {
      text = &call.arguments->at("text").get();
    }
    if (text == nullptr || !text->is_string()) {
      answer.text = "count_words needs a string text";
      result.isError = true;  // a tool's failure is a result the model reads
    } else {
      std::istringstream words(text->get<std::string>());
      std::size_t count = 0;
      for (std::string word; words >> word;) ++count;
      answer.text = std::to_string(count);
    }
    result.content = {{answer}};
    return result;
  }
};

}  // namespace word_counter

int main() {
  rpckit::roles::PluginRole<word_counter::mcp::Protocol> role;
  word_counter::Server server;
  word_counter::Session session;
  role.bind(server, session);
  return role.run();
}
