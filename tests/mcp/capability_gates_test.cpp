// The capabilities each side declares in initialize gate what the other side sends, in a real
// process: a client (rpckit::roles::SpawnedPlugin over MCP's generated roles) talking to the
// sample server adopts the server's capabilities from the initialize result (the profile's
// result_grant), and its typed client refuses, before anything is written, a request the server
// did not declare. (The server side, the client's capabilities from the initialize params, is
// exercised by the Inspector, which declares no sampling: interop.mcp_inspector_cli.) What a
// side declares of itself gates what it sends: a server's list_changed notifications need its
// own listChanged (read from its initialize answer), a client's roots/list_changed its own
// roots.listChanged (read from its initialize params).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "peer_support.hpp"
#include "rpckit/framing/framing.hpp"
#include "rpckit/framing/memory_io.hpp"
#include "rpckit/roles/plugin_role.hpp"

namespace {

namespace mcp = ::mcp::v2025_11_25;
using namespace rpckit_mcp_test;
using ::testing::HasSubstr;
constexpr std::chrono::seconds kWait{20};

TEST(CapabilityGates, AClientSendsOnlyWhatTheServerDeclaredInItsInitializeResult) {
  Server server({.id = "sample", .command = {RPCKIT_MCP_SAMPLE_SERVER}, .handshake_params = hello});
  ASSERT_TRUE(server.start());
  auto declared = server.handshake_result();
  ASSERT_TRUE(declared.has_value());
  ASSERT_TRUE(declared->capabilities.tools.has_value());
  ASSERT_TRUE(declared->capabilities.completions.has_value());
  ASSERT_TRUE(declared->capabilities.tasks.has_value());

  // Declared: sent and answered.
  auto tools = server.client().tools_list({}, kWait);
  ASSERT_TRUE(tools.ok()) << tools.error().describe();
  EXPECT_FALSE(tools->tools.empty());
  mcp::CompletionCompleteParams complete =
      nlohmann::json::parse(R"({"ref": {"type": "ref/prompt", "name": "greet"},
                                "argument": {"name": "name", "value": "A"}})")
          .get<mcp::CompletionCompleteParams>();
  auto completed = server.client().completion_complete(complete, kWait);
  ASSERT_TRUE(completed.ok()) << completed.error().describe();
  EXPECT_EQ(completed->completion.values, (std::vector<std::string>{"Ada", "Alan"}));

  auto tasks = server.client().tasks_list({}, kWait);
  ASSERT_TRUE(tasks.ok()) << tasks.error().describe();
  EXPECT_TRUE(tasks->tasks.empty());
  server.stop();

  // Not declared: a server written from the spec that declares nothing (peers/pinged_server.py).
  // Refused here, never written (kLocal), naming the capability.
  Server bare({.id = "bare",
               .command = {RPCKIT_PINGED_SERVER, "/dev/null", "answers"},
               .handshake_params = hello});
  ASSERT_TRUE(bare.start());
  auto refused = bare.client().tasks_list({}, kWait);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, rpckit::CallError::Kind::kLocal);
  EXPECT_THAT(refused.error().describe(), HasSubstr("tasks.list is not granted"));
  auto tools_refused = bare.client().tools_list({}, kWait);
  ASSERT_FALSE(tools_refused.ok());
  EXPECT_THAT(tools_refused.error().describe(), HasSubstr("tools is not granted"));

  // The refusal cost the session nothing: an ungated request is answered.
  auto again = bare.client().ping({}, kWait);
  EXPECT_TRUE(again.ok()) << again.error().describe();
  bare.stop();
}

struct Peer {};

// A server that declares tools.listChanged or not, and tries to send the notification from its
// tools/list handler (after initialize, as a server would on a change).
class Announcer : public mcp::ServerHandler<Peer> {
 public:
  Announcer(const mcp::ClientClient& client, bool declare) : client_(client), declare_(declare) {}
  mcp::InitializeResult initialize(Peer&, const mcp::InitializeParams&) override {
    mcp::InitializeResult r;
    r.protocolVersion = std::string(mcp::kProtocolVersion);
    r.capabilities.tools = mcp::ServerToolsCapability{.listChanged = declare_};
    r.serverInfo.name = "announcer";
    r.serverInfo.version = "1";
    return r;
  }
  mcp::ToolsListResult tools_list(Peer&, const mcp::ToolsListParams&) override {
    sent = client_.notifications_tools_list_changed();
    return {};
  }
  bool sent = false;

 private:
  const mcp::ClientClient& client_;
  bool declare_;
};

constexpr const char* kInitialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
                                     "\n";

