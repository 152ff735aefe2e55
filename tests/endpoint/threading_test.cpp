// Which thread does what: a request that arrives while nothing runs is run by the thread that
// read it (no hand-off on a round trip); reading goes on beside a handler when it has to (calls
// outstanding or made meanwhile, a handler that runs long), so nothing waits on the handler
// that does not have to.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "endpoint_harness.hpp"

namespace rpckit::endpoint_test {
namespace {

// The thread that read each incoming frame (the frame observer runs on it) and the thread that
// ran each handler, by request id.
struct ThreadLog {
  std::mutex mutex;
  std::map<std::int64_t, std::thread::id> read_by;
  std::map<std::int64_t, std::thread::id> run_by;
};

TEST(Threading, ARequestRunsOnTheThreadThatReadItWhenNothingElseRuns) {
  ThreadLog log;
  Endpoint::Options b_options;
  // No take-over: however slowly a loaded machine runs a handler, b's reading stays with it.
  b_options.reading_takeover = std::chrono::hours(1);
  MemoryPair pair({}, std::move(b_options));
  pair.b->ep().on_frame([&](bool outgoing, std::string_view body) {
    if (outgoing) return;
    const json frame = json::parse(body);
    std::lock_guard lock(log.mutex);
    log.read_by[frame.at("params").at("i").get<std::int64_t>()] = std::this_thread::get_id();
  });
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    std::lock_guard lock(log.mutex);
    log.run_by[in.params->at("i").get<std::int64_t>()] = std::this_thread::get_id();
    return nullptr;
  });
  pair.start();
  constexpr std::int64_t kCalls = 50;
  for (std::int64_t i = 0; i < kCalls; ++i) {
    CallResult r = pair.a->ep().call("m", json{{"i", i}}, kWait);
    ASSERT_TRUE(r.ok()) << r.error().describe();
  }
  std::lock_guard lock(log.mutex);
  ASSERT_EQ(log.run_by.size(), static_cast<std::size_t>(kCalls));
  for (std::int64_t i = 0; i < kCalls; ++i) {
    EXPECT_EQ(log.read_by.at(i), log.run_by.at(i)) << "request " << i << " was handed off";
    EXPECT_NE(log.run_by.at(i), std::this_thread::get_id());
  }
}

// b's handler waits for the answer to a call b made before it started (call_async) and for one
// another thread makes while it runs (call): both answers must be read beside the handler.
TEST(Threading, ResponsesAreReadWhileAHandlerWaitsForThem) {
  Gate release_slow;
  Gate async_done;
  Gate handler_done;
  std::atomic<bool> sync_ok{false};
  MemoryPair pair;  // after what its handlers use: destroyed (threads joined) first
  pair.a->ep().set_handler([&](const Incoming& in) -> json {
    if (in.method == "slow") {
      EXPECT_TRUE(release_slow.wait());
    }
    return in.method;
  });
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    EXPECT_EQ(in.method, "block");
    release_slow.open();
    EXPECT_TRUE(async_done.wait()) << "the response to b's earlier call was not read";
    std::thread other([&] {
      CallResult r = pair.b->ep().call("quick", std::nullopt, kWait);
      sync_ok = r.ok() && r.result() == "quick";
    });
    other.join();
    handler_done.open();
    return nullptr;
  });
  pair.start();
  pair.b->ep().call_async("slow", std::nullopt, [&](CallResult r) {
    EXPECT_TRUE(r.ok()) << r.error().describe();
    async_done.open();
  });
  ASSERT_TRUE(pair.a->ep().notify("block", std::nullopt));
  ASSERT_TRUE(handler_done.wait());
  EXPECT_TRUE(sync_ok.load()) << "the response to another thread's call was not read";
}

// A handler that runs long and calls nobody: the other thread takes over reading, so the end of
// the stream is seen (and reported) while the handler still runs.
TEST(Threading, TheEndOfTheStreamIsSeenWhileAHandlerRunsLong) {
  std::atomic<bool> closed_before_return{false};
  Gate handler_done;
  MemoryPair pair;
  pair.b->ep().set_handler([&](const Incoming&) -> json {
    pair.a->close_output();
    closed_before_return = pair.b->closes.wait_size(1);
    handler_done.open();
    return nullptr;
  });
  pair.start();
  ASSERT_TRUE(pair.a->ep().notify("n", std::nullopt));
  ASSERT_TRUE(handler_done.wait());
  EXPECT_TRUE(closed_before_return.load());
  ASSERT_EQ(pair.b->closes.size(), 1u);
  EXPECT_EQ(pair.b->closes.items()[0].kind, CloseReason::Kind::kEof);
}

