// A plugin author's translation unit: only the StreamNook plugin role header. It must compile
// without nlohmann/json.hpp or <regex> (light_header_checks.hpp), and the typed templates it
// instantiates here (handlers, routing, params and results through the generated codecs)
// must work with nlohmann::json incomplete: encoding and decoding happen out of line.
#include "rpckit/streamnook/plugin.hpp"
#include "light_header_checks.hpp"

#include <gtest/gtest.h>

#include <string>

namespace plugin_header_alone_test {
namespace {

namespace sn = streamnook::v1;
namespace msg = sn::messages;

TEST(LightHeaders, PluginRoleHeaderAlone) {
  rpckit::streamnook::Plugin plugin("1.0.0");
  std::string started;
  plugin.on<msg::OnStreamStart>(
      [&](const sn::OnStreamStartParams& p) { started = p.channel.login; });
  plugin.on_action("echo", [](const rpckit::JsonValue& args) { return args; });

  // The generic router the role is built on, driven with JSON text only.
  rpckit::Router<sn::HostToPlugin> router;
  router.on<msg::OnStreamStart>(
      [&](const sn::OnStreamStartParams& p) { started = p.channel.login; });
  router.on<msg::Ping>([](const sn::PingParams&) { return sn::PingResult{}; });

  rpckit::JsonValue params = rpckit::JsonValue::parse(
      R"({"channel":{"channel_id":"1","login":"xqc","display_name":"xQc","game_id":null,"game_name":null,"started_at":null,"viewer_count":null}})");
  rpckit::RouteResult event = router.route(msg::OnStreamStart::kMethod, &params.get());
  EXPECT_EQ(event.status, rpckit::RouteResult::Status::kOk) << event.error;
  EXPECT_EQ(started, "xqc");

  rpckit::RouteResult ping = router.route(msg::Ping::kMethod, nullptr);
  EXPECT_EQ(ping.status, rpckit::RouteResult::Status::kOk);
  EXPECT_EQ(ping.result.dump(), "{}");

  rpckit::JsonValue bad = rpckit::JsonValue::parse(R"({"channel":{"login":7}})");
  rpckit::RouteResult invalid = router.route(msg::OnStreamStart::kMethod, &bad.get());
  EXPECT_EQ(invalid.status, rpckit::RouteResult::Status::kInvalidParams);
  EXPECT_NE(invalid.error.find("params.channel"), std::string::npos) << invalid.error;

  sn::NotifyParams notify;
  notify.message = "hi";
  EXPECT_EQ(rpckit::codec::encode(notify).dump(), R"({"message":"hi"})");
}

}  // namespace
}  // namespace plugin_header_alone_test
