// Two endpoints wired together over in-memory pipes: both sides call and notify each other.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "endpoint_harness.hpp"

namespace rpckit::endpoint_test {
namespace {

TEST(Pair, CallsAndNotificationsInBothDirections) {
  Recorder<std::string> a_notes;  // declared before the pair: they outlive its threads
  Recorder<std::string> b_notes;
  MemoryPair pair;
  pair.a->ep().set_handler([&](const Incoming& in) -> json {
    if (!in.is_request()) {
      a_notes.push(in.method + ":" + in.params->dump());
      return nullptr;
    }
    return basic_handler(in);
  });
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    if (!in.is_request()) {
      b_notes.push(in.method + ":" + in.params->dump());
      return nullptr;
    }
    return basic_handler(in);
  });
  pair.start();

  CallResult from_a = pair.a->ep().call("add", json{{"a", 40}, {"b", 2}});
  ASSERT_TRUE(from_a.ok()) << from_a.error().describe();
  EXPECT_EQ(from_a.result(), 42);
  CallResult from_b = pair.b->ep().call("echo", json{{"s", "é\"\n"}, {"n", nullptr}});
  ASSERT_TRUE(from_b.ok()) << from_b.error().describe();
  EXPECT_EQ(from_b.result(), (json{{"s", "é\"\n"}, {"n", nullptr}}));

  EXPECT_TRUE(pair.a->ep().notify("hello", json{{"from", "a"}}));
  EXPECT_TRUE(pair.b->ep().notify("hello", json{{"from", "b"}}));
  ASSERT_TRUE(b_notes.wait_size(1));
  ASSERT_TRUE(a_notes.wait_size(1));
  EXPECT_EQ(b_notes.items()[0], R"(hello:{"from":"a"})");
  EXPECT_EQ(a_notes.items()[0], R"(hello:{"from":"b"})");

  // Calls in both directions at the same time.
  auto a_call = std::async(std::launch::async,
                           [&] { return pair.a->ep().call("add", json{{"a", 1}, {"b", 1}}); });
  auto b_call = std::async(std::launch::async,
                           [&] { return pair.b->ep().call("add", json{{"a", 2}, {"b", 2}}); });
  EXPECT_EQ(a_call.get().result(), 2);
  EXPECT_EQ(b_call.get().result(), 4);
  EXPECT_EQ(pair.a->diags.size(), 0u) << pair.a->diags.dump();
  EXPECT_EQ(pair.b->diags.size(), 0u) << pair.b->diags.dump();
}

TEST(Pair, ErrorsComeBackAsRemoteCallErrorsIntact) {
  MemoryPair pair;
  pair.b->ep().set_handler(basic_handler);
  pair.start();
  const json data = {{"name", "rate_limited"}, {"retry_after_ms", 250}, {"list", {1, 2, 3}}};
  CallResult r = pair.a->ep().call(
      "fail.rpc", json{{"code", -32003}, {"message", "too many calls"}, {"data", data}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, CallError::Kind::kRemote);
  EXPECT_EQ(r.error().error.code(), -32003);
  EXPECT_EQ(r.error().error.message(), "too many calls");
  ASSERT_TRUE(r.error().error.data().has_value());
  EXPECT_EQ(*r.error().error.data(), data);

  CallResult no_data =
      pair.a->ep().call("fail.rpc", json{{"code", -32602}, {"message", "params.x: bad"}});
  ASSERT_FALSE(no_data.ok());
  EXPECT_EQ(no_data.error().error.code(), -32602);
  EXPECT_EQ(no_data.error().error.message(), "params.x: bad");
  EXPECT_FALSE(no_data.error().error.data().has_value());

  CallResult internal = pair.a->ep().call("fail.std", std::nullopt);
  ASSERT_FALSE(internal.ok());
  EXPECT_EQ(internal.error().kind, CallError::Kind::kRemote);
  EXPECT_EQ(internal.error().error.code(), jsonrpc_code::kInternalError);

  CallResult unknown = pair.a->ep().call("nope", std::nullopt);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().error.code(), jsonrpc_code::kMethodNotFound);
}

// ---- deadlines ---------------------------------------------------------------------------

