// The capability gate of every host method, granted and not, with raw requests from the
// plugin (the plugin role would refuse them locally); typed errors from the application; the
// grant is always the intersection with the manifest's request.
#include "host_test_support.hpp"
#include "rpckit/streamnook/errors.hpp"

namespace host_test {
namespace {

using namespace std::chrono_literals;

const char* const kId = "test.gates";

// A request of every gated method, with valid params.
const std::vector<std::pair<std::string, Json>>& requests() {
  static const std::vector<std::pair<std::string, Json>> all = {
      {"get_followed_live", Json::object()},
      {"set_upstream",
       {{"stream_id", "relay-1"}, {"playlist_url", "https://example.com/media.m3u8"}}},
      {"notify", {{"level", "warning"}, {"message", "hello"}}},
      {"get_credential", {{"kind", "twitch.android"}}},
      {"register_panel", {{"schema", {{"title", "Settings"}, {"sections", Json::array()}}}}},
      {"get_panel_values", Json::object()},
  };
  return all;
}

class HostGates : public HostTest {
 protected:
  // One plugin requesting everything; granted `granted`.
  void start(const sn::Granted& granted) {
    make_host(0.05);
    add(PluginSpec(kId, {"well-behaved"})
            .with_events({"on_stream_start"})
            .with_host_methods({"get_followed_live", "set_upstream", "notify", "log",
                                "register_panel", "get_panel_values"})
            .with_credentials({"twitch.android"})
            .with_ui({"panel"})
            .with_status({"t.status"}),
        granted);
    host().start(kId);
    ASSERT_TRUE(await_running(kId));
  }

  static void expect_error(const Json& response, int code, const std::string& name) {
    ASSERT_TRUE(response.contains("error")) << response.dump();
    EXPECT_EQ(response["error"]["code"], code) << response.dump();
    EXPECT_EQ(response["error"]["data"]["name"], name) << response.dump();
  }

