// One endpoint driven with hand-written frames; its replies are checked byte for byte.
#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <atomic>
#include <future>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include "endpoint_harness.hpp"
#include "rpckit/framing/memory_io.hpp"

namespace rpckit::endpoint_test {
namespace {

using ::testing::HasSubstr;

// An endpoint serving basic_handler and counting handler calls.
class RawWire : public ::testing::Test {
 protected:
  void SetUp() override {
    peer.ep().set_handler([this](const Incoming& in) {
      if (in.method != "rpckit.test.sync") ++handled;
      return basic_handler(in);
    });
    peer.start();
  }
  std::atomic<int> handled{0};  // declared first: outlives the endpoint's threads
  RawPeer peer;
};

TEST_F(RawWire, ResponseBytesAreExact) {
  peer.send(R"({"jsonrpc":"2.0","id":1,"method":"add","params":{"a":2,"b":3}})");
  std::optional<RawPeer::Frame> frame = peer.next();
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->raw, "Content-Length: 35\r\n\r\n{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":5}");
  EXPECT_EQ(handled.load(), 1);
}

TEST_F(RawWire, ContentLengthCountsBytesOfNonAsciiBodies) {
  // "é" is 2 bytes, "€" 3, "😀" 4: the header must count bytes, not characters.
  peer.send(json(request(7, "echo", json{{"s", "é€😀"}})).dump());
  std::optional<RawPeer::Frame> frame = peer.next();
  ASSERT_TRUE(frame);
  const std::string body = "{\"id\":7,\"jsonrpc\":\"2.0\",\"result\":{\"s\":\"é€😀\"}}";
  EXPECT_EQ(frame->raw, "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
  EXPECT_EQ(body.size(), 51u);  // 42 ASCII + 2 + 3 + 4
}

TEST_F(RawWire, StringAndNumberIdsAreEchoedExactly) {
  // Each id as written on the wire, and the id member the response must carry, byte for byte.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("abc")", R"("abc")"},
      {R"("")", R"("")"},
      {R"("1")", R"("1")"},  // a string that looks like a number stays a string
      {R"("q\"uo\\te\n")", R"("q\"uo\\te\n")"},
      {R"("\u00e9t\u00e9")", R"("été")"},  // same string, nlohmann writes UTF-8 verbatim
      {"0", "0"},
      {"-7", "-7"},
      {"9007199254740993", "9007199254740993"},  // beyond double precision
      {"-9223372036854775808", "-9223372036854775808"},
      {"18446744073709551615", "18446744073709551615"},
  };
  for (const auto& [wire_id, echoed] : cases) {
    peer.send(R"({"jsonrpc":"2.0","id":)" + wire_id + R"(,"method":"echo","params":[1]})");
    EXPECT_EQ(peer.next_body(), R"({"id":)" + echoed + R"(,"jsonrpc":"2.0","result":[1]})")
        << "id " << wire_id;
  }
  EXPECT_EQ(handled.load(), static_cast<int>(cases.size()));
}

TEST_F(RawWire, NotificationsNeverGetAResponseEvenWhenTheyFail) {
  peer.send(notification("add", json{{"a", 1}, {"b", 2}}));                  // succeeds
  peer.send(notification("fail.rpc", json{{"code", -32000}, {"message", "no"}}));  // RpcError
  peer.send(notification("fail.std"));                                     // runtime_error
  peer.send(notification("no.such.method"));                               // -32601 thrown
  peer.send(notification("add", json{{"a", "not a number"}}));             // json exception
  ASSERT_TRUE(peer.sync());  // the first frame written answers the sync request
  EXPECT_EQ(handled.load(), 5);
  EXPECT_EQ(peer.diags.count(Kind::kNotificationFailed), 4u) << peer.diags.dump();
  EXPECT_EQ(peer.untaken(), 0u);
}

TEST(RawWireHandler, HandlerThatThrowsAnythingStillAnswersOnce) {
  RawPeer throwing;
  throwing.ep().set_handler([](const Incoming& in) -> json {
    if (in.method == "int") throw 42;
    return nullptr;  // a null result is a result
  });
  throwing.start();
  throwing.send(request(1, "int"));
  EXPECT_EQ(throwing.next_body(),
            R"({"error":{"code":-32603,"message":"Internal error in int"},"id":1,"jsonrpc":"2.0"})");
  throwing.send(request(2, "null"));
  EXPECT_EQ(throwing.next_body(), R"({"id":2,"jsonrpc":"2.0","result":null})");
  EXPECT_TRUE(throwing.sync());
}

TEST_F(RawWire, InvalidJsonIsAParseErrorWithNullId) {
  const std::vector<std::string> bodies = {
      R"({"jsonrpc":"2.0","id":1,"method":"add")",  // truncated
      "",                                          // Content-Length: 0
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}",  // invalid UTF-8
      "nul",
      R"({"jsonrpc":"2.0","id":1,"method":"add"} trailing)",
  };
  const std::vector<std::string> reasons = {
      "at byte 38: expected ',' or '}', found the end of the text",
      "at byte 0: expected a value, found the end of the text",
      "at byte 34: invalid UTF-8 (byte 0xFF)",
      "at byte 0: expected null, found 'n'",
      "at byte 40: unexpected 't' after the value",
  };
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    peer.send(std::string_view(bodies[i]));
    json response = peer.next_json();
    EXPECT_EQ(response["id"], nullptr) << "body: " << bodies[i];
    EXPECT_EQ(response["error"],
              json({{"code", -32700}, {"message", "Parse error: " + reasons[i]}}))
        << "body: " << bodies[i];
  }
  EXPECT_EQ(peer.diags.count(Kind::kParseError), bodies.size());
  EXPECT_EQ(handled.load(), 0);
  EXPECT_TRUE(peer.sync()) << "the connection survives parse errors";
}

