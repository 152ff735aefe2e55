// Incoming::defer(): a request answered later, from another thread, while the endpoint goes
// on serving the peer. Exactly one answer per request, whatever the handler does with it.
#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "endpoint_harness.hpp"

namespace rpckit::endpoint_test {
namespace {

// A side that defers "slow" into `parked` and answers "ping" at once.
struct Parking {
  std::mutex mutex;
  std::optional<Reply> parked;
  Gate got_one;

  Endpoint::Handler handler() {
    return [this](const Incoming& in) -> json {
      if (in.method == "slow") {
        Reply reply = in.defer();
        std::lock_guard lock(mutex);
        parked = std::move(reply);
        got_one.open();
        return "ignored";
      }
      return basic_handler(in);
    };
  }
  Reply take() {
    EXPECT_TRUE(got_one.wait());
    std::lock_guard lock(mutex);
    Reply r = std::move(*parked);
    parked.reset();
    return r;
  }
};

TEST(DeferredReply, TheDispatcherServesOthersWhileARequestWaitsForItsAnswer) {
  Parking parking;
  MemoryPair pair;
  pair.b->ep().set_handler(parking.handler());
  pair.start();
  auto slow = std::async(std::launch::async, [&] { return pair.a->ep().call("slow", json{}); });
  Reply reply = parking.take();
  // The health check is answered while "slow" is still open.
  CallResult ping = pair.a->ep().call("echo", json{{"ping", true}});
  ASSERT_TRUE(ping.ok()) << ping.error().describe();
  EXPECT_EQ(slow.wait_for(std::chrono::milliseconds(0)), std::future_status::timeout);
  std::thread answerer([r = std::move(reply)]() mutable { EXPECT_TRUE(r.result(json("late"))); });
  answerer.join();
  CallResult r = slow.get();
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r.result(), "late");  // not the handler's return value
}

TEST(DeferredReply, OnlyTheFirstAnswerGoesOut) {
  Parking parking;
  MemoryPair pair;
  pair.b->ep().set_handler(parking.handler());
  pair.start();
  auto slow = std::async(std::launch::async, [&] { return pair.a->ep().call("slow", json{}); });
  Reply reply = parking.take();
  EXPECT_TRUE(reply.error(RpcError(-32001, "no")));
  EXPECT_FALSE(reply.pending());
  EXPECT_FALSE(reply.result(json(1)));
  CallResult r = slow.get();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().error.code(), -32001);
  // One response only: a second would be an unknown id on a's side.
  ASSERT_TRUE(pair.a->ep().call("echo", json{}).ok());
  EXPECT_EQ(pair.a->diags.count(Kind::kUnknownResponseId), 0u);
}

TEST(DeferredReply, AReplyDroppedUnansweredAnswersInternalError) {
  Parking parking;
  MemoryPair pair;
  pair.b->ep().set_handler(parking.handler());
  pair.start();
  auto slow = std::async(std::launch::async, [&] { return pair.a->ep().call("slow", json{}); });
  { Reply dropped = parking.take(); }
  CallResult r = slow.get();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().error.code(), jsonrpc_code::kInternalError);
  EXPECT_EQ(r.error().error.message(), "Internal error in slow: the request was abandoned");
}

TEST(DeferredReply, AfterCloseAnsweringSendsNothing) {
  Parking parking;
  MemoryPair pair;
  pair.b->ep().set_handler(parking.handler());
  pair.start();
  auto slow = std::async(std::launch::async, [&] { return pair.a->ep().call("slow", json{}); });
  Reply reply = parking.take();
  pair.b->ep().close();
  EXPECT_FALSE(reply.result(json("too late")));
  pair.b.reset();             // closing the endpoint leaves its pipe to a open; drop it
  CallResult r = slow.get();  // a's call ends as disconnected once b's side is gone
  EXPECT_FALSE(r.ok());
}

TEST(DeferredReply, AReplyMayOutliveItsEndpoint) {
  Parking parking;
  std::optional<Reply> kept;
  {
    MemoryPair pair;
    pair.b->ep().set_handler(parking.handler());
    pair.start();
    auto slow = std::async(std::launch::async, [&] { return pair.a->ep().call("slow", json{}); });
    kept = parking.take();
    pair.b.reset();
    slow.get();
  }
  EXPECT_FALSE(kept->result(json("nobody hears this")));
}

TEST(DeferredReply, AThrowAfterDeferringIsReportedAndTheReplyStillAnswers) {
  std::optional<Reply> kept;
  Gate got;
  MemoryPair pair;
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    kept = in.defer();
    EXPECT_FALSE(in.defer().pending());  // once per request
    got.open();
    throw std::runtime_error("after defer");
  });
  pair.start();
  auto slow = std::async(std::launch::async, [&] { return pair.a->ep().call("slow", json{}); });
  ASSERT_TRUE(got.wait());
  ASSERT_TRUE(pair.b->diags.wait_for(Kind::kObserverFailed));
  EXPECT_EQ(slow.wait_for(std::chrono::milliseconds(0)), std::future_status::timeout);
  EXPECT_TRUE(kept->result(json(7)));
  CallResult r = slow.get();
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r.result(), 7);
}

TEST(DeferredReply, ANotificationHasNothingToDefer) {
  Gate got;
  bool pending = true;
  MemoryPair pair;
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    pending = in.defer().pending();
    got.open();
    return nullptr;
  });
  pair.start();
  ASSERT_TRUE(pair.a->ep().notify("note", json{}));
  ASSERT_TRUE(got.wait());
  EXPECT_FALSE(pending);
}

// A typed handler has no Incoming: rpckit::this_request::defer() takes over the reply of the
// request whose handler runs on the thread, once; a notification's handler, and code outside
// any handler, have none to take.
TEST(DeferredReply, ATypedHandlerDefersThroughThisRequest) {
  std::mutex mutex;
  std::optional<Reply> parked;
  bool second_pending = true;
  bool notification_pending = true;
  Gate got_one;
  Gate noted;
  MemoryPair pair;
  pair.b->ep().set_handler([&](const Incoming& in) -> json {
    if (in.method == "note") {
      notification_pending = this_request::defer().pending();
      noted.open();
      return nullptr;
    }
    Reply reply = this_request::defer();
    second_pending = this_request::defer().pending();
    std::lock_guard lock(mutex);
    parked = std::move(reply);
    got_one.open();
    return "ignored";
  });
  pair.start();
  auto slow = std::async(std::launch::async, [&] { return pair.a->ep().call("slow", json{}); });
  ASSERT_TRUE(got_one.wait());
  ASSERT_TRUE(pair.a->ep().notify("note", json{}));
  ASSERT_TRUE(noted.wait());
  EXPECT_FALSE(notification_pending);
  EXPECT_FALSE(second_pending) << "once per request";
  EXPECT_FALSE(this_request::defer().pending()) << "outside any handler";
  {
    std::lock_guard lock(mutex);
    ASSERT_TRUE(parked.has_value());
    EXPECT_EQ(parked->method(), "slow");
    EXPECT_TRUE(parked->result(json("later")));
  }
  CallResult r = slow.get();
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r.result(), "later");
}

}  // namespace
}  // namespace rpckit::endpoint_test
