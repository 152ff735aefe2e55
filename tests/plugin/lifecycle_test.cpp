// live-alerts through the lifecycle of spec section 2: initialize (hooks within the grant),
// initialized (start-up calls per grant), ping, shutdown after in-flight work, exit, EOF, and
// the protocol_version mismatch of section 9.2.
#include <algorithm>
#include <condition_variable>
#include <ostream>

#include "gate.hpp"
#include "plugin_test_support.hpp"

namespace plugin_test {
namespace {

// Holds a scripted answer back until the test opens it (bounded, so a broken test ends).
struct Gate : rpckit_test::Gate {
  void wait() const { rpckit_test::Gate::wait(kWait); }
};

// ---- initialize: hooks ------------------------------------------------------------------

struct HooksCase {
  const char* name;
  std::vector<std::string> events;
  std::vector<std::string> ui;
  std::vector<std::string> expected_hooks;
};

void PrintTo(const HooksCase& c, std::ostream* os) { *os << c.name; }

class PluginHooks : public ::testing::TestWithParam<HooksCase> {};

TEST_P(PluginHooks, AreTheHandledEventsWithinGrantedEvents) {
  const HooksCase& c = GetParam();
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.host.start();
  rpckit::CallResult init =
      la.host.call("initialize", init_params(grant(c.events, {}, c.ui), dir.path()));
  ASSERT_TRUE(init.ok()) << error_of(init).dump();
  EXPECT_EQ(init.result().at("plugin_version"), "1.0.0");
  std::vector<std::string> hooks = init.result().at("hooks").get<std::vector<std::string>>();
  EXPECT_EQ(hooks, c.expected_hooks);
  for (const std::string& hook : hooks) {
    EXPECT_NE(std::find(c.events.begin(), c.events.end(), hook), c.events.end())
        << hook << " is not in granted.events";
  }
  EXPECT_TRUE(la.host.plugin_methods().empty());  // initialize itself calls nothing
  la.host.notify("initialized", Json::object());
  la.stop();
}

INSTANTIATE_TEST_SUITE_P(
    Grants, PluginHooks,
    ::testing::Values(
        HooksCase{"full", {"on_followed_live", "on_panel_change"}, {"panel"},
                  {"on_followed_live", "on_panel_change"}},
        HooksCase{"followed_only", {"on_followed_live"}, {"panel"}, {"on_followed_live"}},
        HooksCase{"others_and_unknown",
                  {"on_stream_start", "on_panel_change", "on_chat_message", "on_future_event"},
                  {},
                  {"on_panel_change"}},
        HooksCase{"unhandled_only", {"on_watch_tick", "on_stream_stop"}, {"panel"}, {}},
        HooksCase{"none", {}, {}, {}}),
    [](const ::testing::TestParamInfo<HooksCase>& p) { return std::string(p.param.name); });

// ---- initialized: start-up calls per grant ---------------------------------------------

struct StartupCase {
  const char* name;
  Json granted;
  std::vector<std::string> expected_methods;  // the plugin's requests and notifications
};

void PrintTo(const StartupCase& c, std::ostream* os) { *os << c.name; }

class PluginStartup : public ::testing::TestWithParam<StartupCase> {};

TEST_P(PluginStartup, MakesExactlyTheGrantedCalls) {
  const StartupCase& c = GetParam();
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.set_live(channels({"1", "2"}));
  la.handshake(init_params(c.granted, dir.path()));
  EXPECT_EQ(la.host.plugin_methods(), c.expected_methods);
  la.stop();
}

INSTANTIATE_TEST_SUITE_P(
    Grants, PluginStartup,
    ::testing::Values(
        StartupCase{"full", full_grant(),
                    {"register_panel", "get_panel_values", "get_followed_live", "log"}},
        StartupCase{"panel_only", grant({"on_panel_change"}, {}, {"panel"}),
                    {"register_panel", "get_panel_values"}},
        StartupCase{"get_followed_live_only", grant({}, {"get_followed_live"}, {}),
                    {"get_followed_live"}},
        // "no settings panel", "started without get_followed_live": both through log.
        StartupCase{"log_only", grant({}, {"log"}, {}), {"log", "log"}},
        StartupCase{"notify_only", grant({"on_followed_live"}, {"notify"}, {}), {}},
        // Named in host_methods but not ui: the panel gate is ui (spec 9.3).
        StartupCase{"panel_methods_without_ui",
                    grant({}, {"register_panel", "get_panel_values"}, {}), {}},
        StartupCase{"nothing", no_grant(), {}}),
    [](const ::testing::TestParamInfo<StartupCase>& p) { return std::string(p.param.name); });

TEST(PluginLifecycle, FullStartupRegistersThePanelAndRebuildsFromTheHost) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.set_live(channels({"1", "2"}));
  la.handshake(init_params(full_grant(), dir.path()));