TEST(PairDeadline, DefaultDeadlineThenLateResponseIsDroppedAsUnknown) {
  Endpoint::Options a_options;
  a_options.default_deadline = 200ms;
  Gate release;
  Gate entered;
  MemoryPair pair(std::move(a_options));
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    if (in.method == "slow") {
      entered.open();
      EXPECT_TRUE(release.wait());
      return "late";
    }
    return basic_handler(in);
  });
  pair.start();
  const auto start = std::chrono::steady_clock::now();
  CallResult r = pair.a->ep().call("slow", std::nullopt);
  const auto elapsed = since(start);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, CallError::Kind::kTimeout);
  EXPECT_GE(elapsed, 200ms);
  EXPECT_LT(elapsed, kPrompt);
  EXPECT_NE(r.error().describe().find("200 ms"), std::string::npos) << r.error().describe();
  ASSERT_TRUE(entered.is_open());

  release.open();  // the late response arrives, matches no call, and is dropped
  ASSERT_TRUE(pair.a->diags.wait_for(Kind::kUnknownResponseId)) << pair.a->diags.dump();
  // The connection is fine afterwards.
  CallResult after = pair.a->ep().call("add", json{{"a", 1}, {"b", 2}}, 10s);
  ASSERT_TRUE(after.ok()) << after.error().describe();
  EXPECT_EQ(after.result(), 3);
}

TEST(PairDeadline, PerCallDeadlineOverridesTheDefault) {
  Endpoint::Options a_options;
  a_options.default_deadline = 30s;
  Gate release;
  MemoryPair pair(std::move(a_options));
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    if (in.method == "slow") {
      EXPECT_TRUE(release.wait());
    }
    return in.method;
  });
  pair.start();
  const auto start = std::chrono::steady_clock::now();
  CallResult r = pair.a->ep().call("slow", std::nullopt, 100ms);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, CallError::Kind::kTimeout);
  EXPECT_GE(since(start), 100ms);
  EXPECT_LT(since(start), kPrompt);
  release.open();
  ASSERT_TRUE(pair.a->diags.wait_for(Kind::kUnknownResponseId));
  // A generous per-call deadline is not cut short by a small default.
  CallResult ok = pair.a->ep().call("fast", std::nullopt, 10s);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok.result(), "fast");
}

TEST(PairDeadline, ZeroDeadlineTimesOutWithoutWaiting) {
  Gate release;
  MemoryPair pair;
  pair.b->ep().set_handler([&](const Incoming&) -> json {
    EXPECT_TRUE(release.wait());
    return 1;
  });
  pair.start();
  CallResult r = pair.a->ep().call("m", std::nullopt, 0ms);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, CallError::Kind::kTimeout);
  release.open();
  ASSERT_TRUE(pair.a->diags.wait_for(Kind::kUnknownResponseId));
}

// ---- disconnects ---------------------------------------------------------------------------

TEST(PairDisconnect, PeerGoingAwayFailsPendingCallsPromptly) {
  Gate entered;
  Gate release;
  MemoryPair pair;
  pair.b->ep().set_handler([&](const Incoming&) -> json {
    entered.open();
    EXPECT_TRUE(release.wait());
    return 1;
  });
  pair.start();
  std::vector<std::future<CallResult>> calls;
  for (int i = 0; i < 4; ++i) {
    calls.push_back(std::async(std::launch::async,
                               [&] { return pair.a->ep().call("m", std::nullopt, 20s); }));
  }
  ASSERT_TRUE(entered.wait());
  const auto start = std::chrono::steady_clock::now();
  pair.b->close_output();  // a reads EOF
  for (auto& call : calls) {
    CallResult r = call.get();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, CallError::Kind::kDisconnected);
  }
  EXPECT_LT(since(start), kPrompt);
  EXPECT_EQ(pair.a->ep().wait().kind, CloseReason::Kind::kEof);
  CallResult after = pair.a->ep().call("m", std::nullopt, 20s);
  EXPECT_EQ(after.error().kind, CallError::Kind::kDisconnected);
  release.open();
}

