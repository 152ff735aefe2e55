// The plugin role's typed errors on the wire and its HostApi gates, through probe-plugin.
#include "plugin_test_support.hpp"

namespace plugin_test {
namespace {

struct ProbeHost {
  explicit ProbeHost(const fs::path& dir) : host({kProbePluginExe, dir / "stderr.txt"}) {}

  void handshake(const Json& granted, const fs::path& dir) {
    host.start();
    rpckit::CallResult init = host.call("initialize", init_params(granted, dir));
    ASSERT_TRUE(init.ok()) << error_of(init).dump();
    host.notify("initialized", Json::object());
  }
  Json probe(const std::string& method) {
    rpckit::CallResult r =
        host.call("invoke_action", Json{{"action", "probe.call"}, {"args", {{"method", method}}}});
    EXPECT_TRUE(r.ok()) << method << ": " << error_of(r).dump();
    return r.ok() ? r.result() : Json();
  }
  void stop() {
    rpckit::CallResult bye = host.call("shutdown", std::nullopt);
    EXPECT_TRUE(bye.ok()) << error_of(bye).dump();
    host.notify("exit", std::nullopt);
    EXPECT_EQ(host.wait_exit(), std::optional<int>(0));
    EXPECT_EQ(host.check_stdout_frames(), "");
  }

  ScriptedHost host;
};

TEST(PluginTypedErrors, RateLimitedErrorReachesTheWireWithItsData) {
  TempDir dir;
  ProbeHost p(dir.path());
  p.handshake(no_grant(), dir.path());
  p.host.send_frame({{"jsonrpc", "2.0"},
                     {"id", 5},
                     {"method", "invoke_action"},
                     {"params", {{"action", "probe.rate_limited"}, {"args", Json::object()}}}});
  auto answer = p.host.wait_response(5);
  ASSERT_TRUE(answer);
  ASSERT_TRUE(answer->json.contains("error")) << answer->body;
  const Json& error = answer->json.at("error");
  EXPECT_EQ(error.at("code"), -32003);
  EXPECT_EQ(error.at("message"), "slow down");
  EXPECT_EQ(error.at("data"), (Json{{"name", "rate_limited"}, {"retry_after_ms", 1500}}));
  EXPECT_FALSE(answer->json.contains("result"));
  p.stop();
}

TEST(PluginHostApi, CallsOutsideTheGrantAreDeniedLocallyAndSendNothing) {
  TempDir dir;
  ProbeHost p(dir.path());
  // Grants that sound close but do not open the gates: events, unknown methods, a panel
  // method named in host_methods without ui, another credential kind.
  p.handshake(grant({"on_followed_live"}, {"register_panel", "set_status_future"}, {"sidebar"},
                    {"twitch.web"}),
              dir.path());
  for (const char* method : {"get_followed_live", "notify", "register_panel", "get_panel_values",
                             "get_credential", "set_upstream"}) {
    Json outcome = p.probe(method);
    EXPECT_EQ(outcome.value("ok", true), false) << method;
    EXPECT_EQ(outcome.value("kind", ""), "local") << method;
    EXPECT_EQ(outcome.value("code", 0), -32000) << method;
    EXPECT_EQ(outcome.value("name", Json()), "capability_denied") << method;
    EXPECT_NE(outcome.value("message", "").find(method), std::string::npos) << outcome.dump();
  }
  EXPECT_EQ(p.probe("log"), (Json{{"sent", false}}));
  p.stop();
  // Only answers went out: not one gated request or notification.
  EXPECT_EQ(p.host.plugin_methods(), std::vector<std::string>{});
  EXPECT_EQ(p.host.frames_from_plugin().size(), 9u);  // initialize, 7 probes, shutdown
}

TEST(PluginHostApi, CallsInsideTheGrantReachTheHost) {
  TempDir dir;
  ProbeHost p(dir.path());
  p.host.answer_result("get_followed_live", Json{{"channels", channels({"1"})}});
  p.host.answer("notify", [](const Json&) -> Json {
    throw rpckit::RpcError(-32000, "revoked", Json{{"name", "capability_denied"},
                                                   {"retry_after_ms", nullptr}});
  });
  p.host.answer_result("get_credential", Json{{"kind", "twitch.android"},
                                              {"token", "t"},
                                              {"client_id", nullptr},
                                              {"user_id", nullptr},
                                              {"device_id", nullptr},
                                              {"expires_at", nullptr}});
  p.handshake(grant({}, {"get_followed_live", "notify", "log"}, {}, {"twitch.android"}),
              dir.path());
  EXPECT_EQ(p.probe("get_followed_live"), (Json{{"ok", true}}));
  EXPECT_EQ(p.probe("get_credential"), (Json{{"ok", true}}));
  Json remote = p.probe("notify");  // sent, and the host's own refusal comes back as remote
  EXPECT_EQ(remote.value("kind", ""), "remote") << remote.dump();
  EXPECT_EQ(remote.value("code", 0), -32000);
  EXPECT_EQ(p.probe("log"), (Json{{"sent", true}}));
  Json denied = p.probe("register_panel");
  EXPECT_EQ(denied.value("kind", ""), "local");
  p.stop();
  EXPECT_EQ(p.host.plugin_methods(),
            (std::vector<std::string>{"get_followed_live", "get_credential", "notify", "log"}));
  auto credential = p.host.wait_request("get_credential");
  ASSERT_TRUE(credential);
  EXPECT_EQ(credential->params(), (Json{{"kind", "twitch.android"}}));
}

}  // namespace
}  // namespace plugin_test
