// rpckit::Router over the generated StreamNook v1 directions: typed routing of every method
// (driven by the example envelopes), unknown methods, missing handlers, invalid params, the
// request/notification flag, absent/null params, and handler exceptions.
//
// Compile-time checks of Router::on<M>() (not built; each line must fail to compile):
//
//   rpckit::Router<HostToPlugin> r;
//   r.on<messages::Notify>([](const NotifyParams&) { return NotifyResult{}; });
//       // error: "message M is not in this direction" (notify is plugin->host)
//   r.on<messages::Ping>([](const PingParams&) { return 42; });
//       // error: "a request handler takes const Params& and returns M::Result"
//   r.on<messages::Ping>([](const ShutdownParams&) { return PingResult{}; });
//       // error: same (wrong params type)
//   r.on<messages::OnStreamStop>([](const OnStreamStartParams&) {});
//       // error: "a notification handler takes const Params&"
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "../bindings/support.hpp"
#include "rpckit/dispatch/router.hpp"
#include "streamnook_v1/dispatch.hpp"

namespace dispatch_test {
namespace {

using bindings_test::examples_dir;
using bindings_test::for_each_in;
using bindings_test::load_json;
using bindings_test::message_fixture_files;
using nlohmann::json;
using rpckit::MessageKind;
using rpckit::RouteResult;
using Status = rpckit::RouteResult::Status;
namespace sn = streamnook::v1;
namespace msg = streamnook::v1::messages;

// What the generic handlers saw: calls per method and the last decoded params, re-encoded.
struct Recorder {
  std::map<std::string, int> calls;
  std::map<std::string, json> params;
};

// Registers a recording handler for every message of the direction; requests answer their
// default-constructed Result.
template <class Direction>
void register_all(rpckit::Router<Direction>& router, Recorder& recorder) {
  auto add = [&]<class M>() {
    if constexpr (M::kKind == MessageKind::kRequest) {
      router.template on<M>([&recorder](const typename M::Params& p) {
        recorder.calls[std::string(M::kMethod)]++;
        recorder.params[std::string(M::kMethod)] = json(p);
        return typename M::Result{};
      });
    } else {
      router.template on<M>([&recorder](const typename M::Params& p) {
        recorder.calls[std::string(M::kMethod)]++;
        recorder.params[std::string(M::kMethod)] = json(p);
      });
    }
  };
  for_each_in(typename Direction::Messages{}, add);
}

std::string status_name(Status s) {
  switch (s) {
    case Status::kOk: return "kOk";
    case Status::kUnknownMethod: return "kUnknownMethod";
    case Status::kNoHandler: return "kNoHandler";
    case Status::kInvalidParams: return "kInvalidParams";
  }
  return "?";
}

// Routes every valid example envelope of the direction's messages and checks that the typed
// handler of that method, and only it, got the decoded params.
template <class Direction>
void route_every_example() {
  rpckit::Router<Direction> router;
  Recorder recorder;
  register_all(router, recorder);
  std::map<std::string, int> routed;
  std::size_t total = 0;
  for (const auto& file : message_fixture_files()) {
    const std::string method = file.stem().string();
    if (!Direction::find(method)) continue;
    const json fixture = load_json(file);
    for (const json& envelope : fixture.at("envelopes")) {
      SCOPED_TRACE(envelope.dump());
      const json* params = envelope.contains("params") ? &envelope["params"] : nullptr;
      const int calls_before = recorder.calls[method];
      RouteResult r = router.route(envelope.at("method").get<std::string>(), params);
      ASSERT_EQ(status_name(r.status), "kOk") << r.error;
      EXPECT_TRUE(r.error.empty());
      EXPECT_EQ(recorder.calls[method], calls_before + 1);
      Direction::visit(method, [&]<class M>() {
        EXPECT_EQ(r.request, M::kKind == MessageKind::kRequest);
        EXPECT_EQ(recorder.params[method], json(rpckit::decode_params<M>(params)));
        if constexpr (M::kKind == MessageKind::kRequest) {
          EXPECT_EQ(r.result, json(typename M::Result{}));
        } else {
          EXPECT_TRUE(r.result.is_null());
        }
      });
      routed[method]++;
      ++total;
    }
  }
  // Every method of the direction was routed, and no handler was called for anything else.
  EXPECT_EQ(routed.size(), Direction::kMethods.size());
  int calls = 0;
  for (const auto& [method, n] : recorder.calls) calls += n;
  EXPECT_EQ(static_cast<std::size_t>(calls), total);
  EXPECT_GT(total, 0u);
}

TEST(Router, HostToPluginRoutesEveryExample) { route_every_example<sn::HostToPlugin>(); }
TEST(Router, PluginToHostRoutesEveryExample) { route_every_example<sn::PluginToHost>(); }

// Hand-written typed handlers: the values arrive decoded and the results leave encoded.
TEST(Router, TypedHandlersSeeTypedParamsAndReturnTypedResults) {
  rpckit::Router<sn::HostToPlugin> plugin;
  std::vector<std::string> stopped;
  plugin.on<msg::OnStreamStop>(
      [&](const sn::OnStreamStopParams& p) { stopped.push_back(p.channel_id); });
  plugin.on<msg::Ping>([](const sn::PingParams&) { return sn::PingResult{}; });
  plugin.on<msg::Shutdown>([](const sn::ShutdownParams&) { return nullptr; });
  plugin.on<msg::Initialize>([](const sn::InitializeParams& p) {
    sn::InitializeResult r;
    r.plugin_version = "0.3.1";
    for (const auto& e : p.granted.events) {
      if (e.is_known()) r.hooks.emplace_back(e.wire());
    }
    return r;
  });
  plugin.on<msg::InvokeAction>([](const sn::InvokeActionParams& p) -> rpckit::JsonValue {
    // Direct-initialised: copy-initialising a JsonValue from a json trips g++'s -Wconversion
    // (JsonValue's converting constructor vs json's conversion operator; see the report).
    if (p.action == "drops.claim-all") return rpckit::JsonValue(json{{"ok", true}});
    return rpckit::JsonValue(json{{"declined", true}});
  });

  json stop = {{"channel_id", "71092938"}, {"reason", "user"}};
  RouteResult r = plugin.route("on_stream_stop", &stop);
  EXPECT_EQ(r.status, Status::kOk);
  EXPECT_FALSE(r.request);
  EXPECT_EQ(stopped, std::vector<std::string>{"71092938"});

  json empty = json::object();
  r = plugin.route("ping", &empty);
  EXPECT_EQ(r.status, Status::kOk);
  EXPECT_TRUE(r.request);
  EXPECT_EQ(r.result, json::object());

  r = plugin.route("shutdown", nullptr);
  EXPECT_EQ(r.status, Status::kOk);
  EXPECT_TRUE(r.request);
  EXPECT_TRUE(r.result.is_null());  // shutdown answers null

  json init = json::parse(R"({"protocol_version":1,"host_version":"7.8.6","plugin_id":"p",
      "granted":{"events":["on_stream_stop","on_raid"],"host_methods":[],"credentials":[],
      "ui":[]},"data_dir":"/d","log_dir":"/l"})");
  r = plugin.route("initialize", &init);
  EXPECT_EQ(r.status, Status::kOk);
  EXPECT_EQ(r.result, json::parse(R"({"plugin_version":"0.3.1","hooks":["on_stream_stop"]})"));

