// The capabilities each side declares in initialize gate what the other side sends, in a real
// process: a client (rpckit::roles::SpawnedPlugin over MCP's generated roles) talking to the
// sample server adopts the server's capabilities from the initialize result (the profile's
// result_grant), and its typed client refuses, before anything is written, a request the server
// did not declare. (The server side, the client's capabilities from the initialize params, is
// exercised by the Inspector, which declares no sampling: interop.mcp_inspector_cli.)
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "mcp_2025_11_25/roles.hpp"
#include "rpckit/roles/spawned_plugin.hpp"

namespace {

namespace mcp = ::mcp::v2025_11_25;
using ::testing::HasSubstr;
using Server = rpckit::roles::SpawnedPlugin<mcp::Protocol>;
constexpr std::chrono::seconds kWait{20};

mcp::InitializeParams hello() {
  mcp::InitializeParams p;
  p.protocolVersion = std::string(mcp::kProtocolVersion);
  p.clientInfo.name = "capability-gates-test";
  p.clientInfo.version = "1";
  return p;
}

TEST(CapabilityGates, AClientSendsOnlyWhatTheServerDeclaredInItsInitializeResult) {
  Server server({.id = "sample", .command = {RPCKIT_MCP_SAMPLE_SERVER}, .handshake_params = hello});
  ASSERT_TRUE(server.start());
  auto declared = server.handshake_result();
  ASSERT_TRUE(declared.has_value());
  ASSERT_TRUE(declared->capabilities.tools.has_value());
  ASSERT_FALSE(declared->capabilities.completions.has_value());

  // Declared: sent and answered.
  auto tools = server.client().tools_list({}, kWait);
  ASSERT_TRUE(tools.ok()) << tools.error().describe();
  EXPECT_FALSE(tools->tools.empty());

  // Not declared: refused here, never written (kLocal), naming the capability.
  mcp::CompletionCompleteParams complete =
      nlohmann::json::parse(R"({"ref": {"type": "ref/prompt", "name": "greet"},
                                "argument": {"name": "name", "value": "A"}})")
          .get<mcp::CompletionCompleteParams>();
  auto refused = server.client().completion_complete(complete, kWait);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, rpckit::CallError::Kind::kLocal);
  EXPECT_THAT(refused.error().describe(), HasSubstr("completions is not granted"));

  // The refusal cost the session nothing: the next declared call is answered.
  auto again = server.client().prompts_list({}, kWait);
  EXPECT_TRUE(again.ok()) << again.error().describe();
  server.stop();
}

}  // namespace