TEST_F(RawWire, BatchArraysAreInvalidRequests) {
  peer.send(R"([{"jsonrpc":"2.0","id":1,"method":"add","params":{"a":1,"b":2}}])");
  EXPECT_EQ(
      peer.next_body(),
      R"({"error":{"code":-32600,"message":"Invalid Request: batches not supported"},"id":null,"jsonrpc":"2.0"})");
  peer.send("[]");
  EXPECT_EQ(peer.next_json()["error"]["code"], -32600);
  EXPECT_EQ(handled.load(), 0) << "no member of a batch is handled";
  EXPECT_EQ(peer.diags.count(Kind::kInvalidRequest), 2u);
  EXPECT_TRUE(peer.sync());
}

struct InvalidCase {
  std::string body;
  json id;  // the id the error response must carry
};

TEST_F(RawWire, InvalidEnvelopesAreInvalidRequestsWithTheIdWhenUsable) {
  const std::vector<InvalidCase> cases = {
      {"42", nullptr},
      {R"("a string")", nullptr},
      {"null", nullptr},
      {"true", nullptr},
      {"{}", nullptr},
      {R"({"id":3,"method":"add"})", 3},                             // jsonrpc missing
      {R"({"jsonrpc":"1.0","id":4,"method":"add"})", 4},              // wrong version
      {R"({"jsonrpc":2.0,"id":"four","method":"add"})", "four"},      // version not a string
      {R"({"jsonrpc":"2.0","id":6,"method":7})", 6},                  // method not a string
      {R"({"jsonrpc":"2.0","id":"s","method":null})", "s"},
      {R"({"jsonrpc":"2.0","id":"o","method":{"name":"add"}})", "o"},
      {R"({"jsonrpc":"2.0","id":1.5,"method":"add"})", nullptr},      // bad id types
      {R"({"jsonrpc":"2.0","id":true,"method":"add"})", nullptr},
      {R"({"jsonrpc":"2.0","id":{},"method":"add"})", nullptr},
      {R"({"jsonrpc":"2.0","id":[1],"method":"add"})", nullptr},
      {R"({"jsonrpc":"2.0","id":null,"method":"add"})", nullptr},
      {R"({"jsonrpc":"2.0","id":8,"method":"echo","params":"x"})", 8},  // params a string
      {R"({"jsonrpc":"2.0","id":9,"method":"echo","params":3})", 9},
      {R"({"jsonrpc":"2.0","id":10,"method":"echo","params":false})", 10},
      {R"({"jsonrpc":"2.0","id":11})", 11},                           // nothing to do
      {R"({"jsonrpc":"2.0","method":"echo","params":"x"})", nullptr},   // invalid notification
  };
  for (const InvalidCase& c : cases) {
    peer.send(std::string_view(c.body));
    json response = peer.next_json();
    EXPECT_EQ(response["jsonrpc"], "2.0") << c.body;
    EXPECT_EQ(response["id"], c.id) << c.body;
    ASSERT_TRUE(response.contains("error")) << c.body;
    EXPECT_FALSE(response.contains("result")) << c.body;
    EXPECT_EQ(response["error"]["code"], jsonrpc_code::kInvalidRequest) << c.body;
    EXPECT_TRUE(response["error"]["message"].is_string()) << c.body;
  }
  EXPECT_EQ(handled.load(), 0) << "no invalid envelope reaches the handler";
  EXPECT_EQ(peer.diags.count(Kind::kInvalidRequest), cases.size()) << peer.diags.dump();
  EXPECT_TRUE(peer.sync());
}