// Serves initialize (from a client that declares roots, and elicitation as an empty object:
// form mode only), then `then` and tools/list, in process; the frames written.
std::vector<nlohmann::json> serve_frames(mcp::ServerHandler<Peer>& server,
                                         rpckit::roles::PluginRole<mcp::Protocol>& role,
                                         const std::string& then = kInitialized) {
  Peer peer;
  role.bind(server, peer);
  rpckit::framing::MemorySource source(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
      R"("capabilities":{"roots":{},"elicitation":{}},"clientInfo":{"name":"t","version":"1"}}})"
      "\n" +
      then + R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})" + "\n");
  rpckit::framing::MemorySink sink;
  const auto max = static_cast<std::size_t>(mcp::kMaxLineBytes);
  role.serve(rpckit::framing::make_reader(rpckit::framing::Framing::kNewlineDelimited, source, max),
             rpckit::framing::make_writer(rpckit::framing::Framing::kNewlineDelimited, sink, max));
  std::vector<nlohmann::json> written;
  std::istringstream lines(sink.contents());
  for (std::string line; std::getline(lines, line);) written.push_back(nlohmann::json::parse(line));
  return written;
}

// The methods written ("response" for an answer).
std::vector<std::string> serve(mcp::ServerHandler<Peer>& server,
                               rpckit::roles::PluginRole<mcp::Protocol>& role,
                               const std::string& then = kInitialized) {
  std::vector<std::string> methods;
  for (const nlohmann::json& j : serve_frames(server, role, then)) {
    methods.push_back(j.contains("method") ? j["method"].get<std::string>() : "response");
  }
  return methods;
}

TEST(CapabilityGates, AServerSendsListChangedOnlyIfItDeclaredListChanged) {
  for (bool declare : {true, false}) {
    rpckit::roles::PluginRole<mcp::Protocol> role;
    Announcer server(role.client(), declare);
    const std::vector<std::string> written = serve(server, role);
    EXPECT_EQ(server.sent, declare);
    const std::vector<std::string> expected =
        declare
            ? std::vector<std::string>{"response", "notifications/tools/list_changed", "response"}
            : std::vector<std::string>{"response", "response"};
    EXPECT_EQ(written, expected) << "declared: " << declare;
  }
}

// A server that declares tools.listChanged and logging and, from its tools/list handler, sends
// what MCP allows before notifications/initialized (logging; ping) and what it does not (a list
// change, a roots/list request).
class EarlySender : public mcp::ServerHandler<Peer> {
 public:
  explicit EarlySender(const mcp::ClientClient& client) : client_(client) {}
  mcp::InitializeResult initialize(Peer&, const mcp::InitializeParams&) override {
    mcp::InitializeResult r;
    r.protocolVersion = std::string(mcp::kProtocolVersion);
    r.capabilities.tools = mcp::ServerToolsCapability{.listChanged = true};
    r.capabilities.logging.emplace();
    r.serverInfo.name = "early-sender";
    r.serverInfo.version = "1";
    return r;
  }
  mcp::ToolsListResult tools_list(Peer&, const mcp::ToolsListParams&) override {
    logged = client_.notifications_message(
        {.level = mcp::LoggingLevel::kInfo, .data = rpckit::JsonValue(nlohmann::json("hi"))});
    changed = client_.notifications_tools_list_changed();
    // Refused at once, or sent (its answer never comes: the call ends with the session).
    client_.roots_list_async({}, [this](const rpckit::Result<mcp::RootsListResult>& r) {
      if (!r.ok() && r.error().kind == rpckit::CallError::Kind::kLocal) {
        refusal = r.error().describe();
      }
    });
    return {};
  }
  bool logged = false;
  bool changed = false;
  std::string refusal;

 private:
  const mcp::ClientClient& client_;
};

// MCP: before notifications/initialized the server SHOULD NOT send requests other than ping
// and logging (the profile's before_handshake_done). Its typed sender holds to that; once the
// notification has arrived, everything its capabilities allow goes out.
TEST(CapabilityGates, AServerSendsOnlyPingAndLoggingBeforeInitialized) {
  {
    rpckit::roles::PluginRole<mcp::Protocol> role;
    EarlySender server(role.client());
    const std::vector<std::string> written = serve(server, role, "");  // no initialized
    EXPECT_TRUE(server.logged);
    EXPECT_FALSE(server.changed);
    EXPECT_THAT(server.refusal, HasSubstr("roots/list: not sent before notifications/initialized"));
    EXPECT_EQ(written, (std::vector<std::string>{"response", "notifications/message", "response"}));
  }
  {
    rpckit::roles::PluginRole<mcp::Protocol> role;
    EarlySender server(role.client());
    const std::vector<std::string> written = serve(server, role);
    EXPECT_TRUE(server.logged);
    EXPECT_TRUE(server.changed);
    EXPECT_EQ(server.refusal, "");
    EXPECT_EQ(written, (std::vector<std::string>{"response", "notifications/message",
                                                 "notifications/tools/list_changed", "roots/list",
                                                 "response"}));
  }
}

