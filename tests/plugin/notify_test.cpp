// live-alerts' notify path: rate_limited answers honoured (spec 3, 5), and its test action.
#include <atomic>

#include "plugin_test_support.hpp"

namespace plugin_test {
namespace {

TEST(PluginNotify, RateLimitedAlertIsRetriedAfterRetryAfterAndDelivered) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  std::atomic<int> calls{0};
  la.host.answer("notify", [&calls](const Json&) -> Json {
    if (calls++ == 0) {
      throw rpckit::RpcError(-32003, "rate limited",
                             Json{{"name", "rate_limited"}, {"retry_after_ms", 300}});
    }
    return Json::object();
  });
  la.set_live(channels({"1"}));
  la.handshake(init_params(full_grant(), dir.path()));

  la.host.notify("on_followed_live", Json{{"channels", channels({"1", "2"})}});
  ASSERT_TRUE(la.host.wait_count("notify", 2));
  std::vector<Frame> notifies;
  for (const Frame& f : la.host.frames_from_plugin()) {
    if (f.method() == "notify") notifies.push_back(f);
  }
  ASSERT_EQ(notifies.size(), 2u);
  const Frame* first = &notifies[0];
  const Frame* second = &notifies[1];
  EXPECT_EQ(second->params(), first->params());  // the same alert, not dropped or changed
  EXPECT_EQ(second->params().at("message"), alert_for("2"));
  auto waited = std::chrono::duration_cast<Millis>(second->at - first->at);
  EXPECT_GE(waited.count(), 280) << "retried too early";
  EXPECT_LT(waited.count(), 3000) << "retried far too late";
  ASSERT_TRUE(la.host.wait_for([](const Frame& f) {
    return f.method() == "log" &&
           f.params().at("message") == "notify rate limited; retrying in 300 ms";
  }));

  la.barrier();
  la.stop();
  EXPECT_EQ(calls.load(), 2);
  EXPECT_EQ(la.host.count_from_plugin("notify"), 2u);
}

TEST(PluginNotify, AlertsBehindARateLimitedOneWaitTheirTurnInOrder) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  std::atomic<int> calls{0};
  la.host.answer("notify", [&calls](const Json&) -> Json {
    if (calls++ == 0) {
      throw rpckit::RpcError(-32003, "rate limited",
                             Json{{"name", "rate_limited"}, {"retry_after_ms", 200}});
    }
    return Json::object();
  });
  la.set_live(channels({"1"}));
  la.handshake(init_params(full_grant(), dir.path()));
  la.host.notify("on_followed_live", Json{{"channels", channels({"1", "2", "3"})}});
  ASSERT_TRUE(la.host.wait_for([](const Frame& f) {
    return f.method() == "notify" && f.params().at("message") == alert_for("3");
  }));
  std::vector<std::string> messages;
  std::vector<Clock::time_point> times;
  for (const Frame& f : la.host.frames_from_plugin()) {
    if (f.method() == "notify") {
      messages.push_back(f.params().at("message"));
      times.push_back(f.at);
    }
  }
  EXPECT_EQ(messages, (std::vector<std::string>{alert_for("2"), alert_for("2"), alert_for("3")}));
  ASSERT_EQ(times.size(), 3u);
  EXPECT_GE(std::chrono::duration_cast<Millis>(times[1] - times[0]).count(), 180);
  la.stop();
}

TEST(PluginActions, TestActionAnswersOkAndNotifies) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.handshake(init_params(full_grant(), dir.path()));
  rpckit::CallResult r =
      la.host.call("invoke_action", Json{{"action", "live-alerts.test"}, {"args", Json::object()}});
  ASSERT_TRUE(r.ok()) << error_of(r).dump();
  EXPECT_EQ(r.result(), (Json{{"ok", true}}));
  auto notify = la.host.wait_request("notify");
  ASSERT_TRUE(notify);
  EXPECT_EQ(notify->params().at("message"), "Test alert from Live alerts");

  // Custom text; absent args are {} (spec 9.8).
  r = la.host.call("invoke_action", Json{{"action", "live-alerts.test"}, {"args", {{"text", "hi"}}}});
  ASSERT_TRUE(r.ok()) << error_of(r).dump();
  r = la.host.call("invoke_action", Json{{"action", "live-alerts.test"}});
  ASSERT_TRUE(r.ok()) << error_of(r).dump();
  EXPECT_EQ(r.result(), (Json{{"ok", true}}));
  ASSERT_TRUE(la.host.wait_for([](const Frame& f) {
    return f.method() == "notify" && f.params().at("message") == "hi";
  }));
  EXPECT_TRUE(la.host.wait_count("notify", 3));
  la.stop();
  EXPECT_EQ(la.host.count_from_plugin("notify"), 3u);
}

TEST(PluginActions, UnknownActionIsMethodNotFound) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.handshake(init_params(full_grant(), dir.path()));
  rpckit::CallResult r =
      la.host.call("invoke_action", Json{{"action", "playback.resolve"}, {"args", Json::object()}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().error.code(), -32601);
  EXPECT_NE(r.error().error.message().find("playback.resolve"), std::string::npos);
  la.barrier();
  EXPECT_EQ(la.host.count_from_plugin("notify"), 0u);
  la.stop();
}

}  // namespace
}  // namespace plugin_test