TEST_F(RawWire, ParamsMayBeObjectArrayNullOrAbsent) {
  peer.send(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"k":[1,2]}})");
  EXPECT_EQ(peer.next_body(), R"({"id":1,"jsonrpc":"2.0","result":{"k":[1,2]}})");
  peer.send(R"({"jsonrpc":"2.0","id":2,"method":"echo","params":[]})");
  EXPECT_EQ(peer.next_body(), R"({"id":2,"jsonrpc":"2.0","result":[]})");
  peer.send(R"({"jsonrpc":"2.0","id":3,"method":"echo","params":null})");
  EXPECT_EQ(peer.next_body(), R"({"id":3,"jsonrpc":"2.0","result":null})");
  peer.send(R"({"jsonrpc":"2.0","id":4,"method":"echo"})");
  EXPECT_EQ(peer.next_body(), R"({"id":4,"jsonrpc":"2.0","result":null})");
  // Unknown members are ignored (versioning rule).
  peer.send(R"({"jsonrpc":"2.0","id":5,"method":"add","params":{"a":1,"b":1},"extra":true})");
  EXPECT_EQ(peer.next_body(), R"({"id":5,"jsonrpc":"2.0","result":2})");
  EXPECT_EQ(handled.load(), 5);
}

TEST(RawWireHandler, IncomingSeesMethodParamsAndId) {
  Recorder<json> seen;
  RawPeer peer;
  peer.ep().set_handler([&](const Incoming& in) -> json {
    seen.push(json{{"method", in.method},
                   {"params", in.params ? *in.params : json("<absent>")},
                   {"id", in.id ? in.id->get() : json("<none>")},
                   {"request", in.is_request()}});
    return nullptr;
  });
  peer.start();
  peer.send(R"({"jsonrpc":"2.0","id":"x","method":"m","params":{"a":1}})");
  peer.send(R"({"jsonrpc":"2.0","method":"n"})");
  peer.send(R"({"jsonrpc":"2.0","id":3,"method":"o","params":null})");
  EXPECT_EQ(peer.next_body(), R"({"id":"x","jsonrpc":"2.0","result":null})");
  EXPECT_EQ(peer.next_body(), R"({"id":3,"jsonrpc":"2.0","result":null})");
  ASSERT_TRUE(peer.sync());
  std::vector<json> all = seen.items();
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0], json::parse(R"({"method":"m","params":{"a":1},"id":"x","request":true})"));
  EXPECT_EQ(all[1], json::parse(R"({"method":"n","params":"<absent>","id":"<none>","request":false})"));
  EXPECT_EQ(all[2], json::parse(R"({"method":"o","params":null,"id":3,"request":true})"));
  EXPECT_EQ(all[3]["method"], "rpckit.test.sync");
}

TEST_F(RawWire, RpcErrorReachesTheWireIntact) {
  const json data = {{"name", "unknown_stream"}, {"retry_after_ms", nullptr}, {"nested", {1, "two"}}};
  peer.send(request("e1", "fail.rpc",
                    json{{"code", -32002}, {"message", "no such stream: \"x\""}, {"data", data}}));
  EXPECT_EQ(
      peer.next_body(),
      R"({"error":{"code":-32002,"data":{"name":"unknown_stream","nested":[1,"two"],"retry_after_ms":null},"message":"no such stream: \"x\""},"id":"e1","jsonrpc":"2.0"})");
  // Without data there is no data member; codes outside the reserved range pass too.
  peer.send(request(2, "fail.rpc", json{{"code", 7}, {"message", ""}}));
  EXPECT_EQ(peer.next_body(), R"({"error":{"code":7,"message":""},"id":2,"jsonrpc":"2.0"})");
  // data may be any JSON value, null included.
  peer.send(request(3, "fail.rpc", json{{"code", -32602}, {"message", "m"}, {"data", nullptr}}));
  EXPECT_EQ(peer.next_body(),
            R"({"error":{"code":-32602,"data":null,"message":"m"},"id":3,"jsonrpc":"2.0"})");
}

