// A thread in call() reads its own answer while the reading role is parked for it
// (Endpoint::Options::reading_lease): what it may take (responses to call()), what it hands to
// the endpoint threads in order (everything else), and that the call's deadline, close(), the
// end of the stream and call_async() hold as they do when an endpoint thread reads.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "endpoint_harness.hpp"

namespace rpckit::endpoint_test {
namespace {

// The thread that recorded each incoming frame (the frame observer runs on the reader).
struct ReadBy {
  std::thread::id thread;
  std::string body;
};

Endpoint::Options leased(std::chrono::microseconds lease) {
  Endpoint::Options options;
  options.reading_lease = lease;
  return options;
}

// Answers every "echo" request with its params, in arrival order, until stopped; other
// frames are kept for the test to look at.
class Answerer {
 public:
  explicit Answerer(RawPeer& peer) : peer_(peer), thread_([this] { run(); }) {}
  ~Answerer() {
    stop_ = true;
    thread_.join();
  }
  Answerer(const Answerer&) = delete;
  Answerer& operator=(const Answerer&) = delete;

  Recorder<json> others;

 private:
  void run() {
    while (!stop_) {
      std::optional<RawPeer::Frame> frame = peer_.next(std::chrono::milliseconds(20));
      if (!frame) continue;
      json message = frame->parsed();
      if (message.value("method", "") == "echo") {
        peer_.send(result_response(message["id"], message.value("params", json())));
      } else {
        others.push(std::move(message));
      }
    }
  }

