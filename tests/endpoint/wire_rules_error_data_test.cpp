// WireRules::error_data (ErrorReasons): the `data` the endpoint puts on the errors it makes
// itself and on a handler's error without data, byte for byte on the wire.
#include <gtest/gtest.h>

#include <string>

#include "wire_rules_harness.hpp"

namespace rpckit::endpoint_test {
namespace {

WireRules with_reasons() {
  WireRules rules;
  rules.error_data = all_reasons();
  return rules;
}

std::string reasoned(int code, const std::string& reason, const std::string& message,
                     const std::string& id) {
  return error_frame(R"({"code":)" + std::to_string(code) + R"(,"data":{"reason":")" + reason +
                         R"("},"message":")" + message + R"("})",
                     id);
}

TEST(WireRulesErrorData, HandlerErrorsWithoutDataGetTheirCodesReason) {
  RulesPeer peer = rules_peer(with_reasons());
  peer->send(request(1, "no.such.method"));
  EXPECT_EQ(peer->next_body(),
            reasoned(-32601, "method_not_found", "Method not found: no.such.method", "1"));
  peer->send(request(2, "fail.std"));
  EXPECT_EQ(peer->next_body(),
            reasoned(-32603, "internal_error", "Internal error in fail.std: boom", "2"));
  peer->send(request(3, "fail.rpc", json{{"code", -32602}, {"message", "bad"}}));
  EXPECT_EQ(peer->next_body(), reasoned(-32602, "invalid_params", "bad", "3"));
  peer->send(request(4, "fail.rpc", json{{"code", -32600}, {"message", "odd"}}));
  EXPECT_EQ(peer->next_body(), reasoned(-32600, "invalid_request", "odd", "4"));
  peer->send(request(5, "fail.rpc", json{{"code", -32700}, {"message", "odder"}}));
  EXPECT_EQ(peer->next_body(), reasoned(-32700, "parse_error", "odder", "5"));
}

TEST(WireRulesErrorData, AHandlersDataIsKept) {
  RulesPeer peer = rules_peer(with_reasons());
  peer->send(
      request(1, "fail.rpc", json{{"code", -32602}, {"message", "bad"}, {"data", {{"field", "x"}}}}));
  EXPECT_EQ(peer->next_body(),
            error_frame(R"({"code":-32602,"data":{"field":"x"},"message":"bad"})", "1"));
  peer->send(request(2, "fail.rpc", json{{"code", -32603}, {"message", "m"}, {"data", "text"}}));
  EXPECT_EQ(peer->next_body(), error_frame(R"({"code":-32603,"data":"text","message":"m"})", "2"));
}

TEST(WireRulesErrorData, CodesOutsideTheSixGetNoData) {
  RulesPeer peer = rules_peer(with_reasons());
  peer->send(request(1, "fail.rpc", json{{"code", -32000}, {"message", "app"}}));
  EXPECT_EQ(peer->next_body(), error_frame(R"({"code":-32000,"message":"app"})", "1"));
}

TEST(WireRulesErrorData, RuntimeErrorsGetTheirReason) {
  RulesPeer peer = rules_peer(with_reasons());
  peer->send(R"({"jsonrpc":"2.0","id":3})");
  EXPECT_EQ(peer->next_body(), reasoned(-32600, "invalid_request",
                                        "Invalid Request: no method, result or error", "3"));
  peer->send(R"({"jsonrpc":"2.0","id":"a","method":"echo","params":1})");
  EXPECT_EQ(peer->next_body(), reasoned(-32600, "invalid_request",
                                        "Invalid Request: params must be an object or an array",
                                        R"("a")"));
  EXPECT_EQ(peer.handled_count(), 0);
}

TEST(WireRulesErrorData, BatchArraysGetTheBatchReason) {
  RulesPeer peer = rules_peer(with_reasons());
  peer->send(R"([{"jsonrpc":"2.0","id":1,"method":"echo"}])");
  EXPECT_EQ(peer->next_body(),
            reasoned(-32600, "batch", "Invalid Request: batches not supported", "null"));
  peer->send("[]");
  EXPECT_EQ(peer->next_body(),
            reasoned(-32600, "batch", "Invalid Request: batches not supported", "null"));
  EXPECT_EQ(peer.handled_count(), 0);
}

TEST(WireRulesErrorData, NoHandlerIsMethodNotFoundWithItsReason) {
  RulesPeerSetup setup;
  setup.handler = false;
  RulesPeer peer = rules_peer(with_reasons(), setup);
  peer->send(request(1, "anything"));
  EXPECT_EQ(peer->next_body(),
            reasoned(-32601, "method_not_found", "Method not found: anything", "1"));
}

TEST(WireRulesErrorData, AResultThatCannotBeSentIsAnInternalErrorWithItsReason) {
  RulesPeerSetup setup;
  setup.max_body = 256;  // "big" answers 1000 bytes
  RulesPeer peer = rules_peer(with_reasons(), setup);
  peer->send(request(1, "big"));
  EXPECT_EQ(peer->next_body(),
            reasoned(-32603, "internal_error",
                     "Internal error in big: the response could not be sent", "1"));
}

TEST(WireRulesErrorData, ADeferredErrorWithoutDataGetsItsReason) {
  RulesPeer peer = rules_peer(with_reasons());
  peer->send(request(1, "defer.error"));
  EXPECT_EQ(peer->next_body(), reasoned(-32602, "invalid_params", "later", "1"));
}

TEST(WireRulesErrorData, NoMemberNoData) {
  // Reasons named but no member: nothing is added (JSON-RPC's own errors).
  WireRules rules;
  rules.error_data = all_reasons();
  rules.error_data.member = "";
  RulesPeer peer = rules_peer(rules);
  peer->send(request(1, "no.such.method"));
  EXPECT_EQ(peer->next_body(),
            error_frame(R"({"code":-32601,"message":"Method not found: no.such.method"})", "1"));
  peer->send("[]");
  EXPECT_EQ(peer->next_body(),
            error_frame(R"({"code":-32600,"message":"Invalid Request: batches not supported"})",
                        "null"));
}

TEST(WireRulesErrorData, ParseErrorGetsItsReason) {
  RulesPeer peer = rules_peer(with_reasons());
  peer->send("nul");
  EXPECT_EQ(peer->next_body(), reasoned(-32700, "parse_error",
                                        "Parse error: at byte 0: expected null, found 'n'", "null"));
}

}  // namespace
}  // namespace rpckit::endpoint_test