TEST_F(RawWire, StdExceptionBecomesInternalError) {
  peer.send(request(1, "fail.std"));
  json response = peer.next_json();
  EXPECT_EQ(response["id"], 1);
  EXPECT_EQ(response["error"]["code"], jsonrpc_code::kInternalError);
  EXPECT_NE(response["error"]["message"].get<std::string>().find("boom"), std::string::npos);
  EXPECT_FALSE(response["error"].contains("data"));
  EXPECT_FALSE(response.contains("result"));
}

TEST(RawWireNoHandler, RequestsGetMethodNotFoundNotificationsNothing) {
  RawPeer peer;
  peer.start();
  peer.send(notification("anything"));
  peer.send(request(1, "anything"));
  EXPECT_EQ(
      peer.next_body(),
      R"({"error":{"code":-32601,"message":"Method not found: anything"},"id":1,"jsonrpc":"2.0"})");
  EXPECT_TRUE(peer.sync());
  EXPECT_EQ(peer.diags.size(), 0u) << peer.diags.dump();
}

// ---- responses to our calls -----------------------------------------------------------------

TEST_F(RawWire, OutgoingRequestsCarryFreshIntegerIds) {
  auto first = std::async(std::launch::async, [&] { return peer->call("m", json{{"x", 1}}); });
  json request1 = peer.next_json();
  auto second = std::async(std::launch::async, [&] { return peer->call("m", std::nullopt); });
  json request2 = peer.next_json();
  EXPECT_TRUE(request1["id"].is_number_integer());
  EXPECT_TRUE(request2["id"].is_number_integer());
  EXPECT_NE(request1["id"], request2["id"]);
  EXPECT_EQ(request1.dump(),
            json({{"jsonrpc", "2.0"}, {"id", request1["id"]}, {"method", "m"}, {"params", {{"x", 1}}}})
                .dump());
  EXPECT_FALSE(request2.contains("params")) << "nullopt params are omitted";
  // Answer out of order: each call gets its own result.
  peer.send(result_response(request2["id"], "second"));
  peer.send(result_response(request1["id"], "first"));
  CallResult r1 = first.get();
  CallResult r2 = second.get();
  ASSERT_TRUE(r1.ok());
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(r1.result(), "first");
  EXPECT_EQ(r2.result(), "second");
}

TEST_F(RawWire, NotifyWritesANotification) {
  EXPECT_TRUE(peer->notify("note", json::array({1, 2})));
  EXPECT_EQ(peer.next_body(), R"({"jsonrpc":"2.0","method":"note","params":[1,2]})");
  EXPECT_TRUE(peer->notify("bare", std::nullopt));
  EXPECT_EQ(peer.next_body(), R"({"jsonrpc":"2.0","method":"bare"})");
}

TEST_F(RawWire, ResponsesWithStringOrUnknownIdsAreReportedAndDropped) {
  auto pending = std::async(std::launch::async, [&] { return peer->call("m", std::nullopt); });
  json sent = peer.next_json();
  const json id = sent["id"];
  ASSERT_TRUE(id.is_number_integer());
  const std::string as_string = id.dump();  // e.g. "1": our id, spelled as a string

  peer.send(result_response(as_string, "from string id"));
  peer.send(result_response(id.get<std::int64_t>() + 1000, "unknown"));
  peer.send(R"({"jsonrpc":"2.0","result":"no id"})");
  peer.send(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}})");
  peer.send(R"({"jsonrpc":"2.0","id":1.0,"result":"float id"})");
  ASSERT_TRUE(peer.diags.wait_for(Kind::kUnknownResponseId, 3)) << peer.diags.dump();
  // No id and a fractional id are malformed responses, not answers to some other call.
  ASSERT_TRUE(peer.diags.wait_for(Kind::kInvalidResponse, 2)) << peer.diags.dump();
  EXPECT_EQ(pending.wait_for(0s), std::future_status::timeout) << "none of them completed it";

  peer.send(result_response(id, "right"));
  CallResult result = pending.get();
  ASSERT_TRUE(result.ok()) << result.error().describe();
  EXPECT_EQ(result.result(), "right");

  // A duplicate is unknown too: the call is gone.
  peer.send(result_response(id, "again"));
  ASSERT_TRUE(peer.diags.wait_for(Kind::kUnknownResponseId, 4));
  EXPECT_TRUE(peer.sync()) << "responses are never answered";
  EXPECT_EQ(peer.diags.count(Kind::kInvalidRequest), 0u);
}

