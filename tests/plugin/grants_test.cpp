// live-alerts with several grant subsets (spec section 2: a plugin must work with any subset:
// degrade or report through log, never crash), and its settings panel end to end.
#include <algorithm>

#include "plugin_test_support.hpp"

namespace plugin_test {
namespace {

// Messages of the plugin's `log` notifications, in order.
std::vector<std::string> log_lines(const ScriptedHost& host) {
  std::vector<std::string> out;
  for (const Frame& f : host.frames_from_plugin()) {
    if (f.method() == "log") out.push_back(f.params().at("message"));
  }
  return out;
}

bool contains(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

TEST(PluginGrants, FullGrantAlertsThroughNotify) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.set_live(channels({"1"}));
  la.handshake(init_params(full_grant(), dir.path()));
  la.host.notify("on_followed_live", Json{{"channels", channels({"1", "2"})}});
  auto notify = la.host.wait_request("notify");
  ASSERT_TRUE(notify);
  EXPECT_EQ(notify->params().at("message"), alert_for("2"));
  EXPECT_EQ(notify->params().value("level", "info"), "info");
  auto status = la.host.wait_request("set_status");
  ASSERT_TRUE(status);
  EXPECT_EQ(status->params(), (Json{{"slot", "live-alerts.live-count"}, {"value", 2}}));
  la.barrier();
  EXPECT_EQ(notify_messages(la.host), std::vector<std::string>{alert_for("2")});
  la.stop();
}

TEST(PluginGrants, WithoutNotifyAlertsAreOnlyLogged) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.set_live(channels({"1"}));
  la.handshake(init_params(
      grant({"on_followed_live", "on_panel_change"}, {"get_followed_live", "log"}, {"panel"}),
      dir.path()));
  la.host.notify("on_followed_live", Json{{"channels", channels({"1", "2"})}});
  auto logged = la.host.wait_for([](const Frame& f) {
    return f.method() == "log" && f.params().at("message") == "alert: " + alert_for("2");
  });
  ASSERT_TRUE(logged);
  la.barrier();
  la.stop();
  EXPECT_EQ(la.host.count_from_plugin("notify"), 0u);
}

TEST(PluginGrants, WithoutGetFollowedLiveWaitsForEventsAndAlertsOnDiffs) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.set_live(channels({"1"}));  // would be served, but the grant does not allow asking
  la.handshake(init_params(grant({"on_followed_live"}, {"notify", "log"}, {}), dir.path()));
  EXPECT_EQ(la.host.count_from_plugin("get_followed_live"), 0u);
  std::vector<std::string> lines = log_lines(la.host);
  ASSERT_EQ(lines.size(), 2u) << ::testing::PrintToString(lines);
  EXPECT_EQ(lines[1].rfind("started without get_followed_live (", 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find("capability_denied"), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find("host_methods does not grant \"get_followed_live\""),
            std::string::npos)
      << lines[1];

  // The first event after start-up is the full live set on a first run: a baseline, like
  // the get_followed_live answer would have been, not a burst of alerts.
  la.host.notify("on_followed_live", Json{{"channels", channels({"1", "2"})}});
  la.barrier();
  EXPECT_EQ(la.host.count_from_plugin("notify"), 0u);

  la.host.notify("on_followed_live", Json{{"channels", channels({"1", "2", "3"})}});
  auto notify = la.host.wait_request("notify");
  ASSERT_TRUE(notify);
  EXPECT_EQ(notify->params().at("message"), alert_for("3"));

  // Gone offline and back: a new alert.
  la.host.notify("on_followed_live", Json{{"channels", channels({"1", "3"})}});
  la.host.notify("on_followed_live", Json{{"channels", channels({"1", "2", "3"})}});
  ASSERT_TRUE(la.host.wait_for([](const Frame& f) {
    return f.method() == "notify" && f.params().at("message") == alert_for("2");
  }));
  la.barrier();
  EXPECT_EQ(notify_messages(la.host), (std::vector<std::string>{alert_for("3"), alert_for("2")}));
  la.stop();
}

TEST(PluginGrants, WithoutLogLinesGoToStderr) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.set_live(channels({"1"}));
  la.handshake(init_params(grant({"on_followed_live"}, {"get_followed_live", "notify"}, {}),
                           dir.path()));
  EXPECT_EQ(la.host.count_from_plugin("log"), 0u);
  EXPECT_TRUE(la.host.wait_stderr("[info] no settings panel ("));
  EXPECT_TRUE(la.host.wait_stderr("capability_denied: register_panel: ui does not grant"));
  EXPECT_TRUE(la.host.wait_stderr("[info] started; 1 followed channels live"));

