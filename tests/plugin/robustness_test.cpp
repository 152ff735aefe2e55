// What a host (or a newer host) may send that live-alerts must take in its stride: unknown
// fields everywhere (spec 8, 9.6), unknown methods, invalid params; and the stdout rule.
#include "plugin_test_support.hpp"

namespace plugin_test {
namespace {

TEST(PluginRobustness, UnknownFieldsEverywhereAreIgnored) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  Json live = channels({"1"});
  live[0]["future_channel_field"] = {{"nested", {1, 2, 3}}};
  la.set_live(live);
  la.host.start();

  Json params = init_params(full_grant(), dir.path());
  params["future_param"] = {{"anything", true}};
  params["granted"]["future_capability_list"] = {"x.y"};
  params["granted"]["events"].push_back("on_event_from_the_future");
  params["granted"]["host_methods"].push_back("method_from_the_future");
  params["granted"]["ui"].push_back("sidebar");
  la.host.send_frame({{"jsonrpc", "2.0"},
                      {"id", 1},
                      {"method", "initialize"},
                      {"params", params},
                      {"future_envelope_member", "ignored"}});
  auto init = la.host.wait_response(1);
  ASSERT_TRUE(init);
  ASSERT_TRUE(init->json.contains("result")) << init->body;
  EXPECT_EQ(init->json.at("result").at("hooks"),
            (Json{"on_followed_live", "on_panel_change"}));

  la.host.send_frame({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", {{"extra", 1}}},
                      {"trace", "abc"}});
  la.wait_started();
  la.host.send_frame({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "ping"}, {"params", {{"seq", 7}}}});
  auto pong = la.host.wait_response(2);
  ASSERT_TRUE(pong);
  EXPECT_EQ(pong->json.at("result"), Json::object());
  EXPECT_EQ(la.host.count_from_plugin("get_followed_live"), 1u);

  Json next = live;
  next.push_back(channel("2"));
  next[1]["another_unknown"] = nullptr;
  la.host.send_frame({{"jsonrpc", "2.0"},
                      {"method", "on_followed_live"},
                      {"params", {{"channels", next}, {"refresh_reason", "timer"}}},
                      {"meta", {{"seq", 1}}}});
  auto notify = la.host.wait_request("notify");
  ASSERT_TRUE(notify);
  EXPECT_EQ(notify->params().at("message"), alert_for("2"));

  // Unknown members in invoke_action params and in a panel change.
  la.host.send_frame({{"jsonrpc", "2.0"},
                      {"id", 3},
                      {"method", "invoke_action"},
                      {"params", {{"action", "live-alerts.test"}, {"args", {}}, {"origin", "ui"}}}});
  auto action = la.host.wait_response(3);
  ASSERT_TRUE(action);
  EXPECT_EQ(action->json.at("result"), (Json{{"ok", true}}));
  la.host.send_frame({{"jsonrpc", "2.0"},
                      {"method", "on_panel_change"},
                      {"params", {{"values", {{"quiet", true}, {"future_key", 3}}}, {"x", 1}}}});
  ASSERT_TRUE(la.host.wait_for([](const Frame& f) {
    return f.method() == "log" && f.params().at("message") == "settings changed: 0 channels, 0 games, quiet on";
  }));
  la.stop();
}

TEST(PluginRobustness, UnknownRequestGetsMethodNotFound) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.handshake(init_params(full_grant(), dir.path()));
  rpckit::CallResult r = la.host.call("future_request", Json{{"a", 1}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, rpckit::CallError::Kind::kRemote);
  EXPECT_EQ(r.error().error.code(), -32601);

  // A known event the plugin has no handler for, sent as a request: also -32601.
  la.host.send_frame({{"jsonrpc", "2.0"}, {"id", "s"}, {"method", "on_stream_stop"},
                      {"params", {{"channel_id", "1"}}}});
  auto answer = la.host.wait_response("s");
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->json.at("error").at("code"), -32601);
  la.stop();
}

TEST(PluginRobustness, UnknownNotificationGetsNoFrameAtAll) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.handshake(init_params(full_grant(), dir.path()));
  std::size_t before = la.host.frames_from_plugin().size();
  la.host.notify("future_notification", Json{{"a", 1}});
  la.host.notify("on_stream_stop", Json{{"channel_id", "1"}});  // known, unhandled
  // Arrival order is kept: once the ping is answered, an answer to those would be on the
  // wire already.
  la.barrier();
  std::vector<Frame> frames = la.host.frames_from_plugin();
  ASSERT_EQ(frames.size(), before + 1) << frames.back().body;
  EXPECT_TRUE(frames.back().is_response());
  EXPECT_EQ(frames.back().json.at("result"), Json::object());  // the ping's
  la.stop();
}

