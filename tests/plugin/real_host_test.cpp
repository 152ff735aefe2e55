// The plugin role against what the real StreamNook host sends and refuses (issue 29;
// schema/README.md, "The real StreamNook host"), through probe-plugin:
// - date-times as the real host writes them (chrono's to_rfc3339: an offset instead of Z, nine
//   or three fractional digits) decode in every event that carries one, kept as sent;
// - a panel with a folder field (in the spec, refused by the real host's register_panel) is
//   registered, and the plugin's log says the real host would refuse it.
#include "plugin_test_support.hpp"

namespace plugin_test {
namespace {

// Utc::now().to_rfc3339(): on_watch_tick.ts, the ts of a chat message the user sent.
constexpr const char* kRealHostNow = "2026-11-26T13:04:21.085524617+00:00";
// DateTime::from_timestamp_millis(tmi-sent-ts).to_rfc3339(): the ts of a chat message read.
constexpr const char* kRealHostMillis = "2026-11-26T13:04:21.085+00:00";
// to_rfc3339() of a whole second.
constexpr const char* kRealHostWholeSecond = "2026-11-26T13:04:21+00:00";
// Twitch Helix's started_at, passed through by the real host's get_followed_live.
constexpr const char* kTwitch = "2026-11-26T11:58:03Z";

struct ProbeHost {
  explicit ProbeHost(const fs::path& dir) : dir_(dir), host({kProbePluginExe, dir / "stderr.txt"}) {
    host.answer_result("register_panel", Json::object());
  }

  void handshake(const Json& granted) {
    host.start();
    rpckit::CallResult init = host.call("initialize", init_params(granted, dir_));
    ASSERT_TRUE(init.ok()) << error_of(init).dump();
    ASSERT_TRUE(host.notify("initialized", Json::object()));
  }
  Json action(const std::string& name, const Json& args = Json::object()) {
    rpckit::CallResult r = host.call("invoke_action", Json{{"action", name}, {"args", args}});
    EXPECT_TRUE(r.ok()) << name << ": " << error_of(r).dump();
    return r.ok() ? r.result() : Json();
  }
  // Sends the event, then reads back what the plugin decoded (handled in arrival order, so
  // the action runs after the event's handler).
  Json deliver(const std::string& event, const Json& params) {
    EXPECT_TRUE(host.notify(event, params));
    return action("probe.date_times").value(event, Json());
  }
  void stop() {
    rpckit::CallResult bye = host.call("shutdown", std::nullopt);
    EXPECT_TRUE(bye.ok()) << error_of(bye).dump();
    host.notify("exit", std::nullopt);
    EXPECT_EQ(host.wait_exit(), std::optional<int>(0));
    EXPECT_EQ(host.check_stdout_frames(), "");
    if (expect_clean_stderr) {
      // Nothing was refused on the way ("<event>: Invalid params: ..." on stderr otherwise).
      EXPECT_EQ(host.stderr_text().find("Invalid params"), std::string::npos) << host.stderr_text();
    }
  }

  bool expect_clean_stderr = true;