TEST(PairDisconnect, LocalCloseFromAnotherThreadFailsPendingCalls) {
  Gate entered;
  Gate release;
  MemoryPair pair;
  pair.b->ep().set_handler([&](const Incoming&) -> json {
    entered.open();
    EXPECT_TRUE(release.wait());
    return 1;
  });
  pair.start();
  auto call = std::async(std::launch::async,
                         [&] { return pair.a->ep().call("m", std::nullopt, 20s); });
  ASSERT_TRUE(entered.wait());
  const auto start = std::chrono::steady_clock::now();
  std::thread closer([&] { pair.a->ep().close(); });
  CallResult r = call.get();
  closer.join();
  EXPECT_LT(since(start), kPrompt);
  EXPECT_EQ(r.error().kind, CallError::Kind::kDisconnected);
  EXPECT_EQ(pair.a->ep().wait().kind, CloseReason::Kind::kLocal);
  release.open();
}

TEST(PairDisconnect, DestroyingThePeerFailsPendingCallsPromptly) {
  Gate entered;
  Gate a_entered;
  Gate a_release;
  MemoryPair pair;
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    entered.open();
    // b's own call back to a fails once b is closed, instead of blocking b's destructor.
    CallResult r = pair.b->ep().call("never.answered", std::nullopt, 20s);
    EXPECT_EQ(r.error().kind, CallError::Kind::kDisconnected);
    return in.method;
  });
  pair.a->ep().set_handler([&](const Incoming&) -> json {
    a_entered.open();
    EXPECT_TRUE(a_release.wait());
    return nullptr;
  });
  pair.start();
  auto call = std::async(std::launch::async,
                         [&] { return pair.a->ep().call("m", std::nullopt, 20s); });
  ASSERT_TRUE(entered.wait());
  ASSERT_TRUE(a_entered.wait());
  const auto start = std::chrono::steady_clock::now();
  pair.b->destroy();
  EXPECT_LT(since(start), kPrompt);
  CallResult r = call.get();
  EXPECT_LT(since(start), kPrompt);
  // b's handler finished (its own call failed at once) and answered before b's output closed.
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r.result(), "m");
  a_release.open();
}

// ---- close() from inside a handler -----------------------------------------------------------

TEST(PairClose, CloseFromInsideAHandler) {
  MemoryPair pair;
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    if (in.method != "close.me") return basic_handler(in);
    pair.b->ep().close();
    EXPECT_TRUE(pair.b->ep().closed());
    // The handler may go on; calling out now fails at once.
    CallResult r = pair.b->ep().call("x", std::nullopt, 20s);
    EXPECT_EQ(r.error().kind, CallError::Kind::kDisconnected);
    return "bye";
  });
  pair.start();
  CallResult r = pair.a->ep().call("close.me", std::nullopt, 20s);
  // The request that closed the endpoint still gets its (one) response.
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r.result(), "bye");
  EXPECT_EQ(pair.b->ep().wait().kind, CloseReason::Kind::kLocal);
  ASSERT_TRUE(pair.b->closes.wait_size(1));
  EXPECT_EQ(pair.b->closes.items()[0].kind, CloseReason::Kind::kLocal);
  // b stopped reading (its interrupt closed the pipe a writes to): a's writes now fail.
  EXPECT_FALSE(pair.a->ep().notify("anyone", std::nullopt));
  EXPECT_TRUE(pair.a->diags.wait_for(Kind::kWriteFailed));
  CallResult after = pair.a->ep().call("add", json{{"a", 1}, {"b", 1}}, 20s);
  EXPECT_EQ(after.error().kind, CallError::Kind::kSendFailed);
}

TEST(PairClose, DestructorWithABlockedReaderReturnsPromptly) {
  // The peer never writes nor closes: a's reader blocks in read() until interrupt_reader.
  MemoryPair pair;
  pair.start();
  ASSERT_TRUE(pair.a->ep().notify("x", std::nullopt));
  const auto start = std::chrono::steady_clock::now();
  pair.a->destroy();
  EXPECT_LT(since(start), kPrompt);
  EXPECT_EQ(pair.b->ep().wait().kind, CloseReason::Kind::kEof);
}

// ---- ordering --------------------------------------------------------------------------------

