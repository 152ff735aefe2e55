// WireRules::progress: a call that asks for progress (CallOptions) carries its own id as the
// token at the profile's path of its params, beside what is there already; the peer's reports
// under that token go to the call's observer, in order, not to the handler, and with
// reset_on_progress each restarts the call's deadline, never past the maximum. Reports under
// any other token, or after the call is over, are ordinary notifications. A test's recorders
// are declared before its peer: the endpoint's threads may use them until the peer is gone.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>

#include "endpoint_harness.hpp"

namespace rpckit::endpoint_test {
namespace {

using namespace std::chrono_literals;

WireRules progress_rules() {
  WireRules rules;
  rules.progress.method = "progress";
  rules.progress.token_member = "token";
  rules.progress.request_token = "_meta.token";
  return rules;
}

json report(const json& token, int step) {
  return notification("progress", json{{"token", token}, {"step", step}});
}

// An endpoint under a RawPeer whose handler records each notification's method and params.
struct ProgressPeer {
  Recorder<std::string> handled;
  std::unique_ptr<RawPeer> peer;

  explicit ProgressPeer(WireRules rules) {
    Endpoint::Options options;
    options.rules = std::move(rules);
    peer = std::make_unique<RawPeer>(std::move(options));
    peer->ep().set_handler([this](const Incoming& in) -> json {
      if (!in.is_request()) handled.push(in.method + " " + std::string(in.params_text));
      return nullptr;
    });
    peer->start();
  }
  RawPeer* operator->() { return peer.get(); }
};

// What an observer saw: each report's params text.
CallOptions::ProgressObserver record_reports(Recorder<std::string>& seen) {
  return [&seen](const Incoming& in) { seen.push(std::string(in.params_text)); };
}

TEST(WireRulesProgress, ACallThatAsksCarriesItsIdAsTheTokenBesideWhatItsParamsHold) {
  Recorder<std::string> seen;
  Recorder<bool> done;
  ProgressPeer p(progress_rules());
  auto finished = [&done](CallResult r) { done.push(r.ok()); };
  p->ep().call_async("work", json{{"x", 1}, {"_meta", {{"trace", "t1"}}}}, finished,
                     CallOptions(kWait).on_progress(record_reports(seen)));
  EXPECT_EQ(p->next_body(), R"({"id":1,"jsonrpc":"2.0","method":"work","params":)"
                            R"({"_meta":{"token":1,"trace":"t1"},"x":1}})");
  // No params at all: the path is made.
  p->ep().call_async("work", std::nullopt, finished, CallOptions().reset_on_progress(kWait));
  EXPECT_EQ(p->next_body(), R"({"id":2,"jsonrpc":"2.0","method":"work","params":)"
                            R"({"_meta":{"token":2}}})");
  // Not asked for: the params go as they are.
  p->ep().call_async("work", json{{"x", 1}}, finished, kWait);
  EXPECT_EQ(p->next_body(), R"({"id":3,"jsonrpc":"2.0","method":"work","params":{"x":1}})");
  // Params that cannot hold the path go as they are too.
  p->ep().call_async("work", json::array({1}), finished,
                     CallOptions(kWait).on_progress(record_reports(seen)));
  EXPECT_EQ(p->next_body(), R"({"id":4,"jsonrpc":"2.0","method":"work","params":[1]})");
  p->ep().call_async("work", json{{"_meta", 5}}, finished,
                     CallOptions(kWait).on_progress(record_reports(seen)));
  EXPECT_EQ(p->next_body(), R"({"id":5,"jsonrpc":"2.0","method":"work","params":{"_meta":5}})");
  EXPECT_TRUE(p->sync());
}

TEST(WireRulesProgress, WithoutTheRuleNoTokenIsSentAndReportsAreNotifications) {
  Recorder<std::string> seen;
  ProgressPeer p(WireRules{});
  p->ep().call_async(
      "work", json{{"x", 1}}, [](CallResult) {},
      CallOptions(kWait).on_progress(record_reports(seen)));
  EXPECT_EQ(p->next_body(), R"({"id":1,"jsonrpc":"2.0","method":"work","params":{"x":1}})");
  p->send(report(1, 1));
  EXPECT_TRUE(p.handled.wait_size(1));
  EXPECT_EQ(seen.size(), 0u);
  EXPECT_TRUE(p->sync());
}

TEST(WireRulesProgress, ReportsReachTheCallsObserverInOrderAndOthersTheHandler) {
  Recorder<std::string> seen;
  Recorder<std::string> done;
  ProgressPeer p(progress_rules());
  p->ep().call_async(
      "work", std::nullopt,
      [&done](CallResult r) { done.push(r.ok() ? r.result().dump() : "failed"); },
      CallOptions(kWait).on_progress(record_reports(seen)));
  ASSERT_TRUE(p->next());
  p->send(report(1, 1));
  p->send(report(99, 1));   // no call of ours
  p->send(report("1", 2));  // the other kind than the id was sent as: not that call
  p->send(report(1, 2));
  p->send(report(1, 3));
  ASSERT_TRUE(seen.wait_size(3));
  EXPECT_EQ(seen.items(),
            (std::vector<std::string>{R"({"step":1,"token":1})", R"({"step":2,"token":1})",
                                      R"({"step":3,"token":1})"}));
  p->send(json{{"jsonrpc", "2.0"}, {"id", 1}, {"result", "done"}});
  ASSERT_TRUE(done.wait_size(1));
  EXPECT_EQ(done.items(), std::vector<std::string>{"\"done\""});
  p->send(report(1, 4));  // late: the call is over
  ASSERT_TRUE(p.handled.wait_size(3));
  EXPECT_EQ(p.handled.items(), (std::vector<std::string>{R"(progress {"step":1,"token":99})",
                                                         R"(progress {"step":2,"token":"1"})",
                                                         R"(progress {"step":4,"token":1})"}));
  EXPECT_EQ(seen.size(), 3u);
  EXPECT_TRUE(p->sync());
  EXPECT_EQ(p->diags.size(), 0u) << p->diags.dump();
}

TEST(WireRulesProgress, AnObserverThatThrowsIsReportedAndTheCallGoesOn) {
  Recorder<bool> done;
  ProgressPeer p(progress_rules());
  CallOptions options(kWait);
  options.on_progress([](const Incoming&) { throw std::runtime_error("observer broke"); });
  p->ep().call_async(
      "work", std::nullopt, [&done](CallResult r) { done.push(r.ok()); }, std::move(options));
  ASSERT_TRUE(p->next());
  p->send(report(1, 1));
  EXPECT_TRUE(p->diags.wait_for(Kind::kObserverFailed));
  p->send(json{{"jsonrpc", "2.0"}, {"id", 1}, {"result", 1}});
  ASSERT_TRUE(done.wait_size(1));
  EXPECT_EQ(done.items(), std::vector<bool>{true});
}

// Sends a report on call `id` every 20 ms until `stop` (the peer keeps working on it), for
// kWait at most: a call that ignored its maximum fails its test rather than hanging it.
std::thread keep_reporting(RawPeer& peer, int id, std::atomic<bool>& stop) {
  return std::thread([&peer, id, &stop] {
    const auto start = std::chrono::steady_clock::now();
    for (int step = 1; !stop.load() && since(start) < kWait; ++step) {
      peer.send(report(id, step));
      std::this_thread::sleep_for(20ms);
    }
  });
}

// The peer works on call `id` for `working`, reporting every 20 ms, then answers it.
void work_then_answer(RawPeer& peer, int id, std::chrono::milliseconds working) {
  std::atomic<bool> stop{false};
  const auto start = std::chrono::steady_clock::now();
  std::thread reports = keep_reporting(peer, id, stop);
  while (since(start) < working) std::this_thread::sleep_for(20ms);
  stop = true;
  reports.join();
  peer.send(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", "late but working"}});
}

// The reports come every 20 ms for longer than the call's deadline, then the answer: the call
// waits for it. Synchronous and asynchronous calls alike; with no observer, the reports
// reach the handler.
TEST(WireRulesProgress, ReportsRestartTheDeadlineSoASlowButWorkingCallIsAnswered) {
  constexpr auto kDeadline = 1200ms;  // far over any pause between two reports, even loaded
  constexpr auto kWorking = kDeadline + 500ms;
  Recorder<std::string> seen;
  Recorder<std::string> done;
  ProgressPeer p(progress_rules());
  std::thread peer([&] {
    ASSERT_TRUE(p->next());
    work_then_answer(*p.peer, 1, kWorking);
  });
  CallResult r =
      p->ep().call("work", std::nullopt, CallOptions(kDeadline).reset_on_progress(kWait));
  peer.join();
  ASSERT_TRUE(r.ok()) << r.error().error.message();
  EXPECT_EQ(r.result(), "late but working");
  EXPECT_GE(p.handled.size(), 2u);  // no observer: the handler had them

  p->ep().call_async(
      "work", std::nullopt,
      [&done](CallResult answer) {
        done.push(answer.ok() ? answer.result().dump() : answer.error().error.message());
      },
      CallOptions(kDeadline).on_progress(record_reports(seen)).reset_on_progress(kWait));
  ASSERT_TRUE(p->next());
  work_then_answer(*p.peer, 2, kWorking);
  ASSERT_TRUE(done.wait_size(1));
  EXPECT_EQ(done.items(), std::vector<std::string>{"\"late but working\""});
  EXPECT_GE(seen.size(), 2u);
  EXPECT_TRUE(p->sync());
}

// call("work", options) while the peer keeps reporting on it and never answers: how it ended,
// and how long it waited.
std::pair<CallResult, std::chrono::milliseconds> call_while_reporting(ProgressPeer& p,
                                                                      CallOptions options) {
  std::atomic<bool> stop{false};
  std::thread reports;
  std::thread driver([&] {
    ASSERT_TRUE(p->next());
    reports = keep_reporting(*p.peer, 1, stop);
  });
  const auto start = std::chrono::steady_clock::now();
  CallResult r = p->ep().call("work", std::nullopt, std::move(options));
  const auto waited = since(start);
  driver.join();
  stop = true;
  if (reports.joinable()) reports.join();
  return {std::move(r), waited};
}

// However many reports come, the call ends at the maximum since it was sent.
TEST(WireRulesProgress, TheMaximumHoldsHoweverManyReportsCome) {
  ProgressPeer p(progress_rules());
  auto [r, waited] = call_while_reporting(p, CallOptions(200ms).reset_on_progress(900ms));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, CallError::Kind::kTimeout);
  EXPECT_GE(waited, 900ms);  // a deadline never fires early
  EXPECT_LT(waited, kWait);
}

// Without reset_on_progress the deadline is fixed, whatever reports come.
TEST(WireRulesProgress, AnObserverAloneLeavesTheDeadlineAsItIs) {
  Recorder<std::string> seen;
  ProgressPeer p(progress_rules());
  auto [r, waited] = call_while_reporting(p, CallOptions(300ms).on_progress(record_reports(seen)));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, CallError::Kind::kTimeout);
  EXPECT_GE(waited, 300ms);
  EXPECT_LT(waited, kWait);
  EXPECT_GE(seen.size(), 1u);  // the reports reached the observer all the same
}

}  // namespace
}  // namespace rpckit::endpoint_test
