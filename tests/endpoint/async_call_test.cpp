// call_async(): requests that park no thread. Each completion runs exactly once: with the
// response, at the deadline, when the connection ends, or at once when nothing can be sent.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <string>
#include <vector>

#include "endpoint_harness.hpp"
#include "rpckit/endpoint/typed.hpp"
#include "streamnook_v1/messages.hpp"

namespace rpckit::endpoint_test {
namespace {

// Threads of this process, from the kernel's own count.
int thread_count() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  }
  return -1;
}

// One outcome per completion, so a second run of the same completion shows up as a count.
struct Outcome {
  std::string what;  // "ok:<result>" or the error kind
};

std::string describe(const CallResult& r) {
  if (r.ok()) return "ok:" + r.result().dump();
  if (r.error().kind == CallError::Kind::kRemote) {
    return "remote:" + std::to_string(r.error().error.code());
  }
  return std::string(kind_name(r.error().kind));
}

TEST(AsyncCall, CompletesWithTheResultAndTheRemoteError) {
  Recorder<std::string> outcomes;
  MemoryPair pair;
  pair.b->ep().set_handler(basic_handler);
  pair.start();
  pair.a->ep().call_async("add", json{{"a", 40}, {"b", 2}},
                          [&](CallResult r) { outcomes.push(describe(r)); });
  pair.a->ep().call_async("nope", json::object(), [&](CallResult r) { outcomes.push(describe(r)); });
  ASSERT_TRUE(outcomes.wait_size(2));
  std::vector<std::string> got = outcomes.items();
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"ok:42", "remote:-32601"}));
}

TEST(AsyncCall, ManyOutstandingCallsHoldNoThreadEach) {
  constexpr int kCalls = 500;
  Gate release;
  Recorder<std::string> outcomes;
  MemoryPair pair;
  // The peer holds every answer back until released: all calls are outstanding at once.
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    release.wait();
    return basic_handler(in);
  });
  pair.start();
  int before = thread_count();
  for (int i = 0; i < kCalls; ++i) {
    pair.a->ep().call_async("add", json{{"a", i}, {"b", 1}},
                            [&](CallResult r) { outcomes.push(describe(r)); });
  }
  EXPECT_EQ(thread_count(), before);  // no thread per outstanding call
  EXPECT_EQ(outcomes.size(), 0u);
  release.open();
  ASSERT_TRUE(outcomes.wait_size(kCalls));
  EXPECT_EQ(outcomes.size(), static_cast<std::size_t>(kCalls));
  for (const std::string& o : outcomes.items()) EXPECT_EQ(o.rfind("ok:", 0), 0u) << o;
}

TEST(AsyncCall, TimesOutOnceWhenThePeerNeverAnswers) {
  Recorder<std::string> outcomes;
  Gate answer;
  MemoryPair pair;
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    answer.wait();  // answers only after the caller has given up
    return basic_handler(in);
  });
  pair.start();
  auto start = std::chrono::steady_clock::now();
  pair.a->ep().call_async(
      "echo", json{{"x", 1}}, [&](CallResult r) { outcomes.push(describe(r)); },
      std::chrono::milliseconds(50));
  ASSERT_TRUE(outcomes.wait_size(1));
  EXPECT_GE(since(start), std::chrono::milliseconds(50));
  EXPECT_EQ(outcomes.items()[0], "timeout");
  answer.open();  // the late response is reported, never delivered twice
  ASSERT_TRUE(pair.a->diags.wait_for(Kind::kUnknownResponseId));
  EXPECT_EQ(outcomes.size(), 1u);
}

TEST(AsyncCall, CloseCompletesOutstandingCallsAsDisconnected) {
  Recorder<std::string> outcomes;
  Gate never;
  MemoryPair pair;
  pair.b->ep().set_handler([&](const Incoming&) -> json {
    never.wait(std::chrono::milliseconds(2000));
    return nullptr;
  });
  pair.start();
  for (int i = 0; i < 3; ++i) {
    pair.a->ep().call_async("echo", json::object(),
                            [&](CallResult r) { outcomes.push(describe(r)); });
  }
  pair.a->ep().close();
  ASSERT_TRUE(outcomes.wait_size(3));
  for (const std::string& o : outcomes.items()) EXPECT_EQ(o, "disconnected");
  // After the end, a new call completes at once, on the calling thread.
  bool ran = false;
  pair.a->ep().call_async("echo", json::object(), [&](CallResult r) {
    ran = true;
    EXPECT_EQ(describe(r), "disconnected");
  });
  EXPECT_TRUE(ran);
  never.open();
}