TEST(PairOrder, MessagesAreHandledInArrivalOrder) {
  Recorder<int> seen;
  MemoryPair pair;
  pair.a->ep().set_handler([&](const Incoming& in) -> json {
    seen.push(in.params->at("i").get<int>());
    return in.params->at("i");
  });
  pair.start();
  constexpr int kCount = 500;
  std::vector<std::future<CallResult>> calls;
  for (int i = 0; i < kCount; ++i) {
    if (i % 25 == 0) {
      // A request among the notifications; it is handled before anything is sent after it.
      calls.push_back(std::async(std::launch::async, [&pair, i] {
        return pair.b->ep().call("seq", json{{"i", i}}, 20s);
      }));
      ASSERT_TRUE(seen.wait_size(static_cast<std::size_t>(i) + 1));
    } else {
      ASSERT_TRUE(pair.b->ep().notify("seq", json{{"i", i}}));
    }
  }
  ASSERT_TRUE(seen.wait_size(kCount));
  std::vector<int> order = seen.items();
  for (int i = 0; i < kCount; ++i) EXPECT_EQ(order[static_cast<std::size_t>(i)], i);
  for (std::size_t k = 0; k < calls.size(); ++k) {
    CallResult r = calls[k].get();
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.result(), static_cast<int>(k) * 25);
  }
}

// ---- concurrency ------------------------------------------------------------------------------

TEST(PairConcurrency, EightThreadsEachWayCallingAndNotifying) {
  constexpr int kThreads = 8;
  constexpr int kRounds = 60;
  struct Seen {
    std::mutex mutex;
    std::map<int, std::vector<int>> by_thread;  // notifications per sending thread, in order
    std::atomic<int> total{0};
  };
  Seen seen_by_a;
  Seen seen_by_b;
  MemoryPair pair;
  auto handler_for = [](Seen& seen) {
    return [&seen](const Incoming& in) -> json {
      if (!in.is_request()) {
        std::lock_guard lock(seen.mutex);
        seen.by_thread[in.params->at("t").get<int>()].push_back(in.params->at("i").get<int>());
        ++seen.total;
        return nullptr;
      }
      return basic_handler(in);
    };
  };
  pair.a->ep().set_handler(handler_for(seen_by_a));
  pair.b->ep().set_handler(handler_for(seen_by_b));
  pair.start();

  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (MemorySide* side : {pair.a.get(), pair.b.get()}) {
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([side, t, &wrong] {
        for (int i = 0; i < kRounds; ++i) {
          const int a = t * 100000 + i;
          CallResult r = side->ep().call("add", json{{"a", a}, {"b", i}}, 20s);
          if (!r.ok() || r.result() != a + i) ++wrong;
          if (!side->ep().notify("note", json{{"t", t}, {"i", i}})) ++wrong;
        }
      });
    }
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  // Every notification was written before its thread ended; a call is answered only after
  // everything that arrived before it was handled, so one call each way flushes them all.
  ASSERT_TRUE(pair.b->ep().call("add", json{{"a", 0}, {"b", 0}}, 20s).ok());
  ASSERT_TRUE(pair.a->ep().call("add", json{{"a", 0}, {"b", 0}}, 20s).ok());
  for (Seen* seen : {&seen_by_a, &seen_by_b}) {
    std::lock_guard lock(seen->mutex);
    EXPECT_EQ(seen->total.load(), kThreads * kRounds);
    ASSERT_EQ(seen->by_thread.size(), static_cast<std::size_t>(kThreads));
    for (auto& [t, list] : seen->by_thread) {
      ASSERT_EQ(list.size(), static_cast<std::size_t>(kRounds)) << "thread " << t;
      for (int i = 0; i < kRounds; ++i) {
        EXPECT_EQ(list[static_cast<std::size_t>(i)], i) << "thread " << t;
      }
    }
  }
  EXPECT_EQ(pair.a->diags.size(), 0u) << pair.a->diags.dump();
  EXPECT_EQ(pair.b->diags.size(), 0u) << pair.b->diags.dump();
}

// ---- back-pressure -----------------------------------------------------------------------------