  la.host.notify("on_followed_live", Json{{"channels", channels({"1", "2"})}});
  ASSERT_TRUE(la.host.wait_request("notify"));
  la.stop();
  EXPECT_TRUE(la.host.wait_stderr("[info] live alerts stopped"));
  EXPECT_EQ(la.host.count_from_plugin("log"), 0u);
}

TEST(PluginGrants, WithoutNotifyAndLogAlertsReachStderr) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.set_live(channels({"1"}));
  la.handshake(init_params(grant({"on_followed_live"}, {"get_followed_live"}, {}), dir.path()));
  la.host.notify("on_followed_live", Json{{"channels", channels({"1", "2"})}});
  la.barrier();
  EXPECT_TRUE(la.host.wait_stderr("[info] alert: " + alert_for("2")));
  la.stop();
  EXPECT_EQ(la.host.plugin_methods(),
            (std::vector<std::string>{"get_followed_live", "set_status"}));
}

TEST(PluginGrants, NothingGrantedStillAnswersTheWholeLifecycle) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.set_live(channels({"1"}));
  Json init = la.handshake(init_params(no_grant(), dir.path()));
  EXPECT_EQ(init.at("hooks"), Json::array());

  rpckit::CallResult action = la.host.call(
      "invoke_action", Json{{"action", "live-alerts.test"}, {"args", Json::object()}});
  ASSERT_TRUE(action.ok()) << error_of(action).dump();
  EXPECT_EQ(action.result(), (Json{{"ok", true}}));
  rpckit::CallResult unknown =
      la.host.call("invoke_action", Json{{"action", "live-alerts.nope"}, {"args", {}}});
  EXPECT_EQ(error_of(unknown).at("code"), -32601);
  la.stop();

  // Everything it said went to stderr; on the wire it only ever answered.
  EXPECT_TRUE(la.host.wait_stderr("[info] alert: Test alert from Live alerts"));
  EXPECT_TRUE(la.host.wait_stderr("waiting for on_followed_live"));
  std::vector<Frame> frames = la.host.frames_from_plugin();
  EXPECT_EQ(frames.size(), 5u);  // initialize, ping, 2 x invoke_action, shutdown
  for (const Frame& f : frames) EXPECT_TRUE(f.is_response()) << f.body;
}

TEST(PluginSettings, PanelValuesFilterAlertsAndPanelChangesApply) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.set_live(channels({"1"}));
  la.panel_values = {
      {"channels",
       Json::array({{{"channel_id", "2"}, {"channel_login", "login2"}, {"display_name", "S2"}},
                    {{"channel_id", "5"}, {"channel_login", "login5"}, {"display_name", "S5"}}})},
      {"quiet", false}};
  la.handshake(init_params(full_grant(), dir.path()));

  Json live = channels({"1", "2", "3"});
  la.host.notify("on_followed_live", Json{{"channels", live}});
  ASSERT_TRUE(la.host.wait_request("notify"));
  la.barrier();
  EXPECT_EQ(notify_messages(la.host), std::vector<std::string>{alert_for("2")});

  // Games filter (case-insensitive) replaces the channel filter; quiet logs instead.
  la.host.notify("on_panel_change",
                 Json{{"values", {{"games", {"just chatting"}}, {"quiet", true}}}});
  live.push_back(channel("4", "Just Chatting"));
  live.push_back(channel("5", "Chess"));
  la.host.notify("on_followed_live", Json{{"channels", live}});
  ASSERT_TRUE(la.host.wait_for([](const Frame& f) {
    return f.method() == "log" &&
           f.params().at("message") == "alert: " + alert_for("4", "Just Chatting");
  }));
  la.barrier();
  EXPECT_EQ(notify_messages(la.host), std::vector<std::string>{alert_for("2")});
  EXPECT_TRUE(contains(log_lines(la.host), "settings changed: 0 channels, 1 games, quiet on"));
  EXPECT_FALSE(contains(log_lines(la.host), "alert: " + alert_for("5")));
  la.stop();
}

}  // namespace
}  // namespace plugin_test
