// rpckit::call<M> / rpckit::notify<M> over an Endpoint, with the generated StreamNook v1
// descriptors, and a Router answering on the other side.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "endpoint_harness.hpp"
#include "rpckit/dispatch/router.hpp"
#include "rpckit/endpoint/typed.hpp"
#include "streamnook_v1/dispatch.hpp"
#include "streamnook_v1/messages.hpp"
#include "streamnook_v1/types.hpp"

namespace rpckit::endpoint_test {
namespace {

namespace sn = streamnook::v1;
namespace msg = streamnook::v1::messages;

// Endpoint handler on top of a Router: the error policy a role would apply.
template <class Direction>
Endpoint::Handler routed(const Router<Direction>& router) {
  return [&router](const Incoming& in) -> json {
    RouteResult r = router.route(in.method, in.params);
    switch (r.status) {
      case RouteResult::Status::kOk: return r.result;
      case RouteResult::Status::kUnknownMethod:
      case RouteResult::Status::kNoHandler:
        throw RpcError(jsonrpc_code::kMethodNotFound, r.error);
      case RouteResult::Status::kInvalidParams:
        throw RpcError(jsonrpc_code::kInvalidParams, r.error);
    }
    throw RpcError(jsonrpc_code::kInternalError, "unreachable");
  };
}

sn::Channel channel(std::string id) {
  sn::Channel c;
  c.channel_id = id;
  c.login = "login_" + id;
  c.display_name = "Display " + id;
  c.game_name = "Just Chatting";
  c.viewer_count = 1234;
  return c;
}

// a is the host, b the plugin.
class Typed : public ::testing::Test {
 protected:
  void SetUp() override {
    host_router.on<msg::GetFollowedLive>([](const sn::GetFollowedLiveParams&) {
      sn::GetFollowedLiveResult result;
      result.channels = {channel("1"), channel("2")};
      return result;
    });
    host_router.on<msg::Notify>([](const sn::NotifyParams& p) -> sn::NotifyResult {
      throw RpcError(-32000, "notify not granted",
                     json{{"name", "capability_denied"}, {"retry_after_ms", nullptr},
                          {"message", p.message}});
    });
    host_router.on<msg::Log>([this](const sn::LogParams& p) { logs.push(p.message); });
    plugin_router.on<msg::Ping>([](const sn::PingParams&) { return sn::PingResult{}; });
    plugin_router.on<msg::Shutdown>([](const sn::ShutdownParams&) { return nullptr; });
    plugin_router.on<msg::InvokeAction>([](const sn::InvokeActionParams& p) -> JsonValue {
      return JsonValue(json{{"action", p.action}, {"args", p.args ? p.args->get() : json(nullptr)}});
    });
    pair.a->ep().set_handler(routed(host_router));
    pair.b->ep().set_handler(routed(plugin_router));
    pair.b->ep().on_frame([this](bool outgoing, std::string_view body) {
      if (!outgoing) plugin_received.push(json::parse(body));
    });
    pair.start();
  }

