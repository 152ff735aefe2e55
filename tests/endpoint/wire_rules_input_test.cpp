// WireRules::receive: what an endpoint does with input its peer should not have sent (a
// profile's not_json, oversize and stray_response), each rule set explicitly and checked byte
// for byte on the wire.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

#include "wire_rules_harness.hpp"

namespace rpckit::endpoint_test {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kNotJson = "nul";
const std::string kNotJsonReason = "at byte 0: expected null, found 'n'";

WireRules with_receive(ReceiveRules receive) {
  WireRules rules;
  rules.receive = receive;
  return rules;
}

// ---- not_json ------------------------------------------------------------------------------

TEST(WireRulesNotJson, AnswerSendsParseErrorWithNullId) {
  RulesPeer peer = rules_peer(with_receive({.not_json = OnNotJson::kAnswer}));
  peer->send(kNotJson);
  EXPECT_EQ(peer->next_body(),
            error_frame(R"({"code":-32700,"message":"Parse error: )" + kNotJsonReason + R"("})",
                        "null"));
  EXPECT_EQ(peer->diags.count(Kind::kParseError), 1u);
  EXPECT_TRUE(peer->sync());
}

TEST(WireRulesNotJson, AnswerAnswersEveryFrameOfAFloodAndLogsAtAFallingRate) {
  RulesPeer peer = rules_peer(with_receive({.not_json = OnNotJson::kAnswer}));
  std::string flood;
  for (int i = 0; i < 10000; ++i) flood += cl_frame(kNotJson);
  peer->write_raw(flood);
  peer->send(request(1, "add", json{{"a", 2}, {"b", 3}}));
  const std::vector<RawPeer::Frame> frames = peer->next_n(10001);
  ASSERT_EQ(frames.size(), 10001u);
  const std::string parse_error =
      error_frame(R"({"code":-32700,"message":"Parse error: )" + kNotJsonReason + R"("})", "null");
  std::size_t answered = 0;
  for (std::size_t i = 0; i < 10000; ++i) answered += frames[i].body == parse_error ? 1 : 0;
  EXPECT_EQ(answered, 10000u);
  EXPECT_EQ(frames[10000].body, R"({"id":1,"jsonrpc":"2.0","result":5})");
  const auto diags = peer->diags.items();
  ASSERT_EQ(diags.size(), 13u) << peer->diags.dump();
  for (const Diagnostic& d : diags) EXPECT_EQ(d.kind, Kind::kParseError);
  EXPECT_EQ(diags[0].detail, "frame is not JSON: " + kNotJsonReason);
  EXPECT_EQ(diags[12].detail,
            "10000 such frames so far; the last: frame is not JSON: " + kNotJsonReason);
}

TEST(WireRulesNotJson, LogWritesNothingAndReportsAParseError) {
  RulesPeer peer = rules_peer(with_receive({.not_json = OnNotJson::kLog}));
  peer->send(kNotJson);
  ASSERT_TRUE(peer->sync()) << "the first frame written answers the sync: nothing answered "
                               "the non-JSON frame";
  const auto diags = peer->diags.items();
  ASSERT_EQ(diags.size(), 1u) << peer->diags.dump();
  EXPECT_EQ(diags[0].kind, Kind::kParseError);
  EXPECT_EQ(diags[0].detail, "frame is not JSON, dropped: " + kNotJsonReason);
}

TEST(WireRulesNotJson, AFloodIsLoggedAtAFallingRateAndTheEndpointStillAnswers) {
  RulesPeer peer = rules_peer(with_receive({.not_json = OnNotJson::kLog}));
  std::string flood;
  for (int i = 0; i < 10000; ++i) flood += cl_frame(kNotJson);
  peer->write_raw(flood);
  peer->send(request(1, "add", json{{"a", 2}, {"b", 3}}));
  EXPECT_EQ(peer->next_body(), R"({"id":1,"jsonrpc":"2.0","result":5})");
  // Diagnostics are made by the reading thread before it reads on: all are in.
  const auto diags = peer->diags.items();
  ASSERT_EQ(diags.size(), 13u) << peer->diags.dump();
  const std::string dropped = "frame is not JSON, dropped: " + kNotJsonReason;
  for (std::size_t i = 0; i < 9; ++i) {
    EXPECT_EQ(diags[i].kind, Kind::kParseError);
    EXPECT_EQ(diags[i].detail, dropped) << i;
  }
  EXPECT_EQ(diags[9].detail,
            dropped + " (more are counted, and logged at every power of ten)");
  EXPECT_EQ(diags[10].detail, "100 such frames so far; the last: " + dropped);
  EXPECT_EQ(diags[11].detail, "1000 such frames so far; the last: " + dropped);
  EXPECT_EQ(diags[12].detail, "10000 such frames so far; the last: " + dropped);
  for (const Diagnostic& d : diags) EXPECT_EQ(d.kind, Kind::kParseError);
  EXPECT_EQ(peer->untaken(), 0u);
  EXPECT_EQ(peer.handled_count(), 1);
}

// What a layer above reports (a role that refuses a request on receipt) falls off as the
// endpoint's own reports do, whichever threads report it.
TEST(WireRulesReport, ReportsFromAboveAreLoggedAtTheSameFallingRateFromAnyThread) {
  RulesPeer peer = rules_peer(with_receive({}));
  constexpr int kThreads = 4;
  constexpr int kEach = 250;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&peer] {
      for (int i = 0; i < kEach; ++i) {
        peer->ep().report(Kind::kUndeclared, "refused: roots/list: roots is not granted");
      }
    });
  }
  for (std::thread& t : threads) t.join();
  const auto diags = peer->diags.items();  // reported on the reporting threads: all are in
  ASSERT_EQ(diags.size(), 12u) << peer->diags.dump();
  for (const Diagnostic& d : diags) EXPECT_EQ(d.kind, Kind::kUndeclared);
  // Which thread reports which count is theirs to race for: the lines, in any order.
  const std::string refused = "refused: roots/list: roots is not granted";
  std::multiset<std::string> lines;
  for (const Diagnostic& d : diags) lines.insert(d.detail);
  EXPECT_EQ(lines.count(refused), 9u);
  EXPECT_EQ(lines.count(refused + " (more are counted, and logged at every power of ten)"), 1u);
  EXPECT_EQ(lines.count("100 such frames so far; the last: " + refused), 1u);
  EXPECT_EQ(lines.count("1000 such frames so far; the last: " + refused), 1u);
  EXPECT_TRUE(peer->sync()) << "nothing was written for them";
}