// The end of the stream does not end what was read before it: the notifications queued behind
// a slow handler are all handled, and wait_handled() says when (what a host waits for before
// it retires the connection of a plugin that has exited).
TEST(Threading, WhatWasReadBeforeTheEndOfTheStreamIsAllHandled) {
  Gate release;
  std::atomic<int> handled{0};  // declared first: outlives the endpoint's threads
  RawPeer peer;
  peer.ep().set_handler([&](const Incoming&) -> json {
    if (handled.fetch_add(1) == 0) {
      EXPECT_TRUE(release.wait());  // the rest wait in the queue
    }
    return nullptr;
  });
  peer.start();
  constexpr int kCount = 200;
  for (int i = 0; i < kCount; ++i) peer.send(notification("n", json{{"i", i}}));
  peer.close_input();
  ASSERT_TRUE(peer->wait_done_reading(kWait));
  EXPECT_FALSE(peer->wait_handled(kWait, std::chrono::milliseconds(0))) << "the first still runs";
  release.open();
  ASSERT_TRUE(peer->wait_handled(kWait, kWait));
  EXPECT_EQ(handled.load(), kCount);
}

// wait_handled() waits as long as handlers keep finishing, past `stall` in all, and gives up
// once one of them has run for `stall`: a flood of slow-ish handlers is served whole, and a
// handler blocked on the application holds nobody up for longer than that.
TEST(Threading, WaitingForHandlersLastsAsLongAsTheyMakeProgress) {
  constexpr auto kEach = std::chrono::milliseconds(40);
  constexpr auto kStall = std::chrono::milliseconds(800);  // 20 handlers' time: 30 are queued
  constexpr int kCount = 31;
  Gate all_read;
  Gate held;  // "block" waits on it until the test is over
  std::atomic<int> handled{0};
  RawPeer peer;
  peer.ep().set_handler([&](const Incoming& in) -> json {
    if (in.method == "block") {
      EXPECT_TRUE(held.wait());
    } else if (handled.fetch_add(1) == 0) {
      EXPECT_TRUE(all_read.wait());  // the rest wait in the queue
    } else {
      std::this_thread::sleep_for(kEach);
    }
    return nullptr;
  });
  peer.start();
  for (int i = 0; i < kCount; ++i) peer.send(notification("n", json{{"i", i}}));
  peer.send(notification("block", std::nullopt));
  peer.close_input();
  ASSERT_TRUE(peer->wait_done_reading(kWait));
  all_read.open();
  // The bound is far off: only the stall ends this wait, once "block" has run that long,
  // after every "n" (more than a stall's worth of them) was handled.
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(peer->wait_handled(kStall, std::chrono::minutes(10)));
  EXPECT_LT(since(start), kWait);
  EXPECT_EQ(handled.load(), kCount);
  held.open();
}

// Handlers still run one at a time, whichever thread reads: a burst of notifications while
// calls go the other way starts them in arrival order, and a handler only ever starts beside
// another on the thread where that one waits in call() (a nested message, as documented).
TEST(Threading, HandlersNeverOverlapWhicheverThreadReads) {
  std::mutex mutex;
  std::vector<std::thread::id> running;  // threads of the handlers in progress, outermost first
  bool overlapped = false;
  Recorder<int> started;
  Recorder<int> finished;
  MemoryPair pair;
  pair.a->ep().set_handler(basic_handler);
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    const int i = in.params->at("i").get<int>();
    {
      std::lock_guard lock(mutex);
      for (std::thread::id other : running) overlapped |= other != std::this_thread::get_id();
      running.push_back(std::this_thread::get_id());
    }
    started.push(i);
    if (i % 7 == 0) {  // some handlers call out, so reading passes between b's threads
      CallResult r = pair.b->ep().call("add", json{{"a", i}, {"b", 1}}, kWait);
      EXPECT_TRUE(r.ok() && r.result() == i + 1);
    }
    {
      std::lock_guard lock(mutex);
      running.pop_back();
    }
    finished.push(i);
    return nullptr;
  });
  pair.start();
  constexpr int kCount = 400;
  std::thread caller([&] {
    for (int i = 0; i < 50; ++i) {
      EXPECT_TRUE(pair.b->ep().call("add", json{{"a", i}, {"b", 2}}, kWait).ok());
    }
  });
  for (int i = 0; i < kCount; ++i) ASSERT_TRUE(pair.a->ep().notify("n", json{{"i", i}}));
  caller.join();
  ASSERT_TRUE(finished.wait_size(kCount));  // the last nested calls answered before teardown
  std::lock_guard lock(mutex);
  EXPECT_FALSE(overlapped) << "two handlers ran at once on different threads";
  std::vector<int> order = started.items();
  for (int i = 0; i < kCount; ++i) EXPECT_EQ(order[static_cast<std::size_t>(i)], i);
}

}  // namespace
}  // namespace rpckit::endpoint_test
