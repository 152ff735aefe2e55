// Handlers that call the peer and wait: nesting, arrival order while the thread running
// handlers pumps, deadlines while it pumps.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "endpoint_harness.hpp"

namespace rpckit::endpoint_test {
namespace {

// a.outer -> b.mid -> a.inner -> b.leaf: three calls nested inside the test's call, each
// made by a handler waiting on its own side's thread that runs handlers: the nested request
// runs on that same thread (either endpoint thread may be the one, round by round).
TEST(Reentrancy, NestedThreeDeepAcrossBothEndpoints) {
  std::mutex mutex;
  std::vector<std::string> trace;
  std::thread::id a_dispatcher;
  std::thread::id b_dispatcher;
  std::atomic<int> depth{0};
  std::atomic<int> max_depth{0};
  auto enter = [&](const std::string& name, std::thread::id& dispatcher) {
    std::lock_guard lock(mutex);
    trace.push_back("enter " + name);
    if (dispatcher == std::thread::id()) dispatcher = std::this_thread::get_id();
    EXPECT_EQ(dispatcher, std::this_thread::get_id())
        << name << " ran off the thread waiting in its side's handler";
    max_depth = std::max(max_depth.load(), ++depth);
  };
  auto leave = [&](const std::string& name) {
    std::lock_guard lock(mutex);
    trace.push_back("leave " + name);
    --depth;
  };
  MemoryPair pair;
  auto nested = [](Endpoint& endpoint, const char* method, const json& params) -> json {
    CallResult r = endpoint.call(method, params, 20s);
    if (!r.ok()) throw std::runtime_error(method + std::string(": ") + r.error().describe());
    return r.result();
  };
  pair.a->ep().set_handler([&](const Incoming& in) -> json {
    enter(in.method, a_dispatcher);
    json out;
    if (in.method == "a.outer") {
      out = "outer(" + nested(pair.a->ep(), "b.mid", *in.params).get<std::string>() + ")";
    } else if (in.method == "a.inner") {
      out = "inner(" + nested(pair.a->ep(), "b.leaf", *in.params).get<std::string>() + ")";
    }
    leave(in.method);
    return out;
  });
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    enter(in.method, b_dispatcher);
    json out;
    if (in.method == "b.mid") {
      out = "mid(" + nested(pair.b->ep(), "a.inner", *in.params).get<std::string>() + ")";
    } else if (in.method == "b.leaf") {
      out = "leaf" + in.params->at("tag").get<std::string>();
    }
    leave(in.method);
    return out;
  });
  pair.start();
  for (int round = 0; round < 3; ++round) {
    {
      std::lock_guard lock(mutex);
      a_dispatcher = b_dispatcher = std::thread::id();
    }
    const std::string tag = std::to_string(round);
    CallResult r = pair.b->ep().call("a.outer", json{{"tag", tag}}, 20s);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r.result(), "outer(mid(inner(leaf" + tag + ")))");
  }
  EXPECT_EQ(max_depth.load(), 4);  // a.outer, b.mid, a.inner, b.leaf all in progress at once
  std::lock_guard lock(mutex);
  const std::vector<std::string> one_round = {"enter a.outer", "enter b.mid",   "enter a.inner",
                                              "enter b.leaf",  "leave b.leaf",  "leave a.inner",
                                              "leave b.mid",   "leave a.outer"};
  ASSERT_EQ(trace.size(), 3 * one_round.size());
  for (std::size_t i = 0; i < trace.size(); ++i) {
    EXPECT_EQ(trace[i], one_round[i % one_round.size()]) << i;
  }
}