// ---- oversize ------------------------------------------------------------------------------

constexpr std::size_t kSmallMax = 256;
const std::string kOverlongBody(300, ' ');  // JSON (white space), but 44 bytes too many
const std::string kOverlongReason = "Content-Length 300 exceeds the 256-byte limit";

RulesPeerSetup small_frames(bool resume) {
  RulesPeerSetup setup;
  setup.max_body = kSmallMax;
  setup.reader.resume_after_oversize = resume;
  return setup;
}

TEST(WireRulesOversize, DiscardWritesNothingReportsAndServesOn) {
  RulesPeer peer =
      rules_peer(with_receive({.oversize = OnOversize::kDiscard}), small_frames(true));
  peer->send(kOverlongBody);
  ASSERT_TRUE(peer->sync());
  const auto diags = peer->diags.items();
  ASSERT_EQ(diags.size(), 1u) << peer->diags.dump();
  EXPECT_EQ(diags[0].kind, Kind::kOversize);
  EXPECT_EQ(diags[0].detail, kOverlongReason + ": skipped");
  peer->send(request(2, "add", json{{"a", 1}, {"b", 1}}));
  EXPECT_EQ(peer->next_body(), R"({"id":2,"jsonrpc":"2.0","result":2})");
  EXPECT_TRUE(peer->closes.items().empty());
}