TEST(AsyncCall, PeerEofCompletesOutstandingCallsAsDisconnected) {
  Recorder<std::string> outcomes;
  MemoryPair pair;
  pair.b->ep().set_handler([&](const Incoming&) -> json { return nullptr; });
  pair.a->ep().start();  // b never starts: nothing answers
  pair.a->ep().call_async("echo", json::object(),
                          [&](CallResult r) { outcomes.push(describe(r)); });
  pair.b->close_output();
  ASSERT_TRUE(outcomes.wait_size(1));
  EXPECT_EQ(outcomes.items()[0], "disconnected");
}

TEST(AsyncCall, ACompletionThatThrowsIsContained) {
  Recorder<std::string> outcomes;
  MemoryPair pair;
  pair.b->ep().set_handler(basic_handler);
  pair.start();
  pair.a->ep().call_async("add", json{{"a", 1}, {"b", 1}},
                          [](CallResult) { throw std::runtime_error("app bug"); });
  ASSERT_TRUE(pair.a->diags.wait_for(Kind::kObserverFailed));
  pair.a->ep().call_async("add", json{{"a", 2}, {"b", 2}},
                          [&](CallResult r) { outcomes.push(describe(r)); });
  ASSERT_TRUE(outcomes.wait_size(1));
  EXPECT_EQ(outcomes.items()[0], "ok:4");
}

TEST(AsyncCall, DeadlinesHoldWhileTheDispatcherWaitsInACall) {
  // a's handler calls b and waits; meanwhile an async call of a's (to a silent method) must
  // still time out, kept by the thread running handlers as it pumps.
  Recorder<std::string> outcomes;
  Gate b_answers;
  MemoryPair pair;
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    if (in.method == "slow") {
      b_answers.wait();
      return "slow done";
    }
    if (in.method == "silent") {
      b_answers.wait();
      return nullptr;
    }
    if (in.method == "start") {
      return nullptr;
    }
    return basic_handler(in);
  });
  pair.a->ep().set_handler([&](const Incoming& in) -> json {
    if (in.method == "go") {
      pair.a->ep().call_async(
          "silent", json::object(), [&](CallResult r) { outcomes.push(describe(r)); },
          std::chrono::milliseconds(50));
      CallResult r = pair.a->ep().call("slow", json::object(), std::chrono::milliseconds(5000));
      outcomes.push("slow:" + describe(r));
      return nullptr;
    }
    return basic_handler(in);
  });
  pair.start();
  ASSERT_TRUE(pair.b->ep().notify("go", json::object()));
  ASSERT_TRUE(outcomes.wait_size(1));
  EXPECT_EQ(outcomes.items()[0], "timeout");
  b_answers.open();
  ASSERT_TRUE(outcomes.wait_size(2));
  EXPECT_EQ(outcomes.items()[1], "slow:ok:\"slow done\"");
}

TEST(AsyncCall, TypedCallAsyncDecodesTheResult) {
  namespace sn = ::streamnook::v1;
  Recorder<std::string> outcomes;
  MemoryPair pair;
  pair.b->ep().set_handler([](const Incoming& in) -> json {
    if (in.method == "ping") return json::object();
    return json{{"hooks", 7}};  // an initialize result that does not decode
  });
  pair.start();
  call_async<sn::messages::Ping>(pair.a->ep(), {}, [&](const Result<sn::PingResult>& r) {
    outcomes.push(r.ok() ? "ping ok" : r.error().describe());
  });
  ASSERT_TRUE(outcomes.wait_size(1));
  sn::InitializeParams params;
  call_async<sn::messages::Initialize>(pair.a->ep(), params,
                                       [&](const Result<sn::InitializeResult>& r) {
                                         outcomes.push(r.ok() ? "init ok" : r.error().describe());
                                       });
  ASSERT_TRUE(outcomes.wait_size(2));
  EXPECT_EQ(outcomes.items()[0], "ping ok");
  EXPECT_NE(outcomes.items()[1].find("initialize: invalid result: result"), std::string::npos)
      << outcomes.items()[1];
}

}  // namespace
}  // namespace rpckit::endpoint_test