// A server that, from its tools/list handler, asks its client to elicit in URL mode and then in
// form mode (no mode given).
class ModeAsker : public mcp::ServerHandler<Peer> {
 public:
  explicit ModeAsker(const mcp::ClientClient& client) : client_(client) {}
  mcp::InitializeResult initialize(Peer&, const mcp::InitializeParams&) override {
    mcp::InitializeResult r;
    r.protocolVersion = std::string(mcp::kProtocolVersion);
    r.capabilities.tools.emplace();
    r.serverInfo.name = "mode-asker";
    r.serverInfo.version = "1";
    return r;
  }
  mcp::ToolsListResult tools_list(Peer&, const mcp::ToolsListParams&) override {
    mcp::ElicitationCreateParams url;
    url.mode = mcp::ElicitationCreateParamsMode::kUrl;
    url.message = "sign in";
    url.url = "https://example.com/sign-in";
    url.elicitationId = "e1";
    mcp::ElicitationCreateParams form;
    form.message = "your name?";
    form.requestedSchema.emplace();
    for (const auto& params : {url, form}) {
      // Refused at once, or sent (its answer never comes: the call ends with the session).
      client_.elicitation_create_async(
          params, [this](const rpckit::Result<mcp::ElicitationCreateResult>& r) {
            if (!r.ok() && r.error().kind == rpckit::CallError::Kind::kLocal) {
              refusals.push_back(r.error().describe());
            }
          });
    }
    return {};
  }
  std::vector<std::string> refusals;

 private:
  const mcp::ClientClient& client_;
};

// MCP: servers MUST NOT send an elicitation in a mode the client did not declare, and an empty
// elicitation capability means form mode only. The gate is the keyed capability clause.
TEST(CapabilityGates, AServerElicitsOnlyInAModeTheClientDeclared) {
  rpckit::roles::PluginRole<mcp::Protocol> role;
  ModeAsker server(role.client());
  const std::vector<std::string> written = serve(server, role);
  ASSERT_EQ(server.refusals.size(), 1U);
  EXPECT_THAT(server.refusals[0], HasSubstr("elicitation/create: elicitation.url is not granted"));
  EXPECT_EQ(written, (std::vector<std::string>{"response", "elicitation/create", "response"}));
}

// A server that declares resources without subscribe, and tools without tasks, and serves
// subscribe and tools/call all the same.
class Unsubscribed : public mcp::ServerHandler<Peer> {
 public:
  mcp::InitializeResult initialize(Peer&, const mcp::InitializeParams&) override {
    mcp::InitializeResult r;
    r.protocolVersion = std::string(mcp::kProtocolVersion);
    r.capabilities.resources.emplace();
    r.capabilities.tools.emplace();
    r.serverInfo.name = "unsubscribed";
    r.serverInfo.version = "1";
    return r;
  }
  mcp::ResourcesSubscribeResult resources_subscribe(Peer&,
                                                    const mcp::ResourcesSubscribeParams&) override {
    ++subscribed;
    return {};
  }
  mcp::ToolsCallResult tools_call(Peer&, const mcp::ToolsCallParams&) override {
    ++called;
    return nlohmann::json::parse(R"({"content": []})").get<mcp::ToolsCallResult>();
  }
  int subscribed = 0;
  int called = 0;
};

// The server side of gate_on_receipt: what it did not declare is refused -32601 before its
// handler runs, whatever handlers it has; a task-augmented call to a server without tasks is
// served as a plain one (basic/utilities/tasks).
TEST(CapabilityGates, AServerRefusesWhatItDidNotDeclareAndServesATaskAsAPlainCall) {
  rpckit::roles::PluginRole<mcp::Protocol> role;
  Unsubscribed server;
  const std::vector<nlohmann::json> written = serve_frames(
      server, role,
      std::string(kInitialized) +
          R"({"jsonrpc":"2.0","id":"s","method":"resources/subscribe","params":{"uri":"a:b"}})"
          "\n"
          R"({"jsonrpc":"2.0","id":"c","method":"tools/call",)"
          R"("params":{"name":"t","task":{"ttl":1000}}})"
          "\n");
  std::map<std::string, nlohmann::json> answers;
  for (const nlohmann::json& j : written) {
    if (j.contains("id") && j["id"].is_string()) answers[j["id"].get<std::string>()] = j;
  }
  ASSERT_EQ(answers.size(), 2U) << nlohmann::json(written).dump();
  EXPECT_EQ(answers["s"]["error"]["code"], -32601) << answers["s"].dump();
  EXPECT_THAT(answers["s"]["error"]["message"].get<std::string>(),
              HasSubstr("resources/subscribe: resources.subscribe is not granted"));
  EXPECT_TRUE(answers["c"].contains("result")) << answers["c"].dump();
  EXPECT_EQ(server.subscribed, 0);
  EXPECT_EQ(server.called, 1);
}

TEST(CapabilityGates, AClientSendsRootsListChangedOnlyIfItDeclaredIt) {
  for (bool declare : {true, false}) {
    auto params = [declare] {
      mcp::InitializeParams p = hello();
      p.capabilities.roots = mcp::ClientRootsCapability{.listChanged = declare};
      return p;
    };
    Server server(
        {.id = "sample", .command = {RPCKIT_MCP_SAMPLE_SERVER}, .handshake_params = params});
    ASSERT_TRUE(server.start());
    EXPECT_EQ(server.client().notifications_roots_list_changed(), declare);
    // Either way the session goes on: the next call is answered.
    auto tools = server.client().tools_list({}, kWait);
    EXPECT_TRUE(tools.ok()) << tools.error().describe();
    server.stop();
  }
}

}  // namespace