// Both sides' handlers call each other at the same moment: each dispatcher, waiting for its
// own answer, serves the other's request.
TEST(Reentrancy, CrossingCallsFromBothDispatchers) {
  Recorder<std::string> started;  // both "start" handlers run before either calls out
  MemoryPair pair;
  auto handler = [&started](MemorySide& self, const char* name) {
    return [&self, &started, name](const Incoming& in) -> json {
      if (in.method == "start") {
        started.push(name);
        EXPECT_TRUE(started.wait_size(2));
        CallResult r = self.ep().call("reply", json{{"from", name}}, 20s);
        return r.ok() ? r.result() : json(r.error().describe());
      }
      return std::string(name) + " answers " + in.params->at("from").get<std::string>();
    };
  };
  pair.a->ep().set_handler(handler(*pair.a, "a"));
  pair.b->ep().set_handler(handler(*pair.b, "b"));
  pair.start();
  auto from_a = std::async(std::launch::async, [&] { return pair.a->ep().call("start", std::nullopt, 20s); });
  auto from_b = std::async(std::launch::async, [&] { return pair.b->ep().call("start", std::nullopt, 20s); });
  CallResult ra = from_a.get();
  CallResult rb = from_b.get();
  ASSERT_TRUE(ra.ok());
  ASSERT_TRUE(rb.ok());
  EXPECT_EQ(ra.result(), "a answers b");  // b's handler asked a
  EXPECT_EQ(rb.result(), "b answers a");
}

// While a's handler waits inside call(), everything the peer sends meanwhile is handled in
// arrival order (requests answered), and what arrives after the response waits until the
// handler has finished.
TEST(Reentrancy, ArrivalOrderHoldsWhileTheDispatcherPumps) {
  Recorder<std::string> handled;
  RawPeer peer;
  peer.ep().set_handler([&](const Incoming& in) -> json {
    if (in.method == "outer") {
      handled.push("outer:start");
      CallResult r = peer->call("question", std::nullopt, 20s);
      handled.push("outer:end");
      return r.ok() ? r.result() : json(r.error().describe());
    }
    if (in.method == "rpckit.test.sync") return nullptr;
    handled.push(in.method + std::to_string(in.params->at("i").get<int>()));
    return in.params->at("i");
  });
  peer.start();
  peer.send(request("o", "outer"));
  json question = peer.next_json();
  ASSERT_EQ(question["method"], "question");

  constexpr int kDuring = 60;
  std::string batch;  // one write: the reader sees them back to back
  for (int i = 0; i < kDuring; ++i) {
    batch += cl_frame(i % 3 == 0 ? request(i, "r", json{{"i", i}}).dump()
                                 : notification("n", json{{"i", i}}).dump());
  }
  peer.write_raw(batch);
  ASSERT_TRUE(handled.wait_size(1 + kDuring));
  // Requests handled during the pump are answered during the pump, in order.
  for (int i = 0; i < kDuring; i += 3) EXPECT_EQ(peer.next_json(), result_response(i, i));
  EXPECT_EQ(peer.untaken(), 0u);

  peer.send(result_response(question["id"], "answer"));
  for (int i = kDuring; i < 2 * kDuring; ++i) peer.send(notification("n", json{{"i", i}}));
  EXPECT_EQ(peer.next_json(), result_response("o", "answer"));
  ASSERT_TRUE(peer.sync());

  std::vector<std::string> expected = {"outer:start"};
  for (int i = 0; i < kDuring; ++i) expected.push_back((i % 3 == 0 ? "r" : "n") + std::to_string(i));
  expected.push_back("outer:end");
  for (int i = kDuring; i < 2 * kDuring; ++i) expected.push_back("n" + std::to_string(i));
  EXPECT_EQ(handled.items(), expected);
}