// A response that names a pending call but cannot be used fails that call at once (rather
// than at its deadline), saying why; it is never answered.
TEST_F(RawWire, ResponseWithBothResultAndErrorFailsItsCall) {
  auto pending = std::async(std::launch::async, [&] { return peer->call("m", std::nullopt); });
  const json id = peer.next_json()["id"];
  peer.send(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", 1}, {"error", {{"code", 1}, {"message", "x"}}}});
  CallResult result = pending.get();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, CallError::Kind::kRemote);
  EXPECT_THAT(result.error().error.message(),
              HasSubstr("exactly one of result and error"));
  EXPECT_TRUE(peer.diags.wait_for(Kind::kInvalidResponse)) << "reported after the call failed";
  peer.send(result_response(id, 2));  // too late: the call is gone
  ASSERT_TRUE(peer.diags.wait_for(Kind::kUnknownResponseId));
  EXPECT_TRUE(peer.sync());
}

// Error objects as a peer may send them, read strictly (JSON-RPC 2.0) and by a protocol whose
// peers may omit `code` (Profile::kErrorObjects): what the failed call reports.
TEST(RawWireErrorObjects, ACodeIsRequiredUnlessTheProtocolSaysWhatAMissingOneIs) {
  struct Case {
    json error;
    int strict_code;
    std::string strict_message;  // a substring
    int lenient_code;
    std::string lenient_message;  // exact
  };
  const std::vector<Case> cases = {
      {{{"code", 7}, {"message", "m"}}, 7, "m", 7, "m"},
      {{{"code", 7}}, 7, "", 7, "unknown error"},
      {{{"message", "no code"}, {"data", 1}}, -32603, "malformed error object", -32000, "no code"},
      {json::object(), -32603, "malformed error object", -32000, "unknown error"},
      {{{"code", "7"}, {"message", "m"}}, -32603, "malformed error object", -32603, ""},
      {"boom", -32603, "malformed error object", -32603, ""},
  };
  for (bool lenient : {false, true}) {
    Endpoint::Options options;
    if (lenient) options.rules.error_objects = ErrorObjects::lenient(-32000, "unknown error");
    RawPeer peer(options);
    peer.start();
    for (const Case& c : cases) {
      auto pending = std::async(std::launch::async, [&] { return peer->call("m", std::nullopt); });
      const json id = peer.next_json()["id"];
      peer.send(json{{"jsonrpc", "2.0"}, {"id", id}, {"error", c.error}});
      CallResult result = pending.get();
      ASSERT_FALSE(result.ok()) << c.error;
      const RpcError& e = result.error().error;
      EXPECT_EQ(e.code(), lenient ? c.lenient_code : c.strict_code) << c.error << " " << lenient;
      if (!lenient || c.lenient_code == -32603) {
        EXPECT_THAT(e.message(), HasSubstr(c.strict_message)) << c.error;
      } else {
        EXPECT_EQ(e.message(), c.lenient_message) << c.error;
      }
    }
    // data is kept when the code is assigned.
    auto pending = std::async(std::launch::async, [&] { return peer->call("m", std::nullopt); });
    const json id = peer.next_json()["id"];
    peer.send(json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"message", "x"}, {"data", {1, 2}}}}});
    CallResult result = pending.get();
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().error.data().has_value(), lenient);
    EXPECT_TRUE(peer.sync());
  }
}

TEST_F(RawWire, ResponseWithNeitherResultNorErrorIsAnInvalidRequest) {
  auto pending = std::async(std::launch::async, [&] { return peer->call("m", std::nullopt); });
  const json id = peer.next_json()["id"];
  peer.send(json{{"jsonrpc", "2.0"}, {"id", id}});
  EXPECT_EQ(peer.next_json()["error"]["code"], jsonrpc_code::kInvalidRequest);
  peer.send(result_response(id, 2));
  CallResult result = pending.get();
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result.result(), 2);
}