  RawPeer& peer_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// RawPeer::next() fails the test when nothing comes in time; an Answerer polls, so it takes
// frames through this quieter wait instead.
std::vector<ReadBy> responses(const Recorder<ReadBy>& read_by) {
  std::vector<ReadBy> out;
  for (ReadBy& r : read_by.items()) {
    if (json::parse(r.body, nullptr, false).contains("result")) out.push_back(std::move(r));
  }
  return out;
}

// One "echo" call, answered with `result` by a thread playing the peer.
CallResult answered_call(RawPeer& peer, const json& params, const json& result) {
  std::thread answer([&] {
    json call = peer.next_json();
    peer.send(result_response(call["id"], result));
  });
  CallResult got = peer->call("echo", params, kWait);
  answer.join();
  return got;
}

void record_readers(RawPeer& peer, Recorder<ReadBy>& read_by) {
  peer->on_frame([&read_by](bool outgoing, std::string_view body) {
    if (!outgoing) read_by.push({std::this_thread::get_id(), std::string(body)});
  });
}

TEST(CallerReading, BackToBackCallsAreReadByTheCallingThread) {
  RawPeer peer(leased(std::chrono::seconds(10)));
  Recorder<ReadBy> read_by;
  record_readers(peer, read_by);
  peer.start();
  std::thread answer([&] {
    for (int i = 0; i < 20; ++i) {
      json call = peer.next_json();
      peer.send(result_response(call["id"], call["params"]));
    }
  });
  for (int i = 0; i < 20; ++i) {
    CallResult echoed = peer->call("echo", json{{"n", i}}, kWait);
    ASSERT_TRUE(echoed.ok()) << echoed.error().describe();
    EXPECT_EQ(echoed.result(), (json{{"n", i}}));
  }
  answer.join();
  const std::vector<ReadBy> read = responses(read_by);
  ASSERT_EQ(read.size(), 20u);
  // The first answer may be read by an endpoint thread that was reading when the call
  // began; that thread then parks the role, and every later answer is read by the caller.
  for (std::size_t i = 1; i < read.size(); ++i) {
    EXPECT_EQ(read[i].thread, std::this_thread::get_id()) << "answer " << i;
  }
}

TEST(CallerReading, OffWithNoLease) {
  RawPeer peer(leased(std::chrono::microseconds(0)));
  Recorder<ReadBy> read_by;
  record_readers(peer, read_by);
  peer.start();
  Answerer answerer(peer);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(peer->call("echo", json{{"n", i}}, kWait).ok());
  const std::vector<ReadBy> read = responses(read_by);
  EXPECT_EQ(read.size(), 5u);
  for (const ReadBy& r : read) EXPECT_NE(r.thread, std::this_thread::get_id());
}

// Without interrupt_reader nothing could cut a caller's read short at close(), which must
// still fail calls at once: so callers do not read.
TEST(CallerReading, OffWithoutAnInterrupt) {
  framing::MemoryPipe in = framing::make_memory_pipe(SIZE_MAX);
  framing::MemoryPipe out = framing::make_memory_pipe(SIZE_MAX);
  Endpoint endpoint(std::make_unique<framing::ContentLengthReader>(*in.source, kMaxBody),
                    std::make_unique<framing::ContentLengthWriter>(*out.sink, kMaxBody),
                    leased(std::chrono::seconds(10)));
  // Closed on the way out, whatever fails: the endpoint thread's read then ends.
  struct EndInput {
    framing::MemoryPipeSink& sink;
    ~EndInput() { sink.close(); }
  } end_input{*in.sink};
  Recorder<std::thread::id> read_on;
  endpoint.on_frame([&](bool outgoing, std::string_view) {
    if (!outgoing) read_on.push(std::this_thread::get_id());
  });
  endpoint.start();
  std::thread answer([&] {  // answers two calls, reads the third
    framing::ContentLengthReader requests(*out.source, kMaxBody);
    for (int i = 0; i < 3; ++i) {
      framing::ReadResult frame = requests.read();
      ASSERT_TRUE(frame.ok()) << frame.reason;
      if (i < 2) {
        const json call = json::parse(frame.body);
        ASSERT_FALSE(in.sink->write_all(cl_frame(result_response(call["id"], i).dump())));
      }
    }
  });
  ASSERT_TRUE(endpoint.call("echo", json(1), kWait).ok());
  ASSERT_TRUE(endpoint.call("echo", json(2), kWait).ok());
  EXPECT_EQ(read_on.size(), 2u);
  for (const std::thread::id id : read_on.items()) EXPECT_NE(id, std::this_thread::get_id());
  std::optional<CallResult> unanswered;
  std::thread waiting([&] { unanswered.emplace(endpoint.call("echo", json(3), kWait)); });
  answer.join();  // the third request is out
  const auto start = std::chrono::steady_clock::now();
  endpoint.close();
  waiting.join();
  EXPECT_LT(since(start), kWait / 2);  // at once; a read to its deadline would take kWait
  ASSERT_TRUE(unanswered.has_value());
  EXPECT_EQ(unanswered->error().kind, CallError::Kind::kDisconnected);
}

TEST(CallerReading, WhatACallerReadsForOthersRunsOnTheEndpointThreadsInOrder) {
  RawPeer peer(leased(std::chrono::seconds(10)));
  Recorder<ReadBy> read_by;
  record_readers(peer, read_by);
  Recorder<std::pair<std::string, std::thread::id>> handled;
  peer->set_handler([&](const Incoming& in) -> json {
    handled.push({in.method, std::this_thread::get_id()});
    return basic_handler(in);
  });
  peer.start();
  const std::thread::id caller = std::this_thread::get_id();
  std::thread answer([&] {
    json first = peer.next_json();
    peer.send(result_response(first["id"], 1));
    // While the second call reads: a notification and a request come before its answer.
    json second = peer.next_json();
    peer.send(notification("note", json{{"seq", 1}}));
    peer.send(request("peer-1", "add", json{{"a", 2}, {"b", 3}}));
    json answered = peer.next_json();
    EXPECT_EQ(answered, result_response("peer-1", 5));
    peer.send(result_response(second["id"], 2));
    json third = peer.next_json();
    peer.send(result_response(third["id"], 3));
  });
  for (int i = 1; i <= 3; ++i) {
    CallResult got = peer->call("echo", json{{"n", i}}, kWait);
    ASSERT_TRUE(got.ok()) << got.error().describe();
    EXPECT_EQ(got.result(), i);
  }
  answer.join();
  // With the role parked for ten seconds, only a caller reads: that the two were handled at
  // all shows the caller handed them over.
  ASSERT_TRUE(handled.wait_size(2));
  const auto runs = handled.items();
  EXPECT_EQ(runs[0].first, "note");
  EXPECT_EQ(runs[1].first, "add");
  for (const auto& [method, thread] : runs) EXPECT_NE(thread, caller) << method;
  // Once the endpoint threads are done with what they were handed, the role is parked again
  // and a call reads its own answer.
  Answerer answerer(peer);
  bool parked_again = false;
  for (int i = 0; i < 50 && !parked_again; ++i) {
    ASSERT_TRUE(peer->call("echo", json(i), kWait).ok());
    parked_again = responses(read_by).back().thread == caller;
  }
  EXPECT_TRUE(parked_again);
}

TEST(CallerReading, ACallsDeadlineHoldsWhileItReadsAHalfFrameAndTheFrameSurvives) {
  RawPeer peer(leased(std::chrono::seconds(10)));
  Recorder<json> notes;
  peer->set_handler([&](const Incoming& in) -> json {
    if (in.method == "late") notes.push(*in.params);
    return basic_handler(in);
  });
  peer.start();
  ASSERT_TRUE(answered_call(peer, json(1), 1).ok());
  // The caller now reads; the peer sends part of a notification and stalls.
  const std::string frame = cl_frame(notification("late", json{{"text", "whole"}}).dump());
  const std::size_t half = frame.size() / 2;
  peer.write_raw(frame.substr(0, half));
  const auto start = std::chrono::steady_clock::now();
  CallResult stalled = peer->call("echo", json(2), std::chrono::milliseconds(200));
  ASSERT_FALSE(stalled.ok());
  EXPECT_EQ(stalled.error().kind, CallError::Kind::kTimeout) << stalled.error().describe();
  EXPECT_GE(since(start), std::chrono::milliseconds(200));
  EXPECT_LT(since(start), kWait);
  EXPECT_EQ(peer.next_json()["method"], "echo");  // the stalled call's request went out
  // The rest arrives: the frame is read whole, by whoever reads next.
  peer.write_raw(frame.substr(half));
  CallResult after = answered_call(peer, json(3), 3);
  ASSERT_TRUE(after.ok()) << after.error().describe();
  ASSERT_TRUE(notes.wait_size(1));
  EXPECT_EQ(notes.items()[0], (json{{"text", "whole"}}));
  EXPECT_TRUE(peer.closes.items().empty());
}

TEST(CallerReading, ACallAsyncCompletionRunsOnAnEndpointThreadWhileAnotherThreadReads) {
  RawPeer peer(leased(std::chrono::seconds(10)));
  peer.start();
  Answerer answerer(peer);
  ASSERT_TRUE(peer->call("echo", json(0), kWait).ok());  // the role is parked from here
  std::thread::id caller;
  std::thread sync_caller([&] {
    caller = std::this_thread::get_id();
    for (int i = 0; i < 50; ++i) ASSERT_TRUE(peer->call("echo", json(i), kWait).ok());
  });
  Recorder<std::thread::id> completed_on;
  for (int i = 0; i < 50; ++i) {
    peer->call_async("echo", json(i), [&](CallResult r) {
      EXPECT_TRUE(r.ok());
      completed_on.push(std::this_thread::get_id());
    });
  }
  sync_caller.join();
  ASSERT_TRUE(completed_on.wait_size(50));
  for (const std::thread::id id : completed_on.items()) {
    EXPECT_NE(id, caller);
    EXPECT_NE(id, std::this_thread::get_id());
  }
}

TEST(CallerReading, TheEndOfTheStreamIsSeenWhileTheRoleIsParked) {
  RawPeer peer(leased(std::chrono::milliseconds(50)));
  peer.start();
  ASSERT_TRUE(answered_call(peer, json(1), 1).ok());
  peer.close_input();
  ASSERT_TRUE(peer.closes.wait_size(1));
  EXPECT_EQ(peer.closes.items()[0].kind, CloseReason::Kind::kEof);
  EXPECT_EQ(peer->call("echo", json(2), kWait).error().kind, CallError::Kind::kDisconnected);
}

TEST(CallerReading, CloseWhileACallerReadsEndsTheCallAndTheConnectionOnce) {
  RawPeer peer(leased(std::chrono::seconds(10)));
  peer.start();
  std::thread answer([&] {
    json first = peer.next_json();
    peer.send(result_response(first["id"], 1));
    peer.next_json();  // the second call: never answered
  });
  ASSERT_TRUE(peer->call("echo", json(1), kWait).ok());
  std::optional<CallResult> unanswered;
  std::thread waiting([&] { unanswered.emplace(peer->call("echo", json(2), kWait)); });
  answer.join();  // the second request is out: its caller reads, or is about to
  peer->close();
  waiting.join();
  ASSERT_TRUE(unanswered.has_value());
  EXPECT_EQ(unanswered->error().kind, CallError::Kind::kDisconnected)
      << unanswered->error().describe();
  ASSERT_TRUE(peer.closes.wait_size(1));
  EXPECT_EQ(peer->wait().kind, CloseReason::Kind::kLocal);
  EXPECT_EQ(peer.closes.size(), 1u);
}

TEST(CallerReading, ACallMadeWhileAHandlerRunsInPlaceIsAnsweredWithoutWaitingForIt) {
  Endpoint::Options options = leased(std::chrono::milliseconds(50));
  options.reading_takeover = std::chrono::seconds(60);  // no take-over to come to the rescue
  RawPeer peer(options);
  Gate running;
  Gate release;
  peer->set_handler([&](const Incoming& in) -> json {
    if (in.method == "slow") {
      running.open();
      release.wait();
    }
    return basic_handler(in);
  });
  peer.start();
  Answerer answerer(peer);
  ASSERT_TRUE(peer->call("echo", json(0), kWait).ok());
  // Read at the lease's end by an endpoint thread, which runs it in place (no call waits).
  peer.send(notification("slow"));
  ASSERT_TRUE(running.wait());
  // The handler holds the thread that was reading; this call's answer must not wait for it.
  CallResult during = peer->call("echo", json(1), std::chrono::seconds(5));
  EXPECT_TRUE(during.ok()) << during.error().describe();
  release.open();
}

TEST(CallerReading, ManyThreadsCallingAtOnceAreEachAnswered) {
  RawPeer peer;  // the default lease
  peer.start();
  Answerer answerer(peer);
  std::vector<std::thread> callers;
  std::atomic<int> answered{0};
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i) {
        const json params = {{"thread", t}, {"i", i}};
        CallResult got = peer->call("echo", params, kWait);
        ASSERT_TRUE(got.ok()) << got.error().describe();
        EXPECT_EQ(got.result(), params);
        ++answered;
      }
    });
  }
  for (std::thread& caller : callers) caller.join();
  EXPECT_EQ(answered.load(), 400);
  EXPECT_EQ(peer.diags.size(), 0u) << peer.diags.dump();
}

}  // namespace
}  // namespace rpckit::endpoint_test