  auto panel = la.host.wait_request("register_panel");
  ASSERT_TRUE(panel);
  const Json& schema = panel->params().at("schema");
  EXPECT_EQ(schema.at("title"), "Live alerts");
  std::vector<std::string> keys;
  for (const Json& field : schema.at("sections").at(0).at("fields")) keys.push_back(field.at("key"));
  EXPECT_EQ(keys, (std::vector<std::string>{"channels", "games", "quiet"}));

  auto started = la.host.wait_request("log");
  ASSERT_TRUE(started);
  EXPECT_EQ(started->params().at("message"), "started; 2 followed channels live");
  EXPECT_EQ(la.host.count_from_plugin("notify"), 0u);  // first run: a baseline
  la.stop();
}

TEST(PluginLifecycle, EventsArrivingDuringStartupWaitForItWhilePingsAreAnswered) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  Gate gate;
  la.host.answer("get_followed_live", [&](const Json&) {
    gate.wait();
    return Json{{"channels", channels({"1"})}};
  });
  la.host.start();
  ASSERT_TRUE(la.host.call("initialize", init_params(full_grant(), dir.path())).ok());
  la.host.notify("initialized", Json::object());
  ASSERT_TRUE(la.host.wait_request("get_followed_live"));

  // on_start waits for get_followed_live: a real host sends on_followed_live right after
  // start-up, and pings keep coming.
  la.host.notify("on_followed_live", Json{{"channels", channels({"1", "2"})}});
  rpckit::CallResult pong = la.host.call("ping", Json::object(), Millis(2000));
  ASSERT_TRUE(pong.ok()) << "ping not answered while on_start waits: " << error_of(pong).dump();
  EXPECT_EQ(la.host.count_from_plugin("notify"), 0u);
  EXPECT_EQ(la.host.count_from_plugin("set_status"), 0u);  // the event has not run yet

  gate.open();
  // The event runs after start-up: diffed against the baseline, so only 2 is new.
  auto notify = la.host.wait_request("notify");
  ASSERT_TRUE(notify);
  EXPECT_EQ(notify->params().at("message"), alert_for("2"));
  la.barrier();
  std::vector<std::string> methods = la.host.plugin_methods();
  auto started = std::find(methods.begin(), methods.end(), "log");
  auto status = std::find(methods.begin(), methods.end(), "set_status");
  EXPECT_LT(started - methods.begin(), status - methods.begin());  // start-up, then the event
  la.stop();
  EXPECT_EQ(la.host.count_from_plugin("notify"), 1u);
}

TEST(PluginLifecycle, ExitWhileAlertsAreStillBeingSentEndsCleanly) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  // Rate limited with no wait: the plugin keeps retrying, so its notifier thread is busy in
  // host calls at the moment the connection goes away.
  la.host.answer("notify", [](const Json&) -> Json {
    throw rpckit::RpcError(-32003, "rate limited",
                           Json{{"name", "rate_limited"}, {"retry_after_ms", 0}});
  });
  la.set_live(channels({"0"}));
  la.handshake(init_params(full_grant(), dir.path()));
  Json live = Json::array();
  for (int i = 0; i < 50; ++i) live.push_back(channel(std::to_string(i)));
  la.host.notify("on_followed_live", Json{{"channels", live}});
  ASSERT_TRUE(la.host.wait_count("notify", 20));
  la.host.notify("exit", std::nullopt);
  EXPECT_EQ(la.host.wait_exit(), std::optional<int>(0)) << la.host.stderr_text();
  EXPECT_EQ(la.host.check_stdout_frames(), "");
}