  fs::path dir_;
  ScriptedHost host;
};

Json dated_events_grant() {
  return grant({"on_stream_start", "on_watch_tick", "on_followed_live", "on_chat_message"}, {}, {});
}

Json channel_started(const std::string& id, const Json& started_at) {
  Json c = channel(id);
  c["started_at"] = started_at;
  return c;
}

TEST(PluginRealHostDateTimes, OnWatchTickTs) {
  TempDir dir;
  ProbeHost p(dir.path());
  p.handshake(dated_events_grant());
  for (const char* ts : {kRealHostNow, kRealHostMillis, kRealHostWholeSecond, kTwitch}) {
    EXPECT_EQ(p.deliver("on_watch_tick", {{"active_channel_id", nullptr}, {"ts", ts}}), ts);
  }
  EXPECT_EQ(p.deliver("on_watch_tick", {{"active_channel_id", "71092938"}, {"ts", kRealHostNow}}),
            kRealHostNow);
  p.stop();
}

// The control: what RFC 3339 does not allow is still refused (the event is dropped and said
// on stderr), so the cases above prove the decoder read the real host's text.
TEST(PluginRealHostDateTimes, NotRfc3339IsStillRefused) {
  TempDir dir;
  ProbeHost p(dir.path());
  p.handshake(dated_events_grant());
  EXPECT_EQ(p.deliver("on_watch_tick", {{"active_channel_id", nullptr}, {"ts", kRealHostNow}}),
            kRealHostNow);
  EXPECT_EQ(p.deliver("on_watch_tick", {{"active_channel_id", nullptr},
                                        {"ts", "2026-11-26T13:04:21.085524617+0000"}}),
            kRealHostNow);
  EXPECT_TRUE(p.host.wait_stderr(
      "on_watch_tick: Invalid params: on_watch_tick: params.ts: expected an RFC 3339 date-time"))
      << p.host.stderr_text();
  p.expect_clean_stderr = false;
  p.stop();
}

TEST(PluginRealHostDateTimes, OnChatMessageTs) {
  TempDir dir;
  ProbeHost p(dir.path());
  p.handshake(dated_events_grant());
  // As the real host's chat service builds it (a message read, then one the user sent).
  Json message = {{"id", "b3f1"},        {"user_id", "1"},
                  {"login", "viewer"},   {"display_name", "Viewer"},
                  {"color", nullptr},    {"badges", Json::array()},
                  {"text", "hi"},        {"is_action", false},
                  {"msg_type", nullptr}, {"system_message", nullptr},
                  {"bits", nullptr},     {"ts", kRealHostMillis}};
  EXPECT_EQ(p.deliver("on_chat_message", {{"channel", "streamer"}, {"message", message}}),
            kRealHostMillis);
  message["id"] = "";
  message["ts"] = kRealHostNow;
  EXPECT_EQ(p.deliver("on_chat_message", {{"channel", "streamer"}, {"message", message}}),
            kRealHostNow);
  p.stop();
}

TEST(PluginRealHostDateTimes, OnStreamStartChannelStartedAt) {
  TempDir dir;
  ProbeHost p(dir.path());
  p.handshake(dated_events_grant());
  for (const char* started_at : {kRealHostNow, kRealHostMillis, kTwitch}) {
    EXPECT_EQ(p.deliver("on_stream_start", {{"channel", channel_started("7", started_at)}}),
              started_at);
  }
  // What the real host actually sends here: null.
  EXPECT_EQ(p.deliver("on_stream_start", {{"channel", channel_started("7", nullptr)}}), nullptr);
  p.stop();
}

TEST(PluginRealHostDateTimes, OnFollowedLiveChannelsStartedAt) {
  TempDir dir;
  ProbeHost p(dir.path());
  p.handshake(dated_events_grant());
  Json channels = {channel_started("1", kTwitch), channel_started("2", kRealHostNow),
                   channel_started("3", kRealHostMillis), channel_started("4", nullptr)};
  EXPECT_EQ(p.deliver("on_followed_live", {{"channels", channels}}),
            (Json{kTwitch, kRealHostNow, kRealHostMillis, nullptr}));
  p.stop();
}

// ---- a folder field ---------------------------------------------------------------------------

constexpr const char* kFolderWarning =
    R"(register_panel: schema.sections[0].fields[1].type = "folder": the real StreamNook )"
    R"(host's register_panel refuses this field type)";

TEST(PluginRealHostPanel, AFolderFieldIsSentAndTheLogSaysTheRealHostRefusesIt) {
  TempDir dir;
  ProbeHost p(dir.path());
  p.handshake(grant({}, {"log"}, {"panel"}));
  EXPECT_EQ(p.action("probe.call", {{"method", "register_folder_panel"}}).value("ok", false), true);
  // The warning goes through `log` first, then the panel goes out as the spec allows it.
  std::vector<Frame> frames = p.host.frames_from_plugin();
  auto warning = std::find_if(frames.begin(), frames.end(), [](const Frame& f) {
    return f.method() == "log" && f.params().value("message", "").rfind(kFolderWarning, 0) == 0;
  });
  ASSERT_NE(warning, frames.end()) << ::testing::PrintToString(p.host.plugin_methods());
  EXPECT_EQ(warning->params().value("level", ""), "warning");
  auto panel = std::find_if(frames.begin(), frames.end(),
                            [](const Frame& f) { return f.method() == "register_panel"; });
  ASSERT_NE(panel, frames.end());
  EXPECT_LT(warning - frames.begin(), panel - frames.begin());
  EXPECT_EQ(panel->params()["schema"]["sections"][0]["fields"][1]["type"], "folder");
  p.stop();
}

TEST(PluginRealHostPanel, WithoutLogTheWarningGoesToStderr) {
  TempDir dir;
  ProbeHost p(dir.path());
  p.handshake(grant({}, {}, {"panel"}));
  EXPECT_EQ(p.action("probe.call", {{"method", "register_folder_panel"}}).value("ok", false), true);
  EXPECT_TRUE(p.host.wait_stderr(kFolderWarning)) << p.host.stderr_text();
  EXPECT_EQ(p.host.count_from_plugin("register_panel"), 1u);
  EXPECT_EQ(p.host.count_from_plugin("log"), 0u);
  p.stop();
}

TEST(PluginRealHostPanel, NoWarningForAPanelWithoutAFolder) {
  TempDir dir;
  ProbeHost p(dir.path());
  p.handshake(grant({}, {"log"}, {"panel"}));
  EXPECT_EQ(p.action("probe.call", {{"method", "register_panel"}}).value("ok", false), true);
  EXPECT_EQ(p.host.count_from_plugin("register_panel"), 1u);
  EXPECT_EQ(p.host.count_from_plugin("log"), 0u);
  p.stop();
}

TEST(PluginRealHostPanel, NoWarningForAPanelThatIsNotSent) {
  TempDir dir;
  ProbeHost p(dir.path());
  p.handshake(grant({}, {"log"}, {}));  // no ui: panel: refused locally, nothing to warn about
  EXPECT_EQ(p.action("probe.call", {{"method", "register_folder_panel"}}).value("code", 0), -32000);
  EXPECT_EQ(p.action("probe.call", {{"method", "register_panel"}}).value("code", 0), -32000);
  EXPECT_EQ(p.host.count_from_plugin("log"), 0u);
  EXPECT_EQ(p.host.count_from_plugin("register_panel"), 0u);
  EXPECT_EQ(p.host.stderr_text().find("folder"), std::string::npos) << p.host.stderr_text();
  p.stop();
}

}  // namespace
}  // namespace plugin_test
