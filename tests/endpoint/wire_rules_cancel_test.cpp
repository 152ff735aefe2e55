// WireRules::cancel: a peer cancels a request it sent with a notification naming its id (MCP's
// notifications/cancelled). The endpoint reads the notification on its reading thread, so it
// reaches a handler that is busy; the handler sees it (this_request, Incoming::cancellation),
// a request still queued is not run, and a cancelled request gets no answer, deferred or not.
// With on_timeout, a call this side gives up on is cancelled the same way; a call_async()
// given up through its AsyncCall handle is cancelled whatever on_timeout says.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "endpoint_harness.hpp"
#include "rpckit/endpoint/cancellation.hpp"

namespace rpckit::endpoint_test {
namespace {

using namespace std::chrono_literals;

WireRules cancel_rules() {
  WireRules rules;
  rules.cancel.method = "cancelled";
  rules.cancel.id_member = "requestId";
  rules.cancel.reason_member = "reason";
  rules.cancel.uncancellable = "init";
  return rules;
}

json cancel(const json& id, const std::string& reason = "") {
  json params = {{"requestId", id}};
  if (!reason.empty()) params["reason"] = reason;
  return notification("cancelled", params);
}

// An endpoint under a RawPeer whose handler says what it went through in `events`:
// "long" waits (at most `long_wait`) to be cancelled; "init" is the same under the name the
// rules never cancel; "later" defers its answer into `deferred`; "count" is counted.
struct CancelPeer {
  Recorder<std::string> events;
  std::shared_ptr<Reply> deferred = std::make_shared<Reply>();
  std::unique_ptr<RawPeer> peer;