TEST_F(RawWire, ErrorResponseComesBackAsRemoteCallError) {
  auto pending = std::async(std::launch::async, [&] { return peer->call("m", std::nullopt); });
  const json id = peer.next_json()["id"];
  const json data = {{"name", "rate_limited"}, {"retry_after_ms", 1500}};
  peer.send(json{{"jsonrpc", "2.0"},
                 {"id", id},
                 {"error", {{"code", -32003}, {"message", "slow down"}, {"data", data}}}});
  CallResult result = pending.get();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, CallError::Kind::kRemote);
  EXPECT_EQ(result.error().error.code(), -32003);
  EXPECT_EQ(result.error().error.message(), "slow down");
  ASSERT_TRUE(result.error().error.data());
  EXPECT_EQ(*result.error().error.data(), data);
  EXPECT_EQ(result.error().describe(), "remote error: -32003 slow down");
}

TEST_F(RawWire, MalformedErrorObjectIsStillARemoteError) {
  auto pending = std::async(std::launch::async, [&] { return peer->call("m", std::nullopt); });
  const json id = peer.next_json()["id"];
  peer.send(json{{"jsonrpc", "2.0"}, {"id", id}, {"error", "just a string"}});
  CallResult result = pending.get();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, CallError::Kind::kRemote);
  EXPECT_EQ(result.error().error.code(), jsonrpc_code::kInternalError);
  EXPECT_NE(result.error().error.message().find("malformed"), std::string::npos);
}

TEST_F(RawWire, NullResultIsASuccess) {
  auto pending = std::async(std::launch::async, [&] { return peer->call("m", std::nullopt); });
  const json id = peer.next_json()["id"];
  peer.send(result_response(id, nullptr));
  CallResult result = pending.get();
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result.result().is_null());
}

// ---- exactly one response, whatever happens to it -------------------------------------------

TEST(RawWireLimits, ResultTooLargeToSendStillGetsAnErrorResponse) {
  Endpoint::Options options;
  RawPeer peer(options, /*max_body=*/256);
  peer.ep().set_handler([](const Incoming& in) -> json {
    if (in.method == "big") return std::string(1000, 'x');
    if (in.method == "big.error") throw RpcError(-32000, "big", json(std::string(1000, 'y')));
    return "small";
  });
  peer.start();
  peer.send(request(1, "big"));
  json response = peer.next_json();
  EXPECT_EQ(response["id"], 1);
  EXPECT_EQ(response["error"]["code"], jsonrpc_code::kInternalError) << response.dump();
  EXPECT_TRUE(peer.diags.wait_for(Kind::kWriteFailed));

  peer.send(request(2, "big.error"));
  response = peer.next_json();
  EXPECT_EQ(response["id"], 2);
  EXPECT_EQ(response["error"]["code"], jsonrpc_code::kInternalError) << response.dump();

  peer.send(request(3, "ok"));
  EXPECT_EQ(peer.next_body(), R"({"id":3,"jsonrpc":"2.0","result":"small"})");
}

TEST(RawWireLimits, RequestTooLargeToSendFailsTheCall) {
  RawPeer peer({}, /*max_body=*/256);
  peer.start();
  CallResult result = peer->call("m", json{{"blob", std::string(1000, 'z')}}, 5s);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, CallError::Kind::kSendFailed);
  EXPECT_TRUE(peer.diags.wait_for(Kind::kWriteFailed));
  EXPECT_FALSE(peer->notify("m", json{{"blob", std::string(1000, 'z')}}));
  EXPECT_TRUE(peer.diags.wait_for(Kind::kWriteFailed, 2));
  // The writer stays usable after a refused body.
  EXPECT_TRUE(peer->notify("small", std::nullopt));
  EXPECT_EQ(peer.next_body(), R"({"jsonrpc":"2.0","method":"small"})");
}

TEST(RawWireLimits, InvalidUtf8FromAHandlerIsReplacedNotThrown) {
  RawPeer peer;
  peer.ep().set_handler([](const Incoming&) -> json { return std::string("a\xff" "b"); });
  peer.start();
  peer.send(request(1, "m"));
  EXPECT_EQ(peer.next_body(), "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":\"a\xEF\xBF\xBD" "b\"}");
}

// ---- how the connection ends ----------------------------------------------------------------