TEST(WireRulesOversize, DiscardedFramesAreLoggedAtAFallingRate) {
  RulesPeer peer =
      rules_peer(with_receive({.oversize = OnOversize::kDiscard}), small_frames(true));
  std::string frames;
  for (int i = 0; i < 100; ++i) frames += cl_frame(kOverlongBody);
  peer->write_raw(frames);
  ASSERT_TRUE(peer->sync());
  EXPECT_EQ(peer->diags.count(Kind::kOversize), 11u) << peer->diags.dump();
  EXPECT_EQ(peer->diags.items().back().detail,
            "100 such frames so far; the last: " + kOverlongReason + ": skipped");
}

TEST(WireRulesOversize, AnswerSendsInvalidRequestWithNullIdThenServesOn) {
  RulesPeer peer = rules_peer(with_receive({.oversize = OnOversize::kAnswer}), small_frames(true));
  // The id inside the over-long frame is never read: the answer's id is null.
  std::string overlong = request(7, "echo", json::array({std::string(300, 'p')})).dump();
  peer->send(overlong);
  EXPECT_EQ(peer->next_body(),
            error_frame(R"({"code":-32600,"message":"Invalid Request: frame too large: Content-Length )" +
                            std::to_string(overlong.size()) + R"( exceeds the 256-byte limit"})",
                        "null"));
  EXPECT_EQ(peer->diags.count(Kind::kOversize), 1u);
  EXPECT_EQ(peer.handled_count(), 0);
  EXPECT_TRUE(peer->sync());
}

TEST(WireRulesOversize, AnswerCarriesTheInvalidRequestReason) {
  WireRules rules = with_receive({.oversize = OnOversize::kAnswer});
  rules.error_data = all_reasons();
  RulesPeer peer = rules_peer(rules, small_frames(true));
  peer->send(kOverlongBody);
  EXPECT_EQ(peer->next_body(),
            error_frame(R"({"code":-32600,"data":{"reason":"invalid_request"},"message":"Invalid Request: frame too large: )" +
                            kOverlongReason + R"("})",
                        "null"));
  EXPECT_TRUE(peer->sync());
}

TEST(WireRulesOversize, CloseEndsTheConnection) {
  // As roles::connection_rules() builds it (the reader does not resume), and with a reader
  // that would: the endpoint's rule decides.
  for (const bool resume : {false, true}) {
    SCOPED_TRACE(resume ? "resuming reader" : "reader stops at the oversize");
    RulesPeer peer =
        rules_peer(with_receive({.oversize = OnOversize::kClose}), small_frames(resume));
    peer->send(kOverlongBody);
    peer->send(request(1, "add", json{{"a", 1}, {"b", 1}}));  // never read
    ASSERT_TRUE(peer->closes.wait_size(1));
    const CloseReason reason = peer->closes.items()[0];
    EXPECT_EQ(reason.kind, CloseReason::Kind::kOversize);
    EXPECT_EQ(reason.read_status, framing::ReadStatus::kOversize);
    EXPECT_EQ(reason.detail, kOverlongReason);
    EXPECT_EQ(peer->ep().wait().kind, CloseReason::Kind::kOversize);
    peer->destroy_endpoint();
    peer->end_output();
    ASSERT_TRUE(peer->wait_output_end());
    EXPECT_EQ(peer->untaken(), 0u) << "nothing was written";
    EXPECT_EQ(peer.handled_count(), 0);
    EXPECT_EQ(peer->diags.count(Kind::kOversize), 0u);
  }
}

TEST(WireRulesOversize, DiscardWithAReaderThatCannotResumeEndsTheConnection) {
  RulesPeer peer =
      rules_peer(with_receive({.oversize = OnOversize::kDiscard}), small_frames(false));
  peer->send(kOverlongBody);
  ASSERT_TRUE(peer->closes.wait_size(1)) << peer->diags.count(Kind::kOversize)
                                         << " oversize diagnostics so far";
  EXPECT_EQ(peer->closes.items()[0].kind, CloseReason::Kind::kOversize);
}

// ---- stray_response ------------------------------------------------------------------------

const std::string kStrayAnswer = error_frame(
    R"({"code":-32600,"message":"Invalid Request: a response sent to this side"})", "null");