  json action = {{"action", "drops.claim-all"}};
  r = plugin.route("invoke_action", &action);
  EXPECT_EQ(r.result, json::parse(R"({"ok":true})"));

  rpckit::Router<sn::PluginToHost> host;
  host.on<msg::Notify>([](const sn::NotifyParams& p) {
    EXPECT_EQ(p.level_or_default(), sn::NotifyLevel::kInfo);
    EXPECT_EQ(p.message, "hi");
    return sn::NotifyResult{};
  });
  host.on<msg::GetCredential>([](const sn::GetCredentialParams& p) {
    sn::Credential c;
    c.kind = p.kind;
    c.token = "t";
    return c;
  });
  json notify = {{"message", "hi"}};
  r = host.route("notify", &notify);
  EXPECT_EQ(r.status, Status::kOk);
  EXPECT_TRUE(r.request);
  EXPECT_EQ(r.result, json::object());
  json credential = {{"kind", "twitch.android"}};
  r = host.route("get_credential", &credential);
  EXPECT_EQ(r.result, json::parse(R"({"kind":"twitch.android","token":"t","client_id":null,
                                      "user_id":null,"device_id":null,"expires_at":null})"));
}

TEST(Router, UnknownMethod) {
  rpckit::Router<sn::HostToPlugin> router;
  Recorder recorder;
  register_all(router, recorder);
  json params = json::object();
  for (std::string_view method : {"nope", "Ping", "", "initialise",
                                  // plugin->host methods are unknown to what a plugin receives
                                  "notify", "log", "get_followed_live"}) {
    SCOPED_TRACE(std::string(method));
    RouteResult r = router.route(method, &params);
    EXPECT_EQ(r.status, Status::kUnknownMethod);
    EXPECT_EQ(r.error, "unknown method \"" + std::string(method) + "\"");
    EXPECT_FALSE(r.request);
    EXPECT_TRUE(r.result.is_null());
    EXPECT_FALSE(router.has_handler(method));
  }
  EXPECT_TRUE(recorder.calls.empty());

  rpckit::Router<sn::PluginToHost> host;
  RouteResult r = host.route("ping", &params);
  EXPECT_EQ(r.status, Status::kUnknownMethod);
  EXPECT_EQ(r.error, "unknown method \"ping\"");
}

TEST(Router, NoHandler) {
  rpckit::Router<sn::HostToPlugin> router;
  router.on<msg::Ping>([](const sn::PingParams&) { return sn::PingResult{}; });
  EXPECT_TRUE(router.has_handler("ping"));
  json params = json::object();
  int checked = 0;
  auto check = [&]<class M>() {
    if (M::kMethod == "ping") return;
    SCOPED_TRACE(M::kMethod);
    EXPECT_FALSE(router.has_handler(M::kMethod));
    RouteResult r = router.route(M::kMethod, &params);
    EXPECT_EQ(r.status, Status::kNoHandler);
    EXPECT_EQ(r.error, "no handler for \"" + std::string(M::kMethod) + "\"");
    EXPECT_EQ(r.request, M::kKind == MessageKind::kRequest) << "the flag is set even here";
    EXPECT_TRUE(r.result.is_null());
    ++checked;
  };
  for_each_in(sn::HostToPlugin::Messages{}, check);
  EXPECT_EQ(checked, 13);
}

TEST(Router, InvalidParams) {
  rpckit::Router<sn::HostToPlugin> router;
  Recorder recorder;
  register_all(router, recorder);
  struct Case {
    std::string method;
    json params;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"on_stream_stop", {{"channel_id", 71092938}},
       "on_stream_stop: params.channel_id: expected string, got integer"},
      {"on_stream_stop", json::object(), "on_stream_stop: params.channel_id: missing required field"},
      {"on_stream_stop", json::array(), "on_stream_stop: params: expected object, got array"},
      {"on_stream_stop", json(), "on_stream_stop: params: expected object, got null"},
      {"initialize", json(), "initialize: params: expected object, got null"},
      {"ping", json(0), "ping: params: expected object, got integer"},
      {"shutdown", json("now"), "shutdown: params: expected object, got string"},
      {"on_watch_tick", {{"active_channel_id", nullptr}, {"ts", "2024-05-18 14:03:11"}},
       "on_watch_tick: params.ts: expected an RFC 3339 date-time"},
      {"on_panel_change", json::parse(R"({"values":{"weird key":["a",1]}})"),
       R"(on_panel_change: params.values["weird key"][1]: expected string, got integer)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.method + " " + c.params.dump());
    RouteResult r = router.route(c.method, &c.params);
    EXPECT_EQ(r.status, Status::kInvalidParams);
    EXPECT_EQ(r.error, c.error);
    EXPECT_TRUE(r.result.is_null());
    EXPECT_EQ(r.request, c.method == "initialize" || c.method == "ping" || c.method == "shutdown");
  }
  EXPECT_TRUE(recorder.calls.empty()) << "no handler runs on invalid params";
}

TEST(Router, AbsentAndNullParams) {
  rpckit::Router<sn::HostToPlugin> router;
  Recorder recorder;
  register_all(router, recorder);
  const json null;
  // initialized, ping, shutdown, exit accept absent and null params (spec 9.1).
  for (std::string_view method : {"initialized", "ping", "shutdown", "exit"}) {
    SCOPED_TRACE(std::string(method));
    EXPECT_EQ(router.route(method, nullptr).status, Status::kOk);
    EXPECT_EQ(router.route(method, &null).status, Status::kOk);
    EXPECT_EQ(recorder.calls[std::string(method)], 2);
    EXPECT_EQ(recorder.params[std::string(method)], json::object());
  }
  // Everything else requires them.
  for (std::string_view method : {"initialize", "invoke_action", "on_stream_start",
                                  "on_settings_change", "on_panel_change"}) {
    SCOPED_TRACE(std::string(method));
    RouteResult r = router.route(method, nullptr);
    EXPECT_EQ(r.status, Status::kInvalidParams);
    EXPECT_EQ(r.error, std::string(method) + ": params: missing required field");
  }
  rpckit::Router<sn::PluginToHost> host;
  Recorder host_recorder;
  register_all(host, host_recorder);
  RouteResult r = host.route("get_followed_live", nullptr);
  EXPECT_EQ(r.status, Status::kInvalidParams);
  EXPECT_EQ(r.error, "get_followed_live: params: missing required field");
  EXPECT_TRUE(r.request);
  r = host.route("log", &null);
  EXPECT_EQ(r.status, Status::kInvalidParams);
  EXPECT_EQ(r.error, "log: params: expected object, got null");
  EXPECT_FALSE(r.request);
  EXPECT_TRUE(host_recorder.calls.empty());
}

// A handler's own exceptions are the caller's business: they propagate, even a DecodeError
// (e.g. from decoding invoke_action's free-form args), and are not turned into kInvalidParams.
TEST(Router, HandlerExceptionsPropagate) {
  rpckit::Router<sn::HostToPlugin> router;
  router.on<msg::InvokeAction>([](const sn::InvokeActionParams&) -> rpckit::JsonValue {
    throw rpckit::codec::DecodeError("args.stream_id", "missing required field");
  });
  router.on<msg::OnStreamStop>(
      [](const sn::OnStreamStopParams&) { throw std::runtime_error("handler failed"); });
  json action = {{"action", "playback.resolve"}, {"args", json::object()}};
  try {
    (void)router.route("invoke_action", &action);
    ADD_FAILURE() << "no exception";
  } catch (const rpckit::codec::DecodeError& e) {
    EXPECT_STREQ(e.what(), "args.stream_id: missing required field");
  }
  json stop = {{"channel_id", "1"}};
  EXPECT_THROW((void)router.route("on_stream_stop", &stop), std::runtime_error);
  // Invalid params are still reported, not thrown, and the handler does not run.
  json bad = {{"channel_id", 1}};
  RouteResult r;
  EXPECT_NO_THROW(r = router.route("on_stream_stop", &bad));
  EXPECT_EQ(r.status, Status::kInvalidParams);
}

TEST(Router, LaterRegistrationReplacesTheHandler) {
  rpckit::Router<sn::PluginToHost> router;
  std::string seen;
  router.on<msg::Log>([&](const sn::LogParams&) { seen = "first"; });
  router.on<msg::Log>([&](const sn::LogParams& p) { seen = "second " + std::string(p.level_or_default().wire()); });
  json params = {{"message", "x"}};
  EXPECT_EQ(router.route("log", &params).status, Status::kOk);
  EXPECT_EQ(seen, "second info");
}

// Direction lookups used by the router, for every method and for one of the other direction.
TEST(Router, FindAndVisitEveryMethod) {
  std::size_t i = 0;
  for (std::string_view method : sn::HostToPlugin::kMethods) {
    SCOPED_TRACE(std::string(method));
    EXPECT_EQ(sn::HostToPlugin::find(method), i);
    std::string_view visited;
    EXPECT_TRUE(sn::HostToPlugin::visit(method, [&]<class M>() { visited = M::kMethod; }));
    EXPECT_EQ(visited, method);
    EXPECT_FALSE(sn::PluginToHost::find(method).has_value());
    EXPECT_FALSE(sn::PluginToHost::visit(method, [&]<class M>() { ADD_FAILURE(); }));
    ++i;
  }
  EXPECT_EQ(i, 14u);
  i = 0;
  for (std::string_view method : sn::PluginToHost::kMethods) {
    SCOPED_TRACE(std::string(method));
    EXPECT_EQ(sn::PluginToHost::find(method), i);
    std::string_view visited;
    EXPECT_TRUE(sn::PluginToHost::visit(method, [&]<class M>() { visited = M::kMethod; }));
    EXPECT_EQ(visited, method);
    EXPECT_FALSE(sn::HostToPlugin::find(method).has_value());
    EXPECT_FALSE(sn::HostToPlugin::visit(method, [&]<class M>() { ADD_FAILURE(); }));
    ++i;
  }
  EXPECT_EQ(i, 8u);
  // A plugin->host method asked of the host->plugin direction: not found, fn not called.
  bool called = false;
  EXPECT_FALSE(sn::HostToPlugin::visit("notify", [&]<class M>() { called = true; }));
  EXPECT_FALSE(called);
  EXPECT_FALSE(sn::HostToPlugin::find("notify").has_value());
}

}  // namespace
}  // namespace dispatch_test
