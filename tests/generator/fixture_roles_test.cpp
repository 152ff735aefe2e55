// The generated role surfaces of the calculator fixture (roles.hpp), between two endpoints
// over memory pipes: a server application overriding one handler function, a client sending
// through the generated ServerClient. What is not overridden answers -32601 or is ignored;
// what the grant does not allow fails locally and sends nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "demo_calc/roles.hpp"
#include "rpckit/framing/content_length_reader.hpp"
#include "rpckit/framing/content_length_writer.hpp"
#include "rpckit/framing/memory_pipe.hpp"
#include "rpckit/roles/route.hpp"

namespace {

namespace calc = demo::calc;
using nlohmann::json;

// What the server passes to its handler with every message.
struct Session {
  std::string peer;
  std::atomic<int> cancels{0};
};

// Handles evaluate only; define (a request) and cancel (a notification) keep their defaults.
class Evaluator : public calc::ServerHandler<Session> {
 public:
  calc::EvaluateResult evaluate(Session& session, const calc::EvaluateParams& params) override {
    EXPECT_EQ(session.peer, "client-1");
    if (params.expression.text == "1 / 0") {
      throw rpckit::RpcError(static_cast<int>(calc::CalcError::kDivisionByZero), "1 / 0");
    }
    calc::EvaluateResult result;
    result.value.value = static_cast<double>(params.expression.text.size());
    result.elapsed_ms = 0.25;
    return result;
  }
};

// A cancel counter, to see a notification reach an overriding handler.
class CancelCounter : public calc::ServerHandler<Session> {
 public:
  void cancel(Session& session, const calc::CancelParams& params) override {
    (void)params;
    ++session.cancels;
  }
};

std::unique_ptr<rpckit::Endpoint> endpoint(rpckit::framing::MemoryPipe& in,
                                           rpckit::framing::MemoryPipe& out) {
  constexpr std::size_t kMax = 1 << 20;
  auto* source = in.source.get();
  rpckit::Endpoint::Options options;
  options.interrupt_reader = [source] { source->close(); };
  return std::make_unique<rpckit::Endpoint>(
      std::make_unique<rpckit::framing::ContentLengthReader>(*in.source, kMax),
      std::make_unique<rpckit::framing::ContentLengthWriter>(*out.sink, kMax), options);
}

// A client and a server endpoint wired together; the server routes through `handler`.
struct Wire {
  explicit Wire(calc::ServerHandler<Session>& handler) {
    calc::bind(router, handler, session);
    server->set_handler(rpckit::roles::route_through(router));
    server->start();
    client->start();
    caller.attach(client.get());
  }
  ~Wire() {
    caller.attach(nullptr);
    client->close();
    server->close();
  }

  Session session{"client-1"};
  rpckit::Router<calc::ClientToServer> router;
  rpckit::framing::MemoryPipe to_server = rpckit::framing::make_memory_pipe();
  rpckit::framing::MemoryPipe to_client = rpckit::framing::make_memory_pipe();
  std::unique_ptr<rpckit::Endpoint> server = endpoint(to_server, to_client);
  std::unique_ptr<rpckit::Endpoint> client = endpoint(to_client, to_server);
  rpckit::roles::Caller caller;
  calc::ServerClient remote{caller};
};

calc::EvaluateParams evaluate_params(std::string text) {
  calc::EvaluateParams params;
  params.expression = json::parse(R"({"id": "e1", "text": "x", "label": null,
                                      "class": "arithmetic", "weight": 1})")
                          .get<calc::Expression>();
  params.expression.text = std::move(text);
  return params;
}