// ---- ping, shutdown, exit, EOF -------------------------------------------------------------

TEST(PluginLifecycle, PingAnswersAnEmptyObjectWhateverItsParams) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.handshake(init_params(full_grant(), dir.path()));
  // Spec 9.1: accept absent, {} or null.
  for (const Json& params : {Json::object(), Json(nullptr)}) {
    rpckit::CallResult pong = la.host.call("ping", params);
    ASSERT_TRUE(pong.ok()) << error_of(pong).dump();
    EXPECT_EQ(pong.result(), Json::object());
  }
  rpckit::CallResult pong = la.host.call("ping", std::nullopt);
  ASSERT_TRUE(pong.ok()) << error_of(pong).dump();
  EXPECT_EQ(pong.result(), Json::object());
  // A string id is echoed as is.
  la.host.send_frame({{"jsonrpc", "2.0"}, {"id", "ping-α"}, {"method", "ping"}, {"params", {}}});
  auto answer = la.host.wait_response("ping-α");
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->json.at("result"), Json::object());
  la.stop();
}

TEST(PluginLifecycle, ShutdownAndExitAcceptNullAndEmptyParams) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.handshake(init_params(full_grant(), dir.path()));
  la.host.send_frame({{"jsonrpc", "2.0"}, {"id", 900}, {"method", "shutdown"}, {"params", nullptr}});
  auto bye = la.host.wait_response(900);
  ASSERT_TRUE(bye);
  ASSERT_TRUE(bye->json.contains("result")) << bye->body;
  EXPECT_TRUE(bye->json.at("result").is_null());
  la.host.send_frame({{"jsonrpc", "2.0"}, {"method", "exit"}, {"params", Json::object()}});
  EXPECT_EQ(la.host.wait_exit(), std::optional<int>(0));
  EXPECT_EQ(la.host.check_stdout_frames(), "");
}

TEST(PluginLifecycle, ShutdownAnswersOnlyAfterTheInFlightNotify) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  Gate gate;
  la.host.answer("notify", [&gate](const Json&) {
    gate.wait();
    return Json::object();
  });
  la.set_live(channels({"1"}));
  la.handshake(init_params(full_grant(), dir.path()));

  la.host.notify("on_followed_live", Json{{"channels", channels({"1", "2"})}});
  auto notify = la.host.wait_request("notify");
  ASSERT_TRUE(notify);
  EXPECT_EQ(notify->params().at("message"), alert_for("2"));

  la.host.send_frame({{"jsonrpc", "2.0"}, {"id", "bye"}, {"method", "shutdown"}});
  // While the host holds the notify answer, the plugin must not answer shutdown.
  EXPECT_FALSE(la.host.wait_response("bye", Millis(300)));
  gate.open();
  auto bye = la.host.wait_response("bye");
  ASSERT_TRUE(bye);
  EXPECT_TRUE(bye->json.at("result").is_null());

  // The plugin's own log line about stopping comes after the notify, before the answer.
  std::vector<std::string> methods = la.host.plugin_methods();
  EXPECT_EQ(methods.back(), "log");
  la.host.notify("exit", std::nullopt);
  EXPECT_EQ(la.host.wait_exit(), std::optional<int>(0));
  EXPECT_EQ(la.host.check_stdout_frames(), "");
}

