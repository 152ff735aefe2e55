// evaluate_gate's capability clauses: a message is allowed when the receiver declared the
// capability in the handshake (MCP: a member present, neither null nor false), a params field
// that needs one is sent only if it was declared, and a message its sender must have declared
// of itself only if the sender did. The clauses are MCP's own, from the
// generated descriptors.
#include "rpckit/dispatch/gate.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "mcp_2025_11_25/messages.hpp"
#include "mcp_2025_11_25/profile.hpp"

namespace {

namespace mcp = ::mcp::v2025_11_25;
using nlohmann::json;
using rpckit::evaluate_gate;
using rpckit::GateVerdict;

template <class M>
GateVerdict gate_of(const json& capabilities, const json& params = json::object()) {
  return evaluate_gate(M::kGate, capabilities, nullptr, &params);
}

TEST(CapabilityGate, AMessageNeedsTheReceiversCapabilityPresent) {
  EXPECT_TRUE(gate_of<mcp::messages::ToolsList>(json::parse(R"({"tools": {}})")).allowed);
  GateVerdict none = gate_of<mcp::messages::ToolsList>(json::parse(R"({"prompts": {}})"));
  EXPECT_FALSE(none.allowed);
  EXPECT_EQ(none.reason, "tools is not granted");
  EXPECT_FALSE(none.missing_param);
  // A nested capability: present and neither null nor false.
  using Subscribe = mcp::messages::ResourcesSubscribe;
  EXPECT_TRUE(gate_of<Subscribe>(json::parse(R"({"resources": {"subscribe": true}})")).allowed);
  for (const char* caps : {R"({"resources": {}})", R"({"resources": {"subscribe": false}})",
                           R"({"resources": {"subscribe": null}})", R"({"resources": true})"}) {
    GateVerdict v = gate_of<Subscribe>(json::parse(caps));
    EXPECT_FALSE(v.allowed) << caps;
    EXPECT_EQ(v.reason, "resources.subscribe is not granted") << caps;
  }
}

TEST(CapabilityGate, AParamThatNeedsACapabilityIsSentOnlyIfItWasDeclared) {
  using Sample = mcp::messages::SamplingCreateMessage;
  const json sampling = json::parse(R"({"sampling": {}})");
  const json with_tools = json::parse(R"({"sampling": {"tools": {}}})");
  const json params = json::parse(R"({"messages": [], "maxTokens": 1})");
  json tooled = params;
  tooled["tools"] = json::array();
  json chosen = params;
  chosen["toolChoice"] = {{"mode", "auto"}};
  EXPECT_TRUE(gate_of<Sample>(sampling, params).allowed);
  EXPECT_TRUE(gate_of<Sample>(with_tools, tooled).allowed);
  GateVerdict v = gate_of<Sample>(sampling, tooled);
  EXPECT_FALSE(v.allowed);
  EXPECT_EQ(v.reason, "params.tools needs sampling.tools, which is not granted");
  EXPECT_FALSE(v.missing_param);  // a denial, not invalid params
  EXPECT_EQ(gate_of<Sample>(sampling, chosen).reason,
            "params.toolChoice needs sampling.tools, which is not granted");
  // A null param is not sent: nothing to gate.
  json null_tools = params;
  null_tools["tools"] = nullptr;
  EXPECT_TRUE(gate_of<Sample>(sampling, null_tools).allowed);
  // Without sampling at all, the message itself is refused first.
  EXPECT_EQ(gate_of<Sample>(json::object(), tooled).reason, "sampling is not granted");
}

// A capability object whose members are a param's choices: elicitation/create in a mode needs
// elicitation.<mode> declared; no mode means form, and an empty elicitation (the capability as
// clients declared it before modes) declares form only.
TEST(CapabilityGate, AnElicitationModeIsSentOnlyIfTheClientDeclaredIt) {
  using Elicit = mcp::messages::ElicitationCreate;
  static_assert(rpckit::gate_reads_params(Elicit::kGate));
  const json form = json::parse(R"({"message": "name?", "requestedSchema": {}})");
  const json explicit_form = json::parse(R"({"mode": "form", "message": "name?"})");
  const json url = json::parse(R"({"mode": "url", "message": "sign in", "url": "https://x",
                                   "elicitationId": "1"})");
  auto allowed = [&](const char* caps, const json& params) {
    return gate_of<Elicit>(json::parse(caps), params).allowed;
  };
  for (const char* caps : {R"({"elicitation": {}})", R"({"elicitation": {"form": {}}})",
                           R"({"elicitation": {"form": {}, "url": {}}})"}) {
    EXPECT_TRUE(allowed(caps, form)) << caps;
    EXPECT_TRUE(allowed(caps, explicit_form)) << caps;
  }
  EXPECT_TRUE(allowed(R"({"elicitation": {"form": {}, "url": {}}})", url));
  EXPECT_TRUE(allowed(R"({"elicitation": {"url": {}}})", url));
  for (const char* caps : {R"({"elicitation": {}})", R"({"elicitation": {"form": {}}})",
                           R"({"elicitation": {"form": {}, "url": false}})"}) {
    GateVerdict v = gate_of<Elicit>(json::parse(caps), url);
    EXPECT_FALSE(v.allowed) << caps;
    EXPECT_EQ(v.reason, "elicitation.url is not granted") << caps;
    EXPECT_FALSE(v.missing_param);
  }
  // URL only: form mode, asked for or by default, is not.
  EXPECT_EQ(gate_of<Elicit>(json::parse(R"({"elicitation": {"url": {}}})"), form).reason,
            "elicitation.form is not granted");
  EXPECT_EQ(gate_of<Elicit>(json::object(), form).reason, "elicitation is not granted");
  // A mode that is not a string is the sender's invalid params, not a denial.
  json odd = form;
  odd["mode"] = 7;
  GateVerdict v = gate_of<Elicit>(json::parse(R"({"elicitation": {}})"), odd);
  EXPECT_FALSE(v.allowed);
  EXPECT_TRUE(v.missing_param);
  // A mode whose name has a dot is a member name, not a path.
  json dotted = form;
  dotted["mode"] = "form.x";
  EXPECT_FALSE(allowed(R"({"elicitation": {"form": {"x": {}}}})", dotted));
}