TEST(FixtureRoles, AnOverriddenRequestAnswersTyped) {
  Evaluator app;
  Wire wire(app);
  wire.caller.set_grant(json{{"features", {"arithmetic"}}});
  rpckit::Result<calc::EvaluateResult> r = wire.remote.evaluate(evaluate_params("1 + 2"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(std::get<double>(r->value.value), 5.0);
  EXPECT_EQ(r->elapsed_ms, 0.25);
}

TEST(FixtureRoles, AHandlersRpcErrorReachesTheCallerIntact) {
  Evaluator app;
  Wire wire(app);
  wire.caller.set_grant(json{{"features", {"arithmetic"}}});
  rpckit::Result<calc::EvaluateResult> r = wire.remote.evaluate(evaluate_params("1 / 0"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, rpckit::CallError::Kind::kRemote);
  EXPECT_EQ(r.error().error.code(), static_cast<int>(calc::CalcError::kDivisionByZero));
}

TEST(FixtureRoles, ARequestNobodyOverrodeAnswersMethodNotFound) {
  Evaluator app;
  Wire wire(app);
  wire.caller.set_grant(json{{"features", {"arithmetic", "big-numbers"}}});
  calc::DefineParams params;
  params.name = "f";
  params.body = evaluate_params("x").expression;
  rpckit::Result<calc::DefineResult> r = wire.remote.define(params);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, rpckit::CallError::Kind::kRemote);
  EXPECT_EQ(r.error().error.code(), rpckit::jsonrpc_code::kMethodNotFound);
  EXPECT_EQ(r.error().error.message(), "Method not found: define");
}

TEST(FixtureRoles, OutsideTheGrantNothingIsSent) {
  Evaluator app;
  Wire wire(app);
  wire.server->close();  // anything sent now would fail as sent or disconnected, not locally
  wire.caller.set_grant(json{{"features", json::array()}});
  rpckit::Result<calc::EvaluateResult> r = wire.remote.evaluate(evaluate_params("1"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, rpckit::CallError::Kind::kLocal);
  EXPECT_NE(r.error().error.message().find("features does not grant \"arithmetic\""),
            std::string::npos)
      << r.error().error.message();
}

TEST(FixtureRoles, BeforeAGrantGatedMessagesAreRefusedAndUngatedOnesGo) {
  CancelCounter app;
  Wire wire(app);
  rpckit::Result<calc::EvaluateResult> r = wire.remote.evaluate(evaluate_params("1"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, rpckit::CallError::Kind::kLocal);
  // cancel is ungated: it goes, and reaches the overriding handler.
  EXPECT_TRUE(wire.remote.cancel());
  for (int i = 0; i < 1000 && wire.session.cancels.load() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(wire.session.cancels.load(), 1);
}

TEST(FixtureRoles, ANotificationNobodyOverrodeIsIgnoredAndTheConnectionServesOn) {
  Evaluator app;
  Wire wire(app);
  wire.caller.set_grant(json{{"features", {"arithmetic"}}});
  EXPECT_TRUE(wire.remote.cancel());
  rpckit::Result<calc::EvaluateResult> r = wire.remote.evaluate(evaluate_params("ok"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
}

// The same call without waiting: as a future and with a completion, typed alike.
TEST(FixtureRoles, FuturesAndCompletionsGetTheTypedResult) {
  Evaluator app;
  Wire wire(app);
  wire.caller.set_grant(json{{"features", {"arithmetic"}}});
  rpckit::FutureResult<calc::EvaluateResult> future =
      wire.remote.evaluate_future(evaluate_params("1 + 2"));
  std::promise<rpckit::Result<calc::EvaluateResult>> completed;
  rpckit::AsyncCall call = wire.remote.evaluate_async(
      evaluate_params("1 / 0"),
      [&completed](rpckit::Result<calc::EvaluateResult> r) { completed.set_value(std::move(r)); });
  EXPECT_GT(call.id(), future.id());
  rpckit::Result<calc::EvaluateResult> r = future.get();
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(std::get<double>(r->value.value), 5.0);
  rpckit::Result<calc::EvaluateResult> failed = completed.get_future().get();
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().error.code(), static_cast<int>(calc::CalcError::kDivisionByZero));
  EXPECT_FALSE(call.cancel());  // answered already
}

TEST(FixtureRoles, OutsideTheGrantAsyncCallsFailAtOnceAndSendNothing) {
  Evaluator app;
  Wire wire(app);
  wire.server->close();
  wire.caller.set_grant(json{{"features", json::array()}});
  rpckit::FutureResult<calc::EvaluateResult> future =
      wire.remote.evaluate_future(evaluate_params("1"));
  ASSERT_TRUE(future.wait_for(std::chrono::seconds(0)));  // settled before it returned
  EXPECT_EQ(future.get().error().kind, rpckit::CallError::Kind::kLocal);
  bool ran = false;
  rpckit::AsyncCall call = wire.remote.evaluate_async(
      evaluate_params("1"), [&ran](const rpckit::Result<calc::EvaluateResult>& r) {
        ran = true;
        EXPECT_EQ(r.error().kind, rpckit::CallError::Kind::kLocal);
      });
  EXPECT_TRUE(ran);
  EXPECT_EQ(call.id(), 0);
  EXPECT_FALSE(call.cancel());
}

// Evaluates "hold" only once released: a call the client gives up while the server works.
class HoldingEvaluator : public Evaluator {
 public:
  calc::EvaluateResult evaluate(Session& session, const calc::EvaluateParams& params) override {
    if (params.expression.text == "hold") {
      started.set_value();
      released.get_future().wait();
    }
    return Evaluator::evaluate(session, params);
  }
  std::promise<void> started;
  std::promise<void> released;
};

TEST(FixtureRoles, AFutureCancelledEndsCancelledAndTheConnectionServesOn) {
  HoldingEvaluator app;
  Wire wire(app);
  wire.caller.set_grant(json{{"features", {"arithmetic"}}});
  rpckit::FutureResult<calc::EvaluateResult> held =
      wire.remote.evaluate_future(evaluate_params("hold"));
  app.started.get_future().wait();
  EXPECT_TRUE(held.cancel("no longer needed"));
  rpckit::Result<calc::EvaluateResult> r = held.get();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, rpckit::CallError::Kind::kCancelled);
  EXPECT_EQ(r.error().describe(), "cancelled: \"evaluate\" given up: no longer needed");
  app.released.set_value();  // its answer comes, and is dropped
  rpckit::Result<calc::EvaluateResult> next = wire.remote.evaluate(evaluate_params("abc"));
  ASSERT_TRUE(next.ok()) << next.error().describe();
  EXPECT_EQ(std::get<double>(next->value.value), 3.0);
}

TEST(FixtureRoles, NotConnectedIsALocalError) {
  rpckit::roles::Caller caller;
  calc::ServerClient remote{caller};
  rpckit::Result<calc::EvaluateResult> r = remote.evaluate(evaluate_params("1"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, rpckit::CallError::Kind::kLocal);
  EXPECT_FALSE(remote.cancel());
}

}  // namespace