  Recorder<std::string> logs;
  Recorder<json> plugin_received;
  Router<sn::PluginToHost> host_router;
  Router<sn::HostToPlugin> plugin_router;
  MemoryPair pair;  // last: destroyed (threads joined) before what its handlers use
};

TEST_F(Typed, CallDecodesTheTypedResult) {
  Result<sn::GetFollowedLiveResult> r = call<msg::GetFollowedLive>(pair.b->ep(), {});
  ASSERT_TRUE(r) << r.error().describe();
  ASSERT_EQ(r->channels.size(), 2u);
  EXPECT_EQ(r->channels[0], channel("1"));
  EXPECT_EQ(r->channels[1], channel("2"));
  EXPECT_TRUE(r->channels[1].game_id.is_null());
  EXPECT_EQ(r->channels[1].viewer_count, 1234);
}

TEST_F(Typed, ParamsAreEncodedAsTheDescriptorSays) {
  ASSERT_TRUE(call<msg::Ping>(pair.a->ep(), {}));
  Result<std::nullptr_t> shutdown = call<msg::Shutdown>(pair.a->ep(), {});
  ASSERT_TRUE(shutdown) << shutdown.error().describe();
  sn::InvokeActionParams params;
  params.action = "playback.resolve";
  params.args = JsonValue(json{{"url", "https://example.invalid/x"}});
  Result<JsonValue> invoked = call<msg::InvokeAction>(pair.a->ep(), params);
  ASSERT_TRUE(invoked) << invoked.error().describe();
  EXPECT_EQ(invoked->get(), (json{{"action", "playback.resolve"},
                                  {"args", {{"url", "https://example.invalid/x"}}}}));
  ASSERT_TRUE(plugin_received.wait_size(3));
  std::vector<json> sent = plugin_received.items();
  // Today ping sends {} and shutdown omits params (spec section 9.1); the expectations follow
  // the descriptors so that a schema change moves them along.
  auto expect_params = [](const json& request, ParamsPresence presence) {
    if (presence == ParamsPresence::kOptionalOmit) {
      EXPECT_FALSE(request.contains("params")) << request.dump();
    } else {
      EXPECT_EQ(request.value("params", json()), json::object()) << request.dump();
    }
  };
  EXPECT_EQ(sent[0]["method"], "ping");
  expect_params(sent[0], msg::Ping::kParamsPresence);
  EXPECT_EQ(sent[1]["method"], "shutdown");
  expect_params(sent[1], msg::Shutdown::kParamsPresence);
  EXPECT_EQ(sent[2]["params"]["action"], "playback.resolve");
}

TEST_F(Typed, RemoteRpcErrorPassesThroughIntact) {
  sn::NotifyParams params;
  params.message = "hello";
  Result<sn::NotifyResult> r = call<msg::Notify>(pair.b->ep(), params);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, CallError::Kind::kRemote);
  EXPECT_EQ(r.error().error.code(), -32000);
  EXPECT_EQ(r.error().error.message(), "notify not granted");
  ASSERT_TRUE(r.error().error.data());
  EXPECT_EQ(*r.error().error.data(),
            (json{{"name", "capability_denied"}, {"retry_after_ms", nullptr}, {"message", "hello"}}));
}

TEST(TypedDecode, ResultThatDoesNotDecodeIsAnError) {
  // A peer that answers get_followed_live with the wrong shape.
  RawPeer peer;
  peer.start();
  std::thread answer([&] {
    json request = peer.next_json();
    peer.send(result_response(request["id"], json{{"channels", "not an array"}}));
  });
  Result<sn::GetFollowedLiveResult> r = call<msg::GetFollowedLive>(peer.ep(), {});
  answer.join();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, CallError::Kind::kInvalidResult);
  EXPECT_EQ(r.error().error.code(), jsonrpc_code::kInternalError);
  EXPECT_NE(r.error().error.message().find("get_followed_live: invalid result"), std::string::npos)
      << r.error().error.message();
  EXPECT_NE(r.error().error.message().find("result.channels"), std::string::npos)
      << r.error().error.message();
}

TEST_F(Typed, InvalidParamsAreRejectedByTheRouterAsInvalidParams) {
  CallResult r = pair.a->ep().call("invoke_action", json{{"action", 5}}, 10s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().error.code(), jsonrpc_code::kInvalidParams);
  EXPECT_NE(r.error().error.message().find("params.action"), std::string::npos)
      << r.error().error.message();
}

TEST_F(Typed, TypedNotification) {
  sn::LogParams params;
  params.message = "typed log line";
  ASSERT_TRUE(notify<msg::Log>(pair.b->ep(), params));
  ASSERT_TRUE(logs.wait_size(1));
  EXPECT_EQ(logs.items()[0], "typed log line");
}

struct WithDeadline {
  static constexpr std::chrono::milliseconds kDeadline{1234};
};
struct WithoutDeadline {};

TEST(TypedDeadline, ExplicitDeadlineOverridesTheDescriptors) {
  // A descriptor's kDeadline is the default; an explicit deadline wins over it.
  static_assert(descriptor_deadline<WithDeadline>() == std::chrono::milliseconds(1234));
  static_assert(!descriptor_deadline<WithoutDeadline>().has_value());
  static_assert(descriptor_deadline<msg::Ping>() == msg::Ping::kDeadline);
  static_assert(msg::Ping::kDeadline > 100ms);
  RawPeer peer;
  peer.start();
  const auto start = std::chrono::steady_clock::now();
  Result<sn::PingResult> r = call<msg::Ping>(peer.ep(), {}, 100ms);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, CallError::Kind::kTimeout);
  EXPECT_LT(since(start), kPrompt);
  EXPECT_NE(r.error().describe().find("100 ms"), std::string::npos) << r.error().describe();
}

}  // namespace
}  // namespace rpckit::endpoint_test