// A dispatcher pumping inside call() must still honour the call's deadline when the peer
// keeps sending: the queue is never empty here, so only a deadline check made between
// messages can end the call in time.
TEST(Reentrancy, DeadlineHoldsWhileThePeerKeepsTheDispatcherBusy) {
  Recorder<int> frames_in;   // one entry per frame the endpoint read
  Recorder<int> ticks;       // ticks whose handler has started
  Recorder<std::string> outcome;
  std::atomic<bool> done{false};
  RawPeer peer;
  peer.ep().on_frame([&](bool outgoing, std::string_view) {
    if (!outgoing) frames_in.push(0);
  });
  constexpr auto kDeadline = 300ms;
  peer.ep().set_handler([&](const Incoming& in) -> json {
    if (in.method == "outer") {
      const auto start = std::chrono::steady_clock::now();
      CallResult r = peer->call("never", std::nullopt, kDeadline);
      outcome.push(r.ok() ? "ok" : r.error().describe());
      outcome.push(std::to_string(since(start).count()));
      done = true;
      return nullptr;
    }
    if (in.method == "tick") {
      const int k = in.params->at("k").get<int>();
      ticks.push(k);
      // Tick k is frame k + 2; hold the dispatcher until tick k + 2 has been read, i.e.
      // until tick k + 1 is surely queued. Bounded: the flood stops after a few seconds.
      frames_in.wait_size(static_cast<std::size_t>(k) + 4, 500ms);
    }
    return nullptr;
  });
  peer.start();
  peer.send(request("o", "outer"));
  ASSERT_EQ(peer.next_json()["method"], "never");
  const auto start = std::chrono::steady_clock::now();
  peer.send(notification("tick", json{{"k", 0}}));
  peer.send(notification("tick", json{{"k", 1}}));
  for (int k = 0; !done.load() && since(start) < 4s; ++k) {
    if (!ticks.wait_size(static_cast<std::size_t>(k) + 1, 1s)) break;
    peer.send(notification("tick", json{{"k", k + 2}}));
  }
  ASSERT_TRUE(outcome.wait_size(2));
  std::vector<std::string> got = outcome.items();
  EXPECT_EQ(got[0].rfind("timeout", 0), 0u) << got[0];
  EXPECT_LT(std::stoi(got[1]), 2000) << "the deadline was " << kDeadline.count()
                                     << " ms; the call ran on while messages kept coming";
  EXPECT_EQ(peer.next_json(), result_response("o", nullptr));
}

// The very first message a fresh endpoint handles makes a nested call: the dispatcher must
// know it is the dispatcher (and pump) from its first instruction on.
TEST(Reentrancy, FirstMessageAlreadyQueuedBeforeStartCanCallOut) {
  RawPeer peer;
  peer.ep().set_handler([&](const Incoming& in) -> json {
    if (in.method == "outer") {
      CallResult r = peer->call("question", std::nullopt, 20s);
      return r.ok() ? r.result() : json(r.error().describe());
    }
    return "pumped " + in.method;
  });
  peer.send(request(1, "outer"));  // already in the pipe when the threads start
  peer.start();
  json question = peer.next_json();
  ASSERT_EQ(question["method"], "question");
  // Answered only if the dispatcher pumps while it waits.
  peer.send(request(2, "side"));
  EXPECT_EQ(peer.next_json(), result_response(2, "pumped side"));
  peer.send(result_response(question["id"], 42));
  EXPECT_EQ(peer.next_json(), result_response(1, 42));
}

// A notification handler may call out too; it still never gets a response itself.
TEST(Reentrancy, NotificationHandlerCallingOut) {
  Recorder<json> results;
  RawPeer peer;
  peer.ep().set_handler([&](const Incoming& in) -> json {
    if (in.method == "note") {
      CallResult r = peer->call("question", std::nullopt, 20s);
      results.push(r.ok() ? r.result() : json(r.error().describe()));
    }
    return nullptr;
  });
  peer.start();
  peer.send(notification("note"));
  json question = peer.next_json();
  peer.send(result_response(question["id"], "yes"));
  ASSERT_TRUE(results.wait_size(1));
  EXPECT_EQ(results.items()[0], "yes");
  EXPECT_TRUE(peer.sync());
}

}  // namespace
}  // namespace rpckit::endpoint_test