  explicit CancelPeer(WireRules rules, std::chrono::milliseconds long_wait = kWait) {
    Endpoint::Options options;
    options.rules = std::move(rules);
    peer = std::make_unique<RawPeer>(std::move(options));
    peer->ep().set_handler([this, long_wait](const Incoming& in) -> json {
      const std::string id = in.id ? in.id->get().dump() : "-";
      if (in.method == "long" || in.method == "init") {
        events.push("started " + id);
        if (this_request::wait_cancelled_for(long_wait)) {
          events.push("cancelled " + id + ": " + this_request::cancellation()->reason());
          EXPECT_TRUE(in.cancelled());
          return "stopped early";
        }
        events.push("finished " + id);
        return "finished";
      }
      if (in.method == "later") {
        *deferred = in.defer();
        events.push("deferred " + id);
        return nullptr;
      }
      if (in.method == "count") events.push("count " + id);
      if (in.method == "cancelled") {
        EXPECT_FALSE(this_request::cancelled());  // a notification has no request to cancel
        events.push("cancel notification");
      }
      return nullptr;
    });
    peer->start();
  }
  RawPeer* operator->() { return peer.get(); }
  bool saw(const std::string& event) {
    return events.wait_until([&](const std::vector<std::string>& all) {
      return std::find(all.begin(), all.end(), event) != all.end();
    });
  }
};

TEST(WireRulesCancel, ARunningHandlerSeesTheCancelAndItsAnswerIsNotSent) {
  CancelPeer p(cancel_rules());
  p->send(request(1, "long"));
  ASSERT_TRUE(p.saw("started 1"));
  p->send(cancel(1, "user pressed stop"));
  EXPECT_TRUE(p.saw("cancelled 1: user pressed stop"));
  // The notification still reaches the application, after the handler it cancelled.
  EXPECT_TRUE(p.saw("cancel notification"));
  // Nothing was written for request 1: the very next frame answers the sync.
  EXPECT_TRUE(p->sync());
  EXPECT_EQ(p->diags.size(), 0u) << p->diags.dump();
}

TEST(WireRulesCancel, AQueuedRequestCancelledIsNeverRun) {
  CancelPeer p(cancel_rules());
  p->send(request(1, "long"));
  ASSERT_TRUE(p.saw("started 1"));
  p->send(request(2, "count"));  // queued behind the running handler
  p->send(cancel(2));
  p->send(request(3, "count"));
  p->send(cancel(1));
  EXPECT_TRUE(p.saw("cancelled 1: "));
  EXPECT_EQ(p->next_json(), json::parse(R"({"id":3,"jsonrpc":"2.0","result":null})"));
  EXPECT_TRUE(p->sync());
  auto events = p.events.items();
  EXPECT_EQ(std::count(events.begin(), events.end(), "count 2"), 0);
  EXPECT_EQ(std::count(events.begin(), events.end(), "count 3"), 1);
}

TEST(WireRulesCancel, IdsAreMatchedByKindAndValue) {
  CancelPeer p(cancel_rules());
  p->send(request(7, "long"));
  ASSERT_TRUE(p.saw("started 7"));
  p->send(cancel("7", "a string id names another request"));
  p->send(cancel(7, "this one"));
  // The first reason would have stayed, had the string id cancelled request 7.
  EXPECT_TRUE(p.saw("cancelled 7: this one"));
  EXPECT_TRUE(p->sync());
}

TEST(WireRulesCancel, ADeferredAnswerToACancelledRequestIsNotSent) {
  CancelPeer p(cancel_rules());
  p->send(request("d", "later"));
  ASSERT_TRUE(p.saw("deferred \"d\""));
  ASSERT_TRUE(p.deferred->cancellation());
  p->send(cancel("d"));
  EXPECT_TRUE(p.saw("cancel notification"));
  EXPECT_TRUE(p.deferred->cancellation()->requested());
  EXPECT_FALSE(p.deferred->result(json("too late")));
  EXPECT_TRUE(p->sync());
}

TEST(WireRulesCancel, CancelsOfNothingOrMalformedAreIgnored) {
  CancelPeer p(cancel_rules());
  p->send(cancel(99));  // never sent
  p->send(notification("cancelled", json{{"requestId", json::object()}}));
  p->send(notification("cancelled", json::object()));
  p->send(notification("cancelled"));
  p->send(notification("cancelled", json{{"requestId", 1}, {"reason", 5}}));
  p->send(request(1, "count"));  // later: a cancel read before a request does not cancel it
  EXPECT_EQ(p->next_json(), json::parse(R"({"id":1,"jsonrpc":"2.0","result":null})"));
  EXPECT_TRUE(p->sync());
  EXPECT_EQ(p->diags.size(), 0u) << p->diags.dump();
}

TEST(WireRulesCancel, TheUncancellableRequestIsAnswered) {
  CancelPeer p(cancel_rules(), 300ms);
  p->send(request(1, "init"));
  ASSERT_TRUE(p.saw("started 1"));
  p->send(cancel(1));
  EXPECT_EQ(p->next_json(), json::parse(R"({"id":1,"jsonrpc":"2.0","result":"finished"})"));
}

TEST(WireRulesCancel, WithoutTheRuleTheNotificationIsOnlyANotification) {
  CancelPeer p(WireRules{}, 300ms);
  p->send(request(1, "long"));
  ASSERT_TRUE(p.saw("started 1"));
  p->send(cancel(1));
  EXPECT_EQ(p->next_json(), json::parse(R"({"id":1,"jsonrpc":"2.0","result":"finished"})"));
  EXPECT_TRUE(p.saw("cancel notification"));
}

TEST(WireRulesCancel, ACallGivenUpAtItsDeadlineIsCancelledWhenTheProfileSays) {
  WireRules rules = cancel_rules();
  rules.cancel.on_timeout = true;
  CancelPeer p(rules);
  CallResult timed_out = p->ep().call("slow", json{{"n", 1}}, 50ms);
  ASSERT_FALSE(timed_out.ok());
  EXPECT_EQ(timed_out.error().kind, CallError::Kind::kTimeout);
  EXPECT_EQ(p->next_body(), R"({"id":1,"jsonrpc":"2.0","method":"slow","params":{"n":1}})");
  EXPECT_EQ(p->next_body(), R"({"jsonrpc":"2.0","method":"cancelled","params":{"requestId":1,)"
                            R"("reason":"no answer to slow within 50 ms"}})");
  // call_async() too, at its deadline.
  Recorder<bool> done;
  p->ep().call_async(
      "slower", std::nullopt, [&done](CallResult r) { done.push(r.ok()); }, 50ms);
  EXPECT_EQ(p->next_body(), R"({"id":2,"jsonrpc":"2.0","method":"slower"})");
  ASSERT_TRUE(done.wait_size(1));
  EXPECT_EQ(p->next_body(), R"({"jsonrpc":"2.0","method":"cancelled","params":{"requestId":2,)"
                            R"("reason":"no answer to slower within 50 ms"}})");
  // The uncancellable request is given up on without a cancel.
  EXPECT_FALSE(p->ep().call("init", std::nullopt, 50ms).ok());
  EXPECT_EQ(p->next_body(), R"({"id":3,"jsonrpc":"2.0","method":"init"})");
  EXPECT_TRUE(p->sync());
}

TEST(WireRulesCancel, ACallGivenUpIsNotCancelledUnlessTheProfileSays) {
  CancelPeer p(cancel_rules());  // on_timeout false
  EXPECT_FALSE(p->ep().call("slow", std::nullopt, 50ms).ok());
  EXPECT_EQ(p->next_body(), R"({"id":1,"jsonrpc":"2.0","method":"slow"})");
  EXPECT_TRUE(p->sync());
}

// AsyncCall::cancel(): the peer is told (with the caller's reason), the completion runs at
// once with kCancelled, and the answer the peer sends anyway is dropped.
TEST(WireRulesCancel, ACallGivenUpByItsHandleIsCancelledAtOnce) {
  CancelPeer p(cancel_rules());  // on_timeout false: a handle cancels regardless
  Recorder<std::string> done;
  AsyncCall call = p->ep().call_async("slow", json{{"n", 1}}, [&done](CallResult r) {
    done.push(r.ok() ? "ok"
                     : std::string(kind_name(r.error().kind)) + ": " + r.error().error.message());
  });
  EXPECT_EQ(call.id(), 1);
  EXPECT_EQ(p->next_body(), R"({"id":1,"jsonrpc":"2.0","method":"slow","params":{"n":1}})");
  EXPECT_TRUE(call.cancel("the user pressed stop"));
  // Run here, before cancel() returned.
  EXPECT_EQ(done.items(), std::vector<std::string>{"cancelled: \"slow\" given up: the user "
                                                   "pressed stop"});
  EXPECT_EQ(p->next_body(), R"({"jsonrpc":"2.0","method":"cancelled","params":{"requestId":1,)"
                            R"("reason":"the user pressed stop"}})");
  EXPECT_FALSE(call.cancel());  // once only
  p->send(json{{"jsonrpc", "2.0"}, {"id", 1}, {"result", "late"}});
  EXPECT_TRUE(p->sync());
  EXPECT_EQ(done.size(), 1u);
  EXPECT_EQ(p->diags.count(Diagnostic::Kind::kUnknownResponseId), 1u);
}

TEST(WireRulesCancel, AHandleCancelsNothingOnceTheCallIsOver) {
  CancelPeer p(cancel_rules());
  Recorder<bool> done;
  AsyncCall answered =
      p->ep().call_async("quick", std::nullopt, [&done](CallResult r) { done.push(r.ok()); });
  EXPECT_EQ(p->next_body(), R"({"id":1,"jsonrpc":"2.0","method":"quick"})");
  p->send(json{{"jsonrpc", "2.0"}, {"id", 1}, {"result", 7}});
  ASSERT_TRUE(done.wait_size(1));
  EXPECT_FALSE(answered.cancel());
  AsyncCall expired = p->ep().call_async(
      "slow", std::nullopt, [&done](CallResult r) { done.push(r.ok()); }, 20ms);
  ASSERT_TRUE(done.wait_size(2));
  EXPECT_FALSE(expired.cancel());
  EXPECT_FALSE(AsyncCall().cancel());  // no call at all
  // Nothing went out but the two requests.
  EXPECT_EQ(p->next_body(), R"({"id":2,"jsonrpc":"2.0","method":"slow"})");
  EXPECT_TRUE(p->sync());
  EXPECT_EQ(done.items(), (std::vector<bool>{true, false}));
}

TEST(WireRulesCancel, WithoutTheRuleOrForTheHandshakeAHandleGivesUpLocally) {
  for (const char* method : {"slow", "init"}) {
    CancelPeer p(std::string(method) == "init" ? cancel_rules() : WireRules{});
    Recorder<CallError::Kind> done;
    AsyncCall call = p->ep().call_async(method, std::nullopt, [&done](CallResult r) {
      done.push(r.ok() ? CallError::Kind::kRemote : r.error().kind);
    });
    EXPECT_EQ(p->next_body(),
              R"({"id":1,"jsonrpc":"2.0","method":")" + std::string(method) + R"("})");
    EXPECT_TRUE(call.cancel());
    EXPECT_EQ(done.items(), std::vector<CallError::Kind>{CallError::Kind::kCancelled});
    EXPECT_TRUE(p->sync());  // and no cancel notification before the sync's answer
  }
}

TEST(WireRulesCancel, AHandleOutlivingItsEndpointCancelsNothing) {
  CancelPeer p(cancel_rules());
  Recorder<CallError::Kind> done;
  AsyncCall call = p->ep().call_async("slow", std::nullopt, [&done](CallResult r) {
    done.push(r.ok() ? CallError::Kind::kRemote : r.error().kind);
  });
  EXPECT_EQ(p->next_body(), R"({"id":1,"jsonrpc":"2.0","method":"slow"})");
  p->destroy_endpoint();
  EXPECT_EQ(done.items(), std::vector<CallError::Kind>{CallError::Kind::kDisconnected});
  EXPECT_FALSE(call.cancel());
}

// A completion may cancel another call of the same endpoint (no lock is held while it runs).
TEST(WireRulesCancel, ACompletionMayCancelAnotherCall) {
  CancelPeer p(cancel_rules());
  Recorder<std::string> done;
  AsyncCall second;
  AsyncCall first = p->ep().call_async("a", std::nullopt, [&](CallResult r) {
    done.push("a " + std::string(kind_name(r.error().kind)));
    EXPECT_TRUE(second.cancel("a was cancelled"));
  });
  second = p->ep().call_async("b", std::nullopt, [&done](CallResult r) {
    done.push("b " + std::string(kind_name(r.error().kind)));
  });
  EXPECT_EQ(p->next_body(), R"({"id":1,"jsonrpc":"2.0","method":"a"})");
  EXPECT_EQ(p->next_body(), R"({"id":2,"jsonrpc":"2.0","method":"b"})");
  EXPECT_TRUE(first.cancel("stop"));
  EXPECT_EQ(done.items(), (std::vector<std::string>{"a cancelled", "b cancelled"}));
  EXPECT_EQ(p->next_body(), R"({"jsonrpc":"2.0","method":"cancelled","params":{"requestId":1,)"
                            R"("reason":"stop"}})");
  EXPECT_EQ(p->next_body(), R"({"jsonrpc":"2.0","method":"cancelled","params":{"requestId":2,)"
                            R"("reason":"a was cancelled"}})");
  EXPECT_TRUE(p->sync());
}

}  // namespace
}  // namespace rpckit::endpoint_test