TEST(WireRulesStrayResponse, AnswerRepliesToAnUnknownIdWithInvalidRequest) {
  RulesPeer peer = rules_peer(with_receive({.stray_response = OnStrayResponse::kAnswer}));
  peer->send(R"({"jsonrpc":"2.0","id":99,"result":1})");
  EXPECT_EQ(peer->next_body(), kStrayAnswer);
  peer->send(R"({"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"no"}})");
  EXPECT_EQ(peer->next_body(), kStrayAnswer);
  peer->send(R"({"jsonrpc":"2.0","id":null,"result":1})");
  EXPECT_EQ(peer->next_body(), kStrayAnswer);
  EXPECT_EQ(peer->diags.count(Kind::kInvalidRequest), 3u) << peer->diags.dump();
  EXPECT_EQ(peer->diags.count(Kind::kUnknownResponseId), 0u);
  EXPECT_TRUE(peer->sync());
}

TEST(WireRulesStrayResponse, AnswerRepliesToAResponseWithBothResultAndError) {
  RulesPeer peer = rules_peer(with_receive({.stray_response = OnStrayResponse::kAnswer}));
  peer->send(R"({"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"no"}})");
  EXPECT_EQ(peer->next_body(), kStrayAnswer);
  EXPECT_EQ(peer->diags.count(Kind::kInvalidRequest), 1u);
  EXPECT_TRUE(peer->sync());
}

TEST(WireRulesStrayResponse, AnswerCarriesTheInvalidRequestReason) {
  WireRules rules = with_receive({.stray_response = OnStrayResponse::kAnswer});
  rules.error_data = all_reasons();
  RulesPeer peer = rules_peer(rules);
  peer->send(R"({"jsonrpc":"2.0","id":99,"result":1})");
  EXPECT_EQ(
      peer->next_body(),
      error_frame(
          R"({"code":-32600,"data":{"reason":"invalid_request"},"message":"Invalid Request: a response sent to this side"})",
          "null"));
}

TEST(WireRulesStrayResponse, AnswerStillTakesTheAnswerToItsOwnCall) {
  // Before the endpoint: its completions may run while it is destroyed.
  Recorder<Outcome> outcomes;
  RulesPeer peer = rules_peer(with_receive({.stray_response = OnStrayResponse::kAnswer}));
  peer->ep().call_async("m", std::nullopt, record_into(outcomes));
  EXPECT_EQ(peer->next_body(), R"({"id":1,"jsonrpc":"2.0","method":"m"})");
  peer->send(R"({"jsonrpc":"2.0","id":1,"result":"fine"})");
  ASSERT_TRUE(outcomes.wait_size(1));
  EXPECT_TRUE(outcomes.items()[0].ok);
  EXPECT_EQ(outcomes.items()[0].text, R"("fine")");
  EXPECT_TRUE(peer->sync()) << "the answer to our call was not answered";
  EXPECT_EQ(peer->diags.count(Kind::kInvalidRequest), 0u);
}

TEST(WireRulesStrayResponse, LogWritesNothing) {
  RulesPeer peer = rules_peer(with_receive({.stray_response = OnStrayResponse::kLog}));
  peer->send(R"({"jsonrpc":"2.0","id":99,"result":1})");
  peer->send(R"({"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"no"}})");
  ASSERT_TRUE(peer->sync());
  const auto diags = peer->diags.items();
  ASSERT_EQ(diags.size(), 2u) << peer->diags.dump();
  EXPECT_EQ(diags[0].kind, Kind::kUnknownResponseId);
  EXPECT_EQ(diags[0].detail, "response with id 99 matches no pending call");
  EXPECT_EQ(diags[1].kind, Kind::kInvalidResponse);
  EXPECT_THAT(diags[1].detail, StartsWith("response with id 1 cannot be used: "));
  EXPECT_THAT(diags[1].detail, HasSubstr("exactly one of result and error"));
}

}  // namespace
}  // namespace rpckit::endpoint_test