// What a sender declared of itself in the handshake gates what it sends (MCP: a server sends
// notifications/tools/list_changed only if it declared tools.listChanged). When the sender's
// declarations are not known (nullptr) the clause passes: the receiver is left to judge.
TEST(CapabilityGate, ASenderSendsOnlyWhatItDeclaredOfItself) {
  using ToolsChanged = mcp::messages::NotificationsToolsListChanged;
  using Updated = mcp::messages::NotificationsResourcesUpdated;
  using Log = mcp::messages::NotificationsMessage;
  using RootsChanged = mcp::messages::NotificationsRootsListChanged;
  static_assert(!rpckit::gate_reads_params(ToolsChanged::kGate));
  const json client = json::object();  // the receiver's capabilities play no part
  auto sent_by = [&]<class M>(const json& own) {
    return evaluate_gate(M::kGate, client, &own, nullptr);
  };
  EXPECT_TRUE(
      sent_by.operator()<ToolsChanged>(json::parse(R"({"tools": {"listChanged": true}})")).allowed);
  for (const char* own : {R"({})", R"({"tools": {}})", R"({"tools": {"listChanged": false}})"}) {
    GateVerdict v = sent_by.operator()<ToolsChanged>(json::parse(own));
    EXPECT_FALSE(v.allowed) << own;
    EXPECT_EQ(v.reason, "tools.listChanged was not declared by the sender") << own;
    EXPECT_FALSE(v.missing_param);
  }
  EXPECT_TRUE(
      sent_by.operator()<Updated>(json::parse(R"({"resources": {"subscribe": true}})")).allowed);
  EXPECT_EQ(
      sent_by.operator()<Updated>(json::parse(R"({"resources": {"listChanged": true}})")).reason,
      "resources.subscribe was not declared by the sender");
  EXPECT_TRUE(sent_by.operator()<Log>(json::parse(R"({"logging": {}})")).allowed);
  EXPECT_FALSE(sent_by.operator()<Log>(json::object()).allowed);
  EXPECT_TRUE(
      sent_by.operator()<RootsChanged>(json::parse(R"({"roots": {"listChanged": true}})")).allowed);
  EXPECT_FALSE(sent_by.operator()<RootsChanged>(json::parse(R"({"roots": {}})")).allowed);
  // Unknown declarations: the clause passes.
  EXPECT_TRUE(evaluate_gate(ToolsChanged::kGate, client, nullptr, nullptr).allowed);
}

