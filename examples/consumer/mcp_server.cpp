// An MCP server in C++: one typed tool, on the installed MCP bindings, rpckit::mcp's ToolSet and
// the generic plugin role, which serves stdin/stdout as MCP's profile says (a JSON-RPC message
// per line, the end of stdin to stop). The tool's arguments and result are structs generated
// from word_count_tools/ with their JSON Schemas, which the client is shown as the tool's
// inputSchema and outputSchema. No framing, ids, lifecycle or argument checks here.
#include <sstream>
#include <string>

#include "mcp_2025_11_25/constants.hpp"
#include "mcp_2025_11_25/roles.hpp"
#include "rpckit/mcp/tool_set.hpp"
#include "rpckit/roles/plugin_role.hpp"
#include "word_count_tools/types.hpp"

namespace word_counter {

namespace mcp = ::mcp::v2025_11_25;

struct Session {};  // what the handlers are told of their client: nothing needed here

class Server : public mcp::ServerHandler<Session> {
 public:
  Server() {
    // Arguments that do not decode into WordCountArgs are a tool error saying where.
    tools_.add<WordCountArgs>("count_words", "Counts the words of a text.",
                              [](const WordCountArgs& args) {
                                std::istringstream text(args.text);
                                WordCount count{};
                                for (std::string word; text >> word;) ++count.words;
                                return count;  // sent as structured content, and as its text
                              });
  }

  mcp::InitializeResult initialize(Session&, const mcp::InitializeParams&) override {
    mcp::InitializeResult r;
    r.protocolVersion = std::string(mcp::kProtocolVersion);
    r.capabilities.tools.emplace();
    r.serverInfo = {.name = "word-counter", .version = "1.0.0"};
    return r;
  }
  mcp::ToolsListResult tools_list(Session&, const mcp::ToolsListParams& p) override {
    return tools_.list(p);
  }
  mcp::ToolsCallResult tools_call(Session&, const mcp::ToolsCallParams& p) override {
    return tools_.call(p);
  }

 private:
  rpckit::mcp::ToolSet tools_;
};

}  // namespace word_counter

int main() {
  rpckit::roles::PluginRole<word_counter::mcp::Protocol> role;
  word_counter::Server server;
  word_counter::Session session;
  role.bind(server, session);
  return role.run();
}