  // A notification is handled before a later request is answered (one dispatcher, in
  // order): after this returns, the notification has been dealt with.
  void sync() { (void)call_host(kId, "get_followed_live"); }
};

TEST_F(HostGates, EveryRequestIsServedWhenGranted) {
  start(grant_everything());
  for (const auto& [method, params] : requests()) {
    Json response = call_host(kId, method, params);
    EXPECT_TRUE(response.contains("result")) << method << ": " << response.dump();
    auto calls = app_.calls(kId, method);
    ASSERT_EQ(calls.size(), 1u) << method;
    EXPECT_EQ(calls[0].params, params) << method;
  }
  Json live = call_host(kId, "get_followed_live");
  EXPECT_EQ(live["result"]["channels"][0]["channel_id"], "101");
  Json credential = call_host(kId, "get_credential", Json{{"kind", "twitch.android"}});
  EXPECT_EQ(credential["result"]["token"], "test-token");
  Json values = call_host(kId, "get_panel_values");
  EXPECT_EQ(values["result"]["values"]["quiet"], true);
}

TEST_F(HostGates, EveryRequestIsCapabilityDeniedWhenNotGranted) {
  start(grant({}, {}));
  for (const auto& [method, params] : requests()) {
    Json response = call_host(kId, method, params);
    expect_error(response, -32000, "capability_denied");
    EXPECT_EQ(response["error"]["data"]["retry_after_ms"], nullptr) << response.dump();
    EXPECT_EQ(app_.calls(kId, method).size(), 0u) << method << " reached the application";
  }
}

TEST_F(HostGates, GetCredentialNeedsTheRequestedKindGranted) {
  start(grant({}, {"get_followed_live"}, {"twitch.android"}));
  EXPECT_TRUE(
      call_host(kId, "get_credential", Json{{"kind", "twitch.android"}}).contains("result"));
  // A kind outside the grant (here: one v1 does not even know).
  expect_error(call_host(kId, "get_credential", Json{{"kind", "twitch.web"}}), -32000,
               "capability_denied");
  // No kind at all: invalid params, not a denial.
  expect_error(call_host(kId, "get_credential", Json::object()), -32602, "invalid_params");
  EXPECT_EQ(app_.calls(kId, "get_credential").size(), 1u);
}

TEST_F(HostGates, PanelMethodsAreGatedByUiPanelNotByHostMethods) {
  // host_methods names them, ui does not grant panel: denied (spec 9.3).
  start(grant({}, {"register_panel", "get_panel_values"}, {}, {}));
  for (const std::string method : {"register_panel", "get_panel_values"}) {
    const Json& params = std::find_if(requests().begin(), requests().end(), [&](const auto& r) {
                           return r.first == method;
                         })->second;
    expect_error(call_host(kId, method, params), -32000, "capability_denied");
  }
  EXPECT_EQ(app_.calls(kId).size(), 0u);
}

TEST_F(HostGates, PanelMethodsNeedOnlyUiPanel) {
  start(grant({}, {}, {}, {"panel"}));
  EXPECT_TRUE(call_host(kId, "register_panel", requests()[4].second).contains("result"));
  EXPECT_TRUE(call_host(kId, "get_panel_values").contains("result"));
  expect_error(call_host(kId, "notify", Json{{"message", "x"}}), -32000, "capability_denied");
}

// A folder field is in the spec, so the panel is served; the real StreamNook host's
// register_panel would refuse it (-32602), which the application hears (schema/README.md).
TEST_F(HostGates, AFolderFieldIsServedAndReportedAsRefusedByTheRealHost) {
  start(grant({}, {}, {}, {"panel"}));
  Json field = {{"key", "out_dir"}, {"type", "folder"}, {"label", "Output folder"}};
  Json params = {
      {"schema",
       {{"title", "Settings"}, {"sections", {{{"label", "Files"}, {"fields", {field}}}}}}}};
  EXPECT_TRUE(call_host(kId, "register_panel", params).contains("result"));
  ASSERT_EQ(app_.calls(kId, "register_panel").size(), 1u);
  EXPECT_EQ(app_.calls(kId, "register_panel")[0].params, params);
  EXPECT_TRUE(app_.has_report(
      kId, R"(register_panel: warning: schema.sections[0].fields[0].type = "folder": the real )"
           R"(StreamNook host's register_panel refuses this field type)"));
  // Without one, nothing is said.
  EXPECT_TRUE(call_host(kId, "register_panel", requests()[4].second).contains("result"));
  std::size_t said = 0;
  for (const ReportRecord& r : app_.reports(kId))
    said += r.what.find("register_panel") == 0 ? 1 : 0;
  EXPECT_EQ(said, 1u);
}

TEST_F(HostGates, LogIsDroppedAndReportedWhenNotGranted) {
  start(grant({}, {"get_followed_live"}));
  send_host(kId, "log", {{"level", "info"}, {"message", "secret"}});
  sync();
  EXPECT_EQ(app_.calls(kId, "log").size(), 0u);
  EXPECT_TRUE(app_.has_report(kId, "dropped log notification"));
  // Notifications never get a response, not even an error.
  for (const auto& f : app_.frames(kId)) {
    if (f.outgoing && f.message.contains("error")) {
      ADD_FAILURE() << f.message.dump();
    }
  }
}

TEST_F(HostGates, LogReachesTheApplicationWhenGranted) {
  start(grant({}, {"log", "get_followed_live"}));
  send_host(kId, "log", {{"level", "warning"}, {"message", "hello log"}});
  sync();
  auto calls = app_.calls(kId, "log");
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].params, (Json{{"level", "warning"}, {"message", "hello log"}}));
}

TEST_F(HostGates, SetStatusOnlyForDeclaredSlots) {
  start(grant({}, {"get_followed_live"}));  // set_status needs no grant, only the declaration
  send_host(kId, "set_status", {{"slot", "t.status"}, {"value", {{"n", 1}}}});
  send_host(kId, "set_status", {{"slot", "t.undeclared"}, {"value", 2}});
  sync();
  auto calls = app_.calls(kId, "set_status");
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].params, (Json{{"slot", "t.status"}, {"value", {{"n", 1}}}}));
  EXPECT_TRUE(app_.has_report(kId, "dropped set_status notification"));
}