TEST(PairBackPressure, FullQueueStopsTheReaderAndLosesNothing) {
  constexpr std::size_t kMaxQueued = 2;
  constexpr int kCount = 200;
  Endpoint::Options b_options;
  b_options.max_queued = kMaxQueued;
  Recorder<int> reads;
  std::atomic<int> started{0};
  std::atomic<int> max_ahead{0};
  Gate release;
  Recorder<int> handled;
  Gate sender_done;
  MemoryPair pair({}, std::move(b_options), /*capacity=*/512);  // a small pipe fills fast
  pair.b->ep().on_frame([&](bool outgoing, std::string_view) {
    if (outgoing) return;
    reads.push(0);
    const int ahead = static_cast<int>(reads.size()) - started.load();
    int seen = max_ahead.load();
    while (ahead > seen && !max_ahead.compare_exchange_weak(seen, ahead)) {
    }
  });
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    ++started;
    const int i = in.params->at("i").get<int>();
    if (i == 0) {
      EXPECT_TRUE(release.wait());
    }
    handled.push(i);
    return nullptr;
  });
  pair.start();
  std::thread sender([&] {
    for (int i = 0; i < kCount; ++i) EXPECT_TRUE(pair.a->ep().notify("n", json{{"i", i}}));
    sender_done.open();
  });
  // One message in the handler, kMaxQueued queued, one read and waiting for room: then the
  // reader stops, the pipe fills, and the sender blocks.
  const std::size_t stalled_at = 1 + kMaxQueued + 1;
  ASSERT_TRUE(reads.wait_size(stalled_at));
  // Negative checks (bounded, so they can only miss a bug, never fail a correct endpoint):
  // nothing more is read while the handler runs (the other thread took over reading and
  // stopped at the queue's bound), and the sender is stuck.
  EXPECT_FALSE(reads.wait_size(stalled_at + 1, 200ms)) << "the reader kept reading";
  EXPECT_FALSE(sender_done.is_open()) << "the sender should be blocked by the full pipe";
  EXPECT_EQ(handled.size(), 0u);
  release.open();
  ASSERT_TRUE(sender_done.wait());
  sender.join();
  ASSERT_TRUE(handled.wait_size(kCount));
  std::vector<int> order = handled.items();
  for (int i = 0; i < kCount; ++i) EXPECT_EQ(order[static_cast<std::size_t>(i)], i);
  // read - started never exceeded queue + in hand (+1 for the dequeue/handler-entry window).
  EXPECT_LE(max_ahead.load(), static_cast<int>(kMaxQueued) + 2);
}

TEST(PairBackPressure, HandlerCallingOutWhileTheQueueIsFullDoesNotDeadlock) {
  // b's queue holds one message; a floods b, and b's first handler calls a. a's answer sits
  // in the pipe behind the flood; b's handler thread must keep draining while it waits.
  Endpoint::Options b_options;
  b_options.max_queued = 1;
  Recorder<int> handled;
  Recorder<json> nested;
  MemoryPair pair({}, std::move(b_options), /*capacity=*/256);
  pair.a->ep().set_handler(basic_handler);
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    const int i = in.params->at("i").get<int>();
    if (i == 0) {
      CallResult r = pair.b->ep().call("add", json{{"a", 20}, {"b", 22}}, 20s);
      nested.push(r.ok() ? r.result() : json(r.error().describe()));
    }
    handled.push(i);
    return nullptr;
  });
  pair.start();
  constexpr int kCount = 300;
  std::thread sender([&] {
    for (int i = 0; i < kCount; ++i) EXPECT_TRUE(pair.a->ep().notify("n", json{{"i", i}}));
  });
  ASSERT_TRUE(handled.wait_size(kCount));
  sender.join();
  ASSERT_EQ(nested.size(), 1u);
  EXPECT_EQ(nested.items()[0], 42);
  // Messages that arrived during the nested call were handled (pumped) before it returned,
  // so handled[0..] lists them before 0 finished; each appears exactly once, in order.
  std::vector<int> order = handled.items();
  std::set<int> unique(order.begin(), order.end());
  EXPECT_EQ(unique.size(), static_cast<std::size_t>(kCount));
  std::vector<int> without_first;
  for (int i : order) {
    if (i != 0) without_first.push_back(i);
  }
  for (std::size_t k = 0; k < without_first.size(); ++k) {
    EXPECT_EQ(without_first[k], static_cast<int>(k) + 1);
  }
}

}  // namespace
}  // namespace rpckit::endpoint_test