TEST(RawWireClose, EofEndsTheConnectionAfterQueuedRequestsAreAnswered) {
  RawPeer peer;
  peer.ep().set_handler(basic_handler);
  peer.start();
  for (int i = 0; i < 20; ++i) peer.send(request(i, "add", json{{"a", i}, {"b", 1}}));
  peer.close_input();
  CloseReason reason = peer->wait();
  EXPECT_EQ(reason.kind, CloseReason::Kind::kEof);
  EXPECT_EQ(reason.read_status, framing::ReadStatus::kEof);
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(peer.next_json(), result_response(i, i + 1));
  }
  ASSERT_TRUE(peer.closes.wait_size(1));
  EXPECT_EQ(peer.closes.items()[0].kind, CloseReason::Kind::kEof);
  EXPECT_EQ(peer.closes.size(), 1u);
  EXPECT_FALSE(peer->closed()) << "closed() is about close(), not the peer's EOF";
}

TEST(RawWireClose, GarbageFramingIsMalformedAndFailsPendingCalls) {
  RawPeer peer;
  peer.start();
  auto pending = std::async(std::launch::async, [&] { return peer->call("m", std::nullopt, 20s); });
  ASSERT_TRUE(peer.next());  // the request is out
  const auto start = std::chrono::steady_clock::now();
  peer.write_raw("this is not a header\r\n\r\n");
  CallResult result = pending.get();
  EXPECT_LT(since(start), kPrompt);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, CallError::Kind::kDisconnected);
  CloseReason reason = peer->wait();
  EXPECT_EQ(reason.kind, CloseReason::Kind::kMalformed);
  EXPECT_EQ(reason.read_status, framing::ReadStatus::kHeaderWithoutColon);
  EXPECT_FALSE(reason.detail.empty());
  // Later calls fail at once.
  CallResult after = peer->call("m", std::nullopt, 20s);
  ASSERT_FALSE(after.ok());
  EXPECT_EQ(after.error().kind, CallError::Kind::kDisconnected);
}

TEST(RawWireClose, OtherMalformedFramings) {
  const std::vector<std::pair<std::string, framing::ReadStatus>> cases = {
      {"{\"jsonrpc\":\"2.0\"}\n", framing::ReadStatus::kBadLineEnding},  // unframed NDJSON
      {"Content-Type: x\r\n\r\n{}", framing::ReadStatus::kMissingContentLength},
      {"Content-Length: -1\r\n\r\n", framing::ReadStatus::kBadContentLength},
      {"Content-Length: 5\r\n\r\n{}", framing::ReadStatus::kTruncatedBody},  // then EOF
  };
  for (const auto& [bytes, status] : cases) {
    RawPeer peer;
    peer.start();
    peer.write_raw(bytes);
    peer.close_input();
    CloseReason reason = peer->wait();
    EXPECT_EQ(reason.kind, CloseReason::Kind::kMalformed) << bytes;
    EXPECT_EQ(reason.read_status, status) << bytes;
  }
}

TEST(RawWireClose, FrameOverTheLimitIsOversize) {
  RawPeer peer({}, /*max_body=*/1024);
  peer.ep().set_handler(basic_handler);
  peer.start();
  peer.send(request(1, "echo", json{{"s", std::string(900, 'a')}}));  // under the limit
  EXPECT_EQ(peer.next_json()["result"]["s"], std::string(900, 'a'));
  peer.write_raw("Content-Length: 1025\r\n\r\n");  // one byte over; body never sent
  CloseReason reason = peer->wait();
  EXPECT_EQ(reason.kind, CloseReason::Kind::kOversize);
  EXPECT_EQ(reason.read_status, framing::ReadStatus::kOversize);
  ASSERT_TRUE(peer.closes.wait_size(1));
  EXPECT_EQ(peer.closes.items()[0].kind, CloseReason::Kind::kOversize);
}

// A source that fails the way a broken descriptor would.
class FailingSource final : public framing::ByteSource {
 public:
  framing::IoResult read(std::span<char>) override {
    return {0, std::make_error_code(std::errc::io_error)};
  }
};