TEST_F(HostGates, TypedErrorsFromTheApplicationReachThePluginIntact) {
  app_.set_call_hook([](const std::string&, const std::string& method, const Json&) {
    if (method == "notify") {
      throw rs::spec_error(sn::ErrorCode::kRateLimited, "slow down", 2500);
    }
    if (method == "get_credential") {
      throw rs::spec_error(sn::ErrorCode::kConsentDenied, "the user said no");
    }
    if (method == "set_upstream") {
      throw rs::spec_error(sn::ErrorCode::kUnknownStream, "no relay session");
    }
  });
  start(grant_everything());
  Json limited = call_host(kId, "notify", Json{{"message", "x"}});
  expect_error(limited, -32003, "rate_limited");
  EXPECT_EQ(limited["error"]["message"], "slow down");
  EXPECT_EQ(limited["error"]["data"]["retry_after_ms"], 2500);

  Json consent = call_host(kId, "get_credential", Json{{"kind", "twitch.android"}});
  expect_error(consent, -32001, "consent_denied");
  EXPECT_EQ(consent["error"]["message"], "the user said no");
  EXPECT_EQ(consent["error"]["data"]["retry_after_ms"], nullptr);

  expect_error(call_host(kId, "set_upstream", requests()[1].second), -32002, "unknown_stream");
}

TEST_F(HostGates, InvalidParamsAndUnknownMethods) {
  start(grant_everything());
  expect_error(call_host(kId, "notify", Json{{"level", "info"}}), -32602, "invalid_params");
  EXPECT_EQ(app_.calls(kId, "notify").size(), 0u);
  Json unknown = call_host(kId, "no_such_method");
  ASSERT_TRUE(unknown.contains("error"));
  EXPECT_EQ(unknown["error"]["code"], -32601);
  // Host-to-plugin messages are not callable by the plugin.
  EXPECT_EQ(call_host(kId, "initialize")["error"]["code"], -32601);
}

TEST_F(HostGates, TheGrantIsTheIntersectionWithTheRequest) {
  make_host(0.05);
  add(PluginSpec("test.modest", {"well-behaved"})
          .with_events({"on_stream_start"})
          .with_host_methods({"notify"}),
      [] {
        sn::Granted g = grant_everything();
        g.events.push_back(sn::EventName::from_wire("on_future_event"));
        g.host_methods.push_back(sn::HostMethodName::from_wire("future_method"));
        g.events.push_back(sn::EventName::kOnStreamStart);  // duplicates collapse
        return g;
      }());
  sn::Granted expected = grant({"on_stream_start"}, {"notify"});
  EXPECT_EQ(host().granted("test.modest"), expected);
  host().start("test.modest");
  ASSERT_TRUE(await_running("test.modest"));
  // What the plugin was told in initialize is the same.
  EXPECT_EQ(plugin_state("test.modest")["init"]["granted"], to_json(expected));
  // Offered but not requested: not granted.
  expect_error(call_host("test.modest", "get_followed_live"), -32000, "capability_denied");
  EXPECT_TRUE(call_host("test.modest", "notify", Json{{"message", "x"}}).contains("result"));
  EXPECT_EQ(host().emit<msg::OnChatMessage>(chat(1)), 0u);
  EXPECT_EQ(host().emit<msg::OnStreamStart>({channel("1")}), 1u);
  EXPECT_FALSE(host().granted("test.nobody").has_value());
}

TEST_F(HostGates, DuplicatePluginIdIsRefusedAndReported) {
  make_host(0.05);
  add(PluginSpec("test.dup", {"well-behaved"}));
  rs::LoadedManifest again = load(dir_.path() / "plugins" / "test.dup");
  EXPECT_FALSE(host().add_plugin(again, grant({}, {})));
  EXPECT_TRUE(app_.has_report("test.dup", "already loaded"));
  EXPECT_EQ(host().plugin_ids(), std::vector<std::string>{"test.dup"});
}

}  // namespace
}  // namespace host_test
