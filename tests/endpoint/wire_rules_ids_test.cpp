// WireRules::sent_ids and EnvelopeRules::id_match: the ids this side's requests carry and how
// an answer's id is matched to them; and Endpoint::Options::default_deadline, none by default.
#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <string>
#include <thread>

#include "wire_rules_harness.hpp"

namespace rpckit::endpoint_test {
namespace {

WireRules ids(IdKind sent, IdMatch match) {
  WireRules rules;
  rules.sent_ids = sent;
  rules.envelope.id_match = match;
  return rules;
}

// One call_async() on `peer`; checks the request's bytes.
void call_m(RawPeer& peer, Recorder<Outcome>& outcomes, const std::string& wire_id) {
  peer.ep().call_async("m", std::nullopt, record_into(outcomes));
  EXPECT_EQ(peer.next_body(), R"({"id":)" + wire_id + R"(,"jsonrpc":"2.0","method":"m"})");
}

// Sends `answer`, and checks it was reported as matching no call, and completed none.
void expect_unmatched(RawPeer& peer, const Recorder<Outcome>& outcomes, const std::string& answer,
                      const std::string& id_text) {
  const std::size_t before = peer.diags.count(Kind::kUnknownResponseId);
  peer.send(answer);
  ASSERT_TRUE(peer.diags.wait_for(Kind::kUnknownResponseId, before + 1)) << answer;
  EXPECT_EQ(peer.diags.items().back().detail,
            "response with id " + id_text + " matches no pending call");
  EXPECT_EQ(outcomes.size(), 0u) << answer;
}

TEST(WireRulesIdMatch, StringFormLetsAStringIdAnswerAnIntegerRequest) {
  // Before the endpoint: its completions may run while it is destroyed.
  Recorder<Outcome> outcomes;
  Recorder<Outcome> second;
  RulesPeer peer = rules_peer(ids(IdKind::kInteger, IdMatch::kStringForm));
  call_m(*peer, outcomes, "1");
  // Not the string form of 1: no match.
  expect_unmatched(*peer, outcomes, R"({"jsonrpc":"2.0","id":"01","result":0})", R"("01")");
  expect_unmatched(*peer, outcomes, R"({"jsonrpc":"2.0","id":" 1","result":0})", R"(" 1")");
  expect_unmatched(*peer, outcomes, R"({"jsonrpc":"2.0","id":"+1","result":0})", R"("+1")");
  peer->send(R"({"jsonrpc":"2.0","id":"1","result":"by string"})");
  ASSERT_TRUE(outcomes.wait_size(1));
  EXPECT_TRUE(outcomes.items()[0].ok);
  EXPECT_EQ(outcomes.items()[0].text, R"("by string")");
  // The integer itself still answers too.
  call_m(*peer, second, "2");
  peer->send(R"({"jsonrpc":"2.0","id":2,"result":"by integer"})");
  ASSERT_TRUE(second.wait_size(1));
  EXPECT_EQ(second.items()[0].text, R"("by integer")");
}

TEST(WireRulesIdMatch, ExactDoesNotMatchAStringIdToAnIntegerRequest) {
  // Before the endpoint: its completions may run while it is destroyed.
  Recorder<Outcome> outcomes;
  RulesPeer peer = rules_peer(ids(IdKind::kInteger, IdMatch::kExact));
  call_m(*peer, outcomes, "1");
  expect_unmatched(*peer, outcomes, R"({"jsonrpc":"2.0","id":"1","result":"by string"})",
                   R"("1")");
  // The call is still waiting: the right id completes it, with the right answer.
  peer->send(R"({"jsonrpc":"2.0","id":1,"result":"by integer"})");
  ASSERT_TRUE(outcomes.wait_size(1));
  EXPECT_EQ(outcomes.items()[0].text, R"("by integer")");
}

TEST(WireRulesIdMatch, StringFormLetsAnIntegerIdAnswerAStringRequest) {
  // Before the endpoint: its completions may run while it is destroyed.
  Recorder<Outcome> outcomes;
  Recorder<Outcome> second;
  RulesPeer peer = rules_peer(ids(IdKind::kString, IdMatch::kStringForm));
  call_m(*peer, outcomes, R"("1")");
  peer->send(R"({"jsonrpc":"2.0","id":1,"result":"by integer"})");
  ASSERT_TRUE(outcomes.wait_size(1));
  EXPECT_TRUE(outcomes.items()[0].ok);
  EXPECT_EQ(outcomes.items()[0].text, R"("by integer")");
  call_m(*peer, second, R"("2")");
  peer->send(R"({"jsonrpc":"2.0","id":"2","result":"by string"})");
  ASSERT_TRUE(second.wait_size(1));
  EXPECT_EQ(second.items()[0].text, R"("by string")");
}

TEST(WireRulesIdMatch, ExactDoesNotMatchAnIntegerIdToAStringRequest) {
  // Before the endpoint: its completions may run while it is destroyed.
  Recorder<Outcome> outcomes;
  RulesPeer peer = rules_peer(ids(IdKind::kString, IdMatch::kExact));
  call_m(*peer, outcomes, R"("1")");
  expect_unmatched(*peer, outcomes, R"({"jsonrpc":"2.0","id":1,"result":"by integer"})", "1");
  peer->send(R"({"jsonrpc":"2.0","id":"1","result":"by string"})");
  ASSERT_TRUE(outcomes.wait_size(1));
  EXPECT_EQ(outcomes.items()[0].text, R"("by string")");
}

TEST(WireRulesIdMatch, ExactCallTimesOutOnAnAnswerWithTheOtherKind) {
  // call(), blocking, with a deadline: the wrong-kind answer does not complete it, so it ends
  // at its deadline (which bounds the wait only; no duration is asserted).
  RulesPeer peer = rules_peer(ids(IdKind::kInteger, IdMatch::kExact));
  std::optional<Outcome> outcome;
  std::thread caller([&] { outcome = outcome_of(peer->ep().call("m", std::nullopt, 200ms)); });
  EXPECT_EQ(peer->next_body(), R"({"id":1,"jsonrpc":"2.0","method":"m"})");
  peer->send(R"({"jsonrpc":"2.0","id":"1","result":"by string"})");
  caller.join();
  ASSERT_TRUE(outcome);
  EXPECT_FALSE(outcome->ok);
  EXPECT_EQ(outcome->kind, CallError::Kind::kTimeout);
  ASSERT_TRUE(peer->diags.wait_for(Kind::kUnknownResponseId));
}

// ---- no default deadline -------------------------------------------------------------------

TEST(WireRulesDeadline, OptionsHaveNoDefaultDeadline) {
  EXPECT_FALSE(Endpoint::Options{}.default_deadline.has_value());
}

TEST(WireRulesDeadline, ACallWithoutDeadlineWaitsForItsAnswer) {
  RulesPeer peer = rules_peer(WireRules{});
  std::atomic<bool> returned{false};
  std::optional<Outcome> outcome;
  std::thread caller([&] {
    outcome = outcome_of(peer->ep().call("slow", std::nullopt));
    returned = true;
  });
  EXPECT_EQ(peer->next_body(), R"({"id":1,"jsonrpc":"2.0","method":"slow"})");
  // Meanwhile the connection serves the peer: a hundred round trips, each awaited.
  for (int i = 0; i < 100; ++i) {
    peer->send(request(1000 + i, "add", json{{"a", i}, {"b", 1}}));
    EXPECT_EQ(peer->next_body(),
              R"({"id":)" + std::to_string(1000 + i) + R"(,"jsonrpc":"2.0","result":)" +
                  std::to_string(i + 1) + "}");
  }
  EXPECT_FALSE(returned.load()) << "the call ended before its answer was sent";
  peer->send(R"({"jsonrpc":"2.0","id":1,"result":"at last"})");
  caller.join();
  ASSERT_TRUE(outcome);
  EXPECT_TRUE(outcome->ok);
  EXPECT_EQ(outcome->text, R"("at last")");
}

TEST(WireRulesDeadline, ACallWithoutDeadlineEndsAtTheEndOfTheStream) {
  RulesPeer peer = rules_peer(WireRules{});
  std::optional<Outcome> outcome;
  std::thread caller([&] { outcome = outcome_of(peer->ep().call("slow", std::nullopt)); });
  EXPECT_EQ(peer->next_body(), R"({"id":1,"jsonrpc":"2.0","method":"slow"})");
  peer->close_input();
  caller.join();
  ASSERT_TRUE(outcome);
  EXPECT_EQ(outcome->kind, CallError::Kind::kDisconnected);
  EXPECT_EQ(outcome->text, "connection closed while waiting for \"slow\"");
}

TEST(WireRulesDeadline, ACallWithoutDeadlineEndsAtClose) {
  RulesPeer peer = rules_peer(WireRules{});
  std::optional<Outcome> outcome;
  std::thread caller([&] { outcome = outcome_of(peer->ep().call("slow", std::nullopt)); });
  EXPECT_EQ(peer->next_body(), R"({"id":1,"jsonrpc":"2.0","method":"slow"})");
  peer->ep().close();
  caller.join();
  ASSERT_TRUE(outcome);
  EXPECT_EQ(outcome->kind, CallError::Kind::kDisconnected);
}

TEST(WireRulesDeadline, AnAsyncCallWithoutDeadlineCompletesOnlyWithItsAnswerOrTheEnd) {
  // Before the endpoint: its completions may run while it is destroyed.
  Recorder<Outcome> answered;
  Recorder<Outcome> dropped;
  RulesPeer peer = rules_peer(WireRules{});
  peer->ep().call_async("first", std::nullopt, record_into(answered));
  EXPECT_EQ(peer->next_body(), R"({"id":1,"jsonrpc":"2.0","method":"first"})");
  peer->ep().call_async("second", std::nullopt, record_into(dropped));
  EXPECT_EQ(peer->next_body(), R"({"id":2,"jsonrpc":"2.0","method":"second"})");
  ASSERT_TRUE(peer->sync());
  EXPECT_EQ(answered.size() + dropped.size(), 0u);
  peer->send(R"({"jsonrpc":"2.0","id":1,"result":1})");
  ASSERT_TRUE(answered.wait_size(1));
  EXPECT_TRUE(answered.items()[0].ok);
  EXPECT_EQ(dropped.size(), 0u);
  peer->close_input();
  ASSERT_TRUE(dropped.wait_size(1));
  EXPECT_EQ(dropped.items()[0].kind, CallError::Kind::kDisconnected);
}

}  // namespace
}  // namespace rpckit::endpoint_test