TEST(PluginLifecycle, ShutdownDeliversAlertsAlreadyAccepted) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.set_live(channels({"1"}));
  la.handshake(init_params(full_grant(), dir.path()));

  // Three channels go live and shutdown follows at once: the three alerts are in-flight
  // work (spec 2: the plugin finishes it, then answers), whatever the thread timing.
  la.host.notify("on_followed_live", Json{{"channels", channels({"1", "2", "3", "4"})}});
  rpckit::CallResult bye = la.host.call("shutdown", std::nullopt);
  ASSERT_TRUE(bye.ok()) << error_of(bye).dump();
  EXPECT_TRUE(bye.result().is_null());

  std::vector<std::string> messages;
  std::size_t shutdown_answer = 0;
  std::vector<Frame> frames = la.host.frames_from_plugin();
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (frames[i].method() == "notify") messages.push_back(frames[i].params().at("message"));
    if (frames[i].is_response() && frames[i].json.at("result").is_null()) shutdown_answer = i;
  }
  EXPECT_EQ(messages, (std::vector<std::string>{alert_for("2"), alert_for("3"), alert_for("4")}));
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (frames[i].method() == "notify") {
      EXPECT_LT(i, shutdown_answer);
    }
  }
  la.host.notify("exit", std::nullopt);
  EXPECT_EQ(la.host.wait_exit(), std::optional<int>(0));
}

TEST(PluginLifecycle, ExitEndsTheProcessWithCodeZero) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.handshake(init_params(full_grant(), dir.path()));
  la.stop();  // shutdown -> null, exit -> 0, stdout frames only
  EXPECT_EQ(la.host.stderr_text().find("broken connection"), std::string::npos);
}

TEST(PluginLifecycle, ExitWithoutShutdownWhileANotifyIsInFlight) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  Gate gate;
  la.host.answer("notify", [&gate](const Json&) {
    gate.wait();
    return Json::object();
  });
  la.set_live(channels({"1"}));
  la.handshake(init_params(full_grant(), dir.path()));
  la.host.notify("on_followed_live", Json{{"channels", channels({"1", "2"})}});
  ASSERT_TRUE(la.host.wait_request("notify"));
  la.host.notify("exit", std::nullopt);
  EXPECT_EQ(la.host.wait_exit(), std::optional<int>(0));
  gate.open();
  EXPECT_EQ(la.host.check_stdout_frames(), "");
}

TEST(PluginLifecycle, StdinEofAfterHandshakeExitsCleanly) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.handshake(init_params(full_grant(), dir.path()));
  la.host.close_stdin();
  EXPECT_EQ(la.host.wait_exit(), std::optional<int>(0));
  EXPECT_EQ(la.host.check_stdout_frames(), "");
}

TEST(PluginLifecycle, StdinEofBeforeAnythingExitsCleanly) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.host.start();
  la.host.close_stdin();
  EXPECT_EQ(la.host.wait_exit(), std::optional<int>(0));
  EXPECT_EQ(la.host.stdout_bytes(), "");
}

TEST(PluginLifecycle, UnsupportedProtocolVersionIsRejected) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.host.start();
  rpckit::CallResult init = la.host.call("initialize", init_params(full_grant(), dir.path(), 2));
  ASSERT_FALSE(init.ok());
  EXPECT_EQ(init.error().kind, rpckit::CallError::Kind::kRemote);
  EXPECT_EQ(init.error().error.code(), -32600);
  ASSERT_TRUE(init.error().error.data());
  EXPECT_EQ(init.error().error.data()->get().at("name"), "protocol_version_mismatch");
  EXPECT_TRUE(init.error().error.data()->get().at("retry_after_ms").is_null());
  EXPECT_NE(init.error().error.message().find('2'), std::string::npos);

  // Still a well-behaved process: no start-up calls, a clean end on EOF.
  la.host.notify("initialized", Json::object());
  rpckit::CallResult pong = la.host.call("ping", Json::object());
  EXPECT_TRUE(pong.ok());
  EXPECT_TRUE(la.host.plugin_methods().empty());
  la.host.close_stdin();
  EXPECT_EQ(la.host.wait_exit(), std::optional<int>(0));
  EXPECT_EQ(la.host.check_stdout_frames(), "");
}

TEST(PluginLifecycle, SecondInitializeIsAnInvalidRequest) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.handshake(init_params(full_grant(), dir.path()));
  rpckit::CallResult again = la.host.call("initialize", init_params(full_grant(), dir.path()));
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().error.code(), -32600);
  la.stop();
}

}  // namespace
}  // namespace plugin_test