TEST(PluginRobustness, InvalidParamsRequestGets32602WithThePath) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.handshake(init_params(full_grant(), dir.path()));
  la.host.send_frame({{"jsonrpc", "2.0"}, {"id", 41}, {"method", "on_followed_live"},
                      {"params", {{"channels", 5}}}});
  auto answer = la.host.wait_response(41);
  ASSERT_TRUE(answer);
  ASSERT_TRUE(answer->json.contains("error")) << answer->body;
  EXPECT_EQ(answer->json.at("error").at("code"), -32602);
  std::string message = answer->json.at("error").at("message");
  EXPECT_NE(message.find("params.channels"), std::string::npos) << message;

  // A wrong element deep inside: the path names it.
  Json bad = channels({"1", "2"});
  bad[1]["viewer_count"] = "many";
  rpckit::CallResult r = la.host.call("invoke_action", Json{{"action", 7}});
  EXPECT_EQ(error_of(r).at("code"), -32602);
  EXPECT_NE(error_of(r).at("message").get<std::string>().find("params.action"), std::string::npos)
      << error_of(r).dump();
  la.host.send_frame({{"jsonrpc", "2.0"}, {"id", 42}, {"method", "on_followed_live"},
                      {"params", {{"channels", bad}}}});
  answer = la.host.wait_response(42);
  ASSERT_TRUE(answer);
  message = answer->json.at("error").at("message");
  EXPECT_NE(message.find("params.channels[1].viewer_count"), std::string::npos) << message;
  EXPECT_EQ(la.host.count_from_plugin("notify"), 0u);
  la.stop();
}

TEST(PluginRobustness, InvalidParamsNotificationIsSilentAndHarmless) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.set_live(channels({"1"}));
  la.handshake(init_params(full_grant(), dir.path()));
  std::size_t before = la.host.frames_from_plugin().size();
  la.host.notify("on_followed_live", Json{{"channels", 5}});
  la.host.notify("on_followed_live", Json::object());  // required field missing
  la.barrier();
  std::vector<Frame> frames = la.host.frames_from_plugin();
  ASSERT_EQ(frames.size(), before + 1) << frames.back().body;  // only the ping's answer
  EXPECT_TRUE(la.host.wait_stderr("params.channels"));

  // The live set is intact: one new channel, one alert.
  la.host.notify("on_followed_live", Json{{"channels", channels({"1", "2"})}});
  auto notify = la.host.wait_request("notify");
  ASSERT_TRUE(notify);
  EXPECT_EQ(notify->params().at("message"), alert_for("2"));
  la.stop();
}

TEST(PluginRobustness, MalformedJsonAndBatchesGetErrorsAndTheSessionGoesOn) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.handshake(init_params(full_grant(), dir.path()));
  la.host.send_raw("Content-Length: 9\r\n\r\n{\"jsonrpc");
  ASSERT_TRUE(la.host.wait_for([](const Frame& f) {
    return f.is_response() && f.json.contains("error") && f.json.at("error").at("code") == -32700;
  }));
  la.host.send_raw("Content-Length: 2\r\n\r\n[]");
  ASSERT_TRUE(la.host.wait_for([](const Frame& f) {
    return f.is_response() && f.json.contains("error") && f.json.at("error").at("code") == -32600;
  }));
  la.barrier();
  la.stop();
}

TEST(PluginRobustness, StdoutCarriesFramesOnlyThroughABusySession) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.set_live(channels({"1"}));
  la.handshake(init_params(full_grant(), dir.path()));
  for (int i = 2; i < 12; ++i) {
    Json live = Json::array();
    for (int j = 1; j <= i; ++j) live.push_back(channel(std::to_string(j)));
    la.host.notify("on_followed_live", Json{{"channels", live}});
  }
  la.host.call("invoke_action", Json{{"action", "live-alerts.test"}, {"args", {{"text", "é ✓"}}}});
  ASSERT_TRUE(la.host.wait_for([](const Frame& f) {
    return f.method() == "notify" && f.params().at("message") == "é ✓";
  }));
  la.stop();
  std::size_t frames = 0;
  EXPECT_EQ(la.host.check_stdout_frames(&frames), "");
  EXPECT_EQ(frames, la.host.frames_from_plugin().size());
  EXPECT_EQ(la.host.count_from_plugin("notify"), 11u);  // ten channels + the test alert
}

}  // namespace
}  // namespace plugin_test