// The receiver's own check (MCP's profile gate_on_receipt: -32601 for a capability clause,
// -32602 for the key of a keyed one, param clauses unchecked): only the kinds the rule names,
// against what the receiver declared of itself.
TEST(CapabilityGate, AReceiverRefusesOnlyTheClauseKindsItsRuleNames) {
  constexpr rpckit::GateOnReceipt kRule = mcp::Profile::kGateOnReceipt;
  static_assert(kRule.capability == -32601 && kRule.keyed == -32602 && !kRule.param);
  auto received = [&]<class M>(const char* own, const json& params) {
    return rpckit::evaluate_on_receipt(M::kGate, kRule, json::parse(own), &params);
  };
  using Roots = mcp::messages::RootsList;
  using Elicit = mcp::messages::ElicitationCreate;
  using Sample = mcp::messages::SamplingCreateMessage;
  using Changed = mcp::messages::NotificationsToolsListChanged;
  const json none = json::object();
  EXPECT_FALSE(received.operator()<Roots>(R"({"roots": {}})", none).refuse_with);
  rpckit::ReceiptVerdict roots = received.operator()<Roots>(R"({"sampling": {}})", none);
  EXPECT_EQ(roots.refuse_with, -32601);
  EXPECT_EQ(roots.reason, "roots is not granted");
  // Keyed: a mode not declared is the params' fault; no elicitation at all, the method's.
  const json url =
      json::parse(R"({"mode": "url", "message": "m", "url": "u", "elicitationId": "e"})");
  rpckit::ReceiptVerdict mode = received.operator()<Elicit>(R"({"elicitation": {}})", url);
  EXPECT_EQ(mode.refuse_with, -32602);
  EXPECT_EQ(mode.reason, "elicitation.url is not granted");
  EXPECT_EQ(received.operator()<Elicit>("{}", url).refuse_with, -32601);
  EXPECT_FALSE(received.operator()<Elicit>(R"({"elicitation": {"url": {}}})", url).refuse_with);
  // A mode that is not a string is left to the router's -32602 with its path.
  EXPECT_FALSE(
      received.operator()<Elicit>(R"({"elicitation": {}})", json{{"mode", 7}}).refuse_with);
  // Param clauses are the sender's rule here: tools and a task are served without the capability.
  const json tooled = json::parse(R"({"messages": [], "maxTokens": 1, "tools": [],
                                      "task": {"ttl": 1}})");
  EXPECT_FALSE(received.operator()<Sample>(R"({"sampling": {}})", tooled).refuse_with);
  // What the sender declared of itself is not the receiver's to judge.
  EXPECT_FALSE(received.operator()<Changed>("{}", none).refuse_with);
  // A rule that checks param clauses refuses them with its code.
  constexpr rpckit::GateOnReceipt kStrict{
      .capability = std::nullopt, .keyed = std::nullopt, .param = -32602};
  rpckit::ReceiptVerdict strict = rpckit::evaluate_on_receipt(
      Sample::kGate, kStrict, json::parse(R"({"sampling": {}})"), &tooled);
  EXPECT_EQ(strict.refuse_with, -32602);
  EXPECT_EQ(strict.reason, "params.tools needs sampling.tools, which is not granted");
}

TEST(CapabilityGate, OnlyParamClausesMakeTheGateReadTheParams) {
  static_assert(!rpckit::gate_reads_params(mcp::messages::ToolsList::kGate));
  static_assert(rpckit::gate_reads_params(mcp::messages::SamplingCreateMessage::kGate));
  // Ungated: anything goes, before and after a handshake.
  EXPECT_TRUE(mcp::messages::Ping::kGate.empty());
  EXPECT_TRUE(evaluate_gate(mcp::messages::ToolsList::kGate, json::parse(R"({"tools": {}})"),
                            nullptr, nullptr)
                  .allowed);
}

}  // namespace