TEST(RawWireClose, ReadFailureIsAnIoError) {
  FailingSource source;
  framing::MemorySink sink;
  Diagnostics diags;
  Recorder<CloseReason> closes;
  Endpoint endpoint(std::make_unique<framing::ContentLengthReader>(source, kMaxBody),
                    std::make_unique<framing::ContentLengthWriter>(sink, kMaxBody));
  observe(endpoint, diags, closes);
  endpoint.start();
  CloseReason reason = endpoint.wait();
  EXPECT_EQ(reason.kind, CloseReason::Kind::kIoError);
  EXPECT_EQ(reason.read_status, framing::ReadStatus::kIoError);
  ASSERT_TRUE(closes.wait_size(1));
  EXPECT_EQ(closes.items()[0].kind, CloseReason::Kind::kIoError);
  CallResult r = endpoint.call("m", std::nullopt, 20s);
  EXPECT_EQ(r.error().kind, CallError::Kind::kDisconnected);
  EXPECT_EQ(sink.contents(), "") << "nothing was sent once the connection had ended";
}

TEST(RawWireClose, LocalCloseIsReportedAsLocal) {
  RawPeer peer;
  peer.start();
  auto pending = std::async(std::launch::async, [&] { return peer->call("m", std::nullopt, 20s); });
  ASSERT_TRUE(peer.next());
  const auto start = std::chrono::steady_clock::now();
  peer->close();
  CallResult result = pending.get();
  EXPECT_LT(since(start), kPrompt);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, CallError::Kind::kDisconnected);
  EXPECT_TRUE(peer->closed());
  CloseReason reason = peer->wait();
  EXPECT_EQ(reason.kind, CloseReason::Kind::kLocal);
  ASSERT_TRUE(peer.closes.wait_size(1));
  EXPECT_EQ(peer.closes.items()[0].kind, CloseReason::Kind::kLocal);
  EXPECT_FALSE(peer->notify("late", std::nullopt));
  peer->close();  // idempotent
  EXPECT_EQ(peer.closes.size(), 1u) << "on_close fires once";
}

// ---- observers -------------------------------------------------------------------------------

TEST(RawWireObservers, FrameObserverSeesBothDirections) {
  Recorder<std::pair<bool, std::string>> frames;
  RawPeer peer;
  peer.ep().on_frame([&](bool outgoing, std::string_view body) {
    frames.push({outgoing, std::string(body)});
  });
  peer.ep().set_handler(basic_handler);
  peer.start();
  const std::string in = R"({"jsonrpc":"2.0","id":1,"method":"add","params":{"a":1,"b":2}})";
  peer.send(std::string_view(in));
  const std::string out = peer.next_body();
  ASSERT_TRUE(frames.wait_size(2));
  std::vector<std::pair<bool, std::string>> all = frames.items();
  EXPECT_EQ(all[0], std::make_pair(false, in));
  EXPECT_EQ(all[1], std::make_pair(true, out));
}

// An observer that reacts to a protocol violation by closing the connection: the endpoint
// must not call observers while holding its own lock.
TEST(RawWireObservers, DiagnosticObserverMayCloseTheEndpoint) {
  Gate closed;
  RawPeer peer;
  peer.ep().on_diagnostic([&](const Diagnostic& d) {
    peer.diags.push(d);
    if (d.kind == Kind::kUnknownResponseId) {
      peer->close();
      closed.open();
    }
  });
  peer.start();
  peer.send(result_response(12345, "invented"));
  ASSERT_TRUE(closed.wait()) << "the observer never ran";
  CloseReason reason = peer->wait();
  EXPECT_EQ(reason.kind, CloseReason::Kind::kLocal);
}

TEST(RawWireObservers, DiagnosticObserverMayCallAndNotify) {
  Recorder<std::string> outcomes;
  RawPeer peer;
  peer.ep().on_diagnostic([&](const Diagnostic& d) {
    peer.diags.push(d);
    if (d.kind != Kind::kUnknownResponseId) return;
    outcomes.push(peer->notify("saw.unknown", std::nullopt) ? "notified" : "notify failed");
    CallResult r = peer->call("ask", std::nullopt, 0ms);  // no answer can come: times out
    outcomes.push(r.ok() ? "ok" : r.error().describe());
  });
  peer.start();
  peer.send(result_response(999, "invented"));
  ASSERT_TRUE(outcomes.wait_size(2));
  EXPECT_EQ(outcomes.items()[0], "notified");
  EXPECT_EQ(outcomes.items()[1].rfind("timeout", 0), 0u) << outcomes.items()[1];
  EXPECT_EQ(peer.next_body(), R"({"jsonrpc":"2.0","method":"saw.unknown"})");
  EXPECT_EQ(peer.next_json()["method"], "ask");
}

}  // namespace
}  // namespace rpckit::endpoint_test
