// A receiver checks what it is asked against what it declared of itself in initialize (the
// profile's gate_on_receipt), whatever handlers the application registered: a client answers a
// request for a capability it did not declare -32601 (client/roots: "Client does not support
// roots") and an elicitation in a mode it did not declare -32602 (client/elicitation, Error
// Handling), before its handler runs, and reports the server's request as undeclared. A params
// field that needs a capability is the sender's rule alone: a client that did not declare tasks
// serves a task-augmented request as a plain one (basic/utilities/tasks: it "MUST process requests
// of that type normally"). The server asking is written from the spec
// (tests/mcp/peers/asking_server.py) and writes down how each request was answered.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "peer_support.hpp"

namespace {

namespace mcp = ::mcp::v2025_11_25;
using namespace rpckit_mcp_test;

struct Session {};

// Serves every client feature, whatever the client declared.
class EveryFeature : public mcp::ClientHandler<Session> {
 public:
  mcp::RootsListResult roots_list(Session&, const mcp::RootsListParams&) override {
    ++roots;
    return {};
  }
  mcp::ElicitationCreateResult elicitation_create(Session&,
                                                  const mcp::ElicitationCreateParams&) override {
    ++elicitations;
    return nlohmann::json::parse(R"({"action": "decline"})").get<mcp::ElicitationCreateResult>();
  }
  mcp::SamplingCreateMessageResult sampling_createMessage(
      Session&, const mcp::SamplingCreateMessageParams&) override {
    ++samplings;
    return nlohmann::json::parse(R"({"role": "assistant", "model": "m",
                                     "content": {"type": "text", "text": "hi"}})")
        .get<mcp::SamplingCreateMessageResult>();
  }
  std::atomic<int> roots{0};
  std::atomic<int> elicitations{0};
  std::atomic<int> samplings{0};
};

// The lines of `text`, sorted: the client may answer in any order.
std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

using ReceiptGates = NotesTest;

TEST_F(ReceiptGates, AClientRefusesWhatItDidNotDeclareWhateverItsHandlers) {
  const nlohmann::json asks = nlohmann::json::parse(R"([
    {"method": "roots/list", "params": {}},
    {"method": "elicitation/create",
     "params": {"mode": "url", "message": "sign in", "url": "https://example.com/sign-in",
                "elicitationId": "e1"}},
    {"method": "elicitation/create",
     "params": {"message": "your name?",
                "requestedSchema": {"type": "object", "properties": {}}}},
    {"method": "sampling/createMessage",
     "params": {"messages": [], "maxTokens": 10, "task": {"ttl": 60000}}},
    {"method": "sampling/createMessage",
     "params": {"messages": [], "maxTokens": 10,
                "tools": [{"name": "t", "inputSchema": {"type": "object"}}]}}
  ])");
  // Sampling, and elicitation as an empty object: form mode only. No roots, no tasks.
  auto params = [] {
    mcp::InitializeParams p = hello();
    p.capabilities.sampling.emplace();
    p.capabilities.elicitation.emplace();
    return p;
  };
  EveryFeature client;
  Session session;
  Server server({.id = "asking",
                 .command = {RPCKIT_ASKING_SERVER, notes_.string(), asks.dump()},
                 .handshake_params = params});
  server.bind(client, session);
  std::mutex mutex;
  std::vector<std::string> reported;  // what the spawner reported as undeclared
  server.on_diagnostic([&](const rpckit::Diagnostic& d) {
    std::lock_guard lock(mutex);
    if (d.kind == rpckit::Diagnostic::Kind::kUndeclared) reported.push_back(d.detail);
  });
  ASSERT_TRUE(server.start());
  ASSERT_TRUE(eventually([&] { return count(notes(), "\n") == 5; })) << notes();
  EXPECT_EQ(sorted_lines(notes()), (std::vector<std::string>{
                                       "0 error -32601",  // roots: not declared
                                       "1 error -32602",  // elicitation.url: not declared
                                       "2 result",        // form mode: declared
                                       "3 result",        // a task without tasks: served plainly
                                       "4 result",        // tools without sampling.tools: served
                                   }));
  EXPECT_EQ(client.roots, 0) << "refused before its handler ran";
  EXPECT_EQ(client.elicitations, 1);
  EXPECT_EQ(client.samplings, 2);
  server.stop();
  std::sort(reported.begin(), reported.end());
  EXPECT_EQ(reported, (std::vector<std::string>{
                          "elicitation/create: elicitation.url is not granted",
                          "roots/list: roots is not granted",
                      }));
}

}  // namespace
