// WireRules::accepted_ids and WireRules::envelope: which ids a peer's requests may carry, and
// how strictly envelopes are read (jsonrpc_optional, blank_method_invalid,
// invalid_request_id_null), each set explicitly and checked byte for byte on the wire.
#include <gtest/gtest.h>

#include <string>

#include "wire_rules_harness.hpp"

namespace rpckit::endpoint_test {
namespace {

std::string invalid(const std::string& why, const std::string& id) {
  return error_frame(R"({"code":-32600,"message":"Invalid Request: )" + why + R"("})", id);
}

// ---- null ids ------------------------------------------------------------------------------

TEST(WireRulesIds, NullIdIsARequestWhenAccepted) {
  WireRules rules;
  rules.accepted_ids = IdKind::kInteger | IdKind::kString | IdKind::kNull;
  RulesPeer peer = rules_peer(rules);
  peer->send(R"({"jsonrpc":"2.0","id":null,"method":"echo","params":[1]})");
  EXPECT_EQ(peer->next_body(), R"({"id":null,"jsonrpc":"2.0","result":[1]})");
  // The handler sees a request whose id is null, and answers it.
  peer->send(R"({"jsonrpc":"2.0","id":null,"method":"whoami"})");
  EXPECT_EQ(peer->next_body(), R"({"id":null,"jsonrpc":"2.0","result":null})");
  // Without an id it is still a notification.
  peer->send(R"({"jsonrpc":"2.0","method":"whoami"})");
  EXPECT_TRUE(peer->sync());
  EXPECT_EQ(peer.handled_count(), 3);
  EXPECT_EQ(peer->diags.count(Kind::kInvalidRequest), 0u);
}

TEST(WireRulesIds, NullIdIsInvalidOtherwise) {
  RulesPeer peer = rules_peer(WireRules{});  // integer and string: JSON-RPC's default here
  peer->send(R"({"jsonrpc":"2.0","id":null,"method":"echo","params":[1]})");
  EXPECT_EQ(peer->next_body(), invalid("id must be a string or an integer", "null"));
  EXPECT_EQ(peer.handled_count(), 0);
  EXPECT_EQ(peer->diags.count(Kind::kInvalidRequest), 1u);
  EXPECT_TRUE(peer->sync());
}

TEST(WireRulesIds, AKindNotAcceptedIsInvalidAndItsIdEchoed) {
  WireRules rules;
  rules.accepted_ids = IdKind::kInteger;
  RulesPeer peer = rules_peer(rules);
  peer->send(R"({"jsonrpc":"2.0","id":"a","method":"echo","params":[1]})");
  EXPECT_EQ(peer->next_body(), invalid("id: this protocol does not accept string ids", R"("a")"));
  EXPECT_EQ(peer.handled_count(), 0);
  EXPECT_TRUE(sync_with(*peer, 100));

  rules.accepted_ids = IdKind::kString;
  RulesPeer strings = rules_peer(rules);
  strings->send(R"({"jsonrpc":"2.0","id":5,"method":"echo","params":[1]})");
  EXPECT_EQ(strings->next_body(), invalid("id: this protocol does not accept integer ids", "5"));
  EXPECT_TRUE(strings->sync());
}

// ---- jsonrpc_optional ----------------------------------------------------------------------

TEST(WireRulesEnvelope, JsonrpcOptionalTakesMessagesWithoutItAndLogsOnce) {
  WireRules rules;
  rules.envelope.jsonrpc_optional = true;
  RulesPeer peer = rules_peer(rules);
  peer->send(R"({"id":1,"method":"echo","params":[1]})");
  EXPECT_EQ(peer->next_body(), R"({"id":1,"jsonrpc":"2.0","result":[1]})");
  peer->send(R"({"method":"echo","params":[2]})");  // a notification
  peer->send(R"({"id":3,"method":"add","params":{"a":1,"b":2}})");
  EXPECT_EQ(peer->next_body(), R"({"id":3,"jsonrpc":"2.0","result":3})");
  ASSERT_TRUE(peer->sync());
  EXPECT_EQ(peer.handled_count(), 3);
  EXPECT_EQ(peer->diags.count(Kind::kLenientEnvelope), 1u) << peer->diags.dump();
  EXPECT_EQ(peer->diags.items()[0].detail,
            "a message without \"jsonrpc\" was taken, as the protocol allows (logged once)");
}

TEST(WireRulesEnvelope, JsonrpcOptionalStillRefusesAWrongValue) {
  WireRules rules;
  rules.envelope.jsonrpc_optional = true;
  RulesPeer peer = rules_peer(rules);
  peer->send(R"({"jsonrpc":"1.0","id":4,"method":"echo"})");
  EXPECT_EQ(peer->next_body(), invalid(R"(jsonrpc must be \"2.0\")", "4"));
  peer->send(R"({"jsonrpc":2,"id":5,"method":"echo"})");
  EXPECT_EQ(peer->next_body(), invalid(R"(jsonrpc must be \"2.0\")", "5"));
  peer->send(R"({"jsonrpc":null,"id":6,"method":"echo"})");
  EXPECT_EQ(peer->next_body(), invalid(R"(jsonrpc must be \"2.0\")", "6"));
  EXPECT_EQ(peer.handled_count(), 0);
  EXPECT_EQ(peer->diags.count(Kind::kLenientEnvelope), 0u);
}

TEST(WireRulesEnvelope, JsonrpcOptionalTakesAnAnswerWithoutIt) {
  WireRules rules;
  rules.envelope.jsonrpc_optional = true;
  // Before the endpoint: its completions may run while it is destroyed.
  Recorder<Outcome> outcomes;
  RulesPeer peer = rules_peer(rules);
  peer->ep().call_async("m", std::nullopt, record_into(outcomes));
  EXPECT_EQ(peer->next_body(), R"({"id":1,"jsonrpc":"2.0","method":"m"})");
  peer->send(R"({"id":1,"result":"fine"})");
  ASSERT_TRUE(outcomes.wait_size(1));
  EXPECT_TRUE(outcomes.items()[0].ok);
  EXPECT_EQ(outcomes.items()[0].text, R"("fine")");
}

TEST(WireRulesEnvelope, JsonrpcRequiredByDefault) {
  RulesPeer peer = rules_peer(WireRules{});
  peer->send(R"({"id":1,"method":"echo","params":[1]})");
  EXPECT_EQ(peer->next_body(), invalid(R"(jsonrpc must be \"2.0\")", "1"));
  EXPECT_EQ(peer.handled_count(), 0);
}

// ---- blank_method_invalid ------------------------------------------------------------------

TEST(WireRulesEnvelope, BlankMethodInvalid) {
  WireRules rules;
  rules.envelope.blank_method_invalid = true;
  RulesPeer peer = rules_peer(rules);
  peer->send(R"({"jsonrpc":"2.0","id":1,"method":"   "})");
  EXPECT_EQ(peer->next_body(), invalid("method is blank", "1"));
  peer->send(R"({"jsonrpc":"2.0","id":2,"method":""})");
  EXPECT_EQ(peer->next_body(), invalid("method is blank", "2"));
  peer->send(R"({"jsonrpc":"2.0","id":3,"method":" \t\n "})");
  EXPECT_EQ(peer->next_body(), invalid("method is blank", "3"));
  // A notification with a blank method is an invalid request too: answered with a null id.
  peer->send(R"({"jsonrpc":"2.0","method":""})");
  EXPECT_EQ(peer->next_body(), invalid("method is blank", "null"));
  EXPECT_EQ(peer.handled_count(), 0);
  EXPECT_EQ(peer->diags.count(Kind::kInvalidRequest), 4u);
  EXPECT_TRUE(peer->sync());
}

TEST(WireRulesEnvelope, BlankMethodValidByDefault) {
  RulesPeer peer = rules_peer(WireRules{});
  peer->send(R"({"jsonrpc":"2.0","id":1,"method":"   "})");
  EXPECT_EQ(peer->next_body(),
            error_frame(R"({"code":-32601,"message":"Method not found:    "})", "1"));
  peer->send(R"({"jsonrpc":"2.0","id":2,"method":""})");
  EXPECT_EQ(peer->next_body(), error_frame(R"({"code":-32601,"message":"Method not found: "})", "2"));
  EXPECT_EQ(peer.handled_count(), 2) << "both reached the handler";
}

// ---- invalid_request_id_null ---------------------------------------------------------------

TEST(WireRulesEnvelope, InvalidRequestEchoesAReadableIdByDefault) {
  RulesPeer peer = rules_peer(WireRules{});
  peer->send(R"({"jsonrpc":"2.0","id":5,"method":7})");
  EXPECT_EQ(peer->next_body(), invalid("method must be a string", "5"));
  peer->send(R"({"jsonrpc":"2.0","id":"s","method":"echo","params":3})");
  EXPECT_EQ(peer->next_body(), invalid("params must be an object or an array", R"("s")"));
}

TEST(WireRulesEnvelope, InvalidRequestIdNullAnswersWithNullEvenWhenTheIdWasReadable) {
  WireRules rules;
  rules.envelope.invalid_request_id_null = true;
  rules.envelope.blank_method_invalid = true;
  rules.accepted_ids = IdKind::kInteger;
  RulesPeer peer = rules_peer(rules);
  peer->send(R"({"jsonrpc":"2.0","id":5,"method":7})");
  EXPECT_EQ(peer->next_body(), invalid("method must be a string", "null"));
  peer->send(R"({"jsonrpc":"2.0","id":6,"method":"echo","params":3})");
  EXPECT_EQ(peer->next_body(), invalid("params must be an object or an array", "null"));
  peer->send(R"({"jsonrpc":"2.0","id":7,"method":" "})");
  EXPECT_EQ(peer->next_body(), invalid("method is blank", "null"));
  peer->send(R"({"jsonrpc":"2.0","id":"a","method":"echo"})");  // a kind not accepted
  EXPECT_EQ(peer->next_body(), invalid("id: this protocol does not accept string ids", "null"));
  // A valid request still gets its id back.
  peer->send(R"({"jsonrpc":"2.0","id":8,"method":"echo","params":[8]})");
  EXPECT_EQ(peer->next_body(), R"({"id":8,"jsonrpc":"2.0","result":[8]})");
  EXPECT_EQ(peer.handled_count(), 1);
}

// ---- unknown_id_omitted --------------------------------------------------------------------

TEST(WireRulesEnvelope, UnknownIdOmittedLeavesOutOnlyAnIdThatCouldNotBeRead) {
  WireRules rules;
  rules.envelope.unknown_id_omitted = true;
  rules.receive.not_json = OnNotJson::kAnswer;
  RulesPeer peer = rules_peer(rules);
  const std::string no_id = R"({"error":{"code":-32600,"message":"Invalid Request: )";
  peer->send(R"({"jsonrpc":"2.0","id":null,"method":"echo","params":[1]})");
  EXPECT_EQ(peer->next_body(), no_id + R"(id must be a string or an integer"},"jsonrpc":"2.0"})");
  peer->send(R"({"jsonrpc":"2.0","id":{"a":1},"method":"echo"})");
  EXPECT_EQ(peer->next_body(), no_id + R"(id must be a string or an integer"},"jsonrpc":"2.0"})");
  peer->send("{not json");
  const std::string parse_error = peer->next_body();
  EXPECT_TRUE(parse_error.starts_with(R"({"error":{"code":-32700,)")) << parse_error;
  EXPECT_EQ(parse_error.find("\"id\""), std::string::npos) << parse_error;
  // A readable id is still echoed, on an error and on a result.
  peer->send(R"({"jsonrpc":"2.0","id":5,"method":7})");
  EXPECT_EQ(peer->next_body(), invalid("method must be a string", "5"));
  peer->send(R"({"jsonrpc":"2.0","id":8,"method":"echo","params":[8]})");
  EXPECT_EQ(peer->next_body(), R"({"id":8,"jsonrpc":"2.0","result":[8]})");
  EXPECT_EQ(peer.handled_count(), 1);
}

}  // namespace
}  // namespace rpckit::endpoint_test
