// The 22 message descriptors against spec sections 2, 4, 5 and 9: method, kind, direction,
// params presence, result type, capability gate, errors, deadline; and the two directions.
#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "support.hpp"
#include "streamnook_v1/constants.hpp"
#include "streamnook_v1/dispatch.hpp"
#include "streamnook_v1/messages.hpp"
#include "streamnook_v1/profile.hpp"

namespace bindings_test {
namespace {

namespace sn = streamnook::v1;
namespace msg = streamnook::v1::messages;
using namespace std::chrono_literals;
using rpckit::GateClause;
using rpckit::MessageKind;
using rpckit::ParamsPresence;
using sn::ErrorCode;
using sn::Role;

// ---- params and result types (spec 2, 4, 5) -----------------------------------------------

template <class M>
constexpr bool kHasResult = requires { typename M::Result; };

// The profile: spec sections 1 (framing, cap), 2 (lifecycle), 9.1 (ids).
static_assert(sn::Profile::kFraming == rpckit::framing::Framing::kContentLength);
static_assert(sn::Profile::kMaxFrameBytes == 4u * 1024u * 1024u);
static_assert(sn::Profile::kMaxJsonDepth == 256u);
static_assert(sn::Profile::kSentIds == rpckit::IdKind::kInteger);
static_assert(rpckit::contains(sn::Profile::kAcceptedIds, rpckit::IdKind::kString));
static_assert(!rpckit::contains(sn::Profile::kAcceptedIds, rpckit::IdKind::kNull));
static_assert(sn::Profile::kSpawned == sn::Role::kPlugin);
static_assert(std::is_same_v<sn::Profile::Handshake, msg::Initialize>);
static_assert(std::is_same_v<sn::Profile::HandshakeDone, msg::Initialized>);
static_assert(std::is_same_v<sn::Profile::HealthCheck, msg::Ping>);
static_assert(std::is_same_v<sn::Profile::Shutdown, msg::Shutdown>);
static_assert(std::is_same_v<sn::Profile::Exit, msg::Exit>);
static_assert(sn::Profile::kGrantMember == "granted");
static_assert(sn::Profile::kStopsOnStdinEof && sn::Profile::kStopsOnExit &&
              !sn::Profile::kStopsOnSigterm);
static_assert(!sn::Profile::kErrorObjects.code_optional);

static_assert(std::is_same_v<msg::Initialize::Params, sn::InitializeParams>);
static_assert(std::is_same_v<msg::Initialize::Result, sn::InitializeResult>);
static_assert(std::is_same_v<msg::Initialized::Params, sn::InitializedParams>);
static_assert(!kHasResult<msg::Initialized>);
static_assert(std::is_same_v<msg::Ping::Params, sn::PingParams>);
static_assert(std::is_same_v<msg::Ping::Result, sn::PingResult>);
static_assert(std::is_same_v<msg::Shutdown::Params, sn::ShutdownParams>);
static_assert(std::is_same_v<msg::Shutdown::Result, std::nullptr_t>);  // answers null
static_assert(std::is_same_v<msg::Exit::Params, sn::ExitParams>);
static_assert(!kHasResult<msg::Exit>);
static_assert(std::is_same_v<msg::InvokeAction::Params, sn::InvokeActionParams>);
static_assert(std::is_same_v<msg::InvokeAction::Result, rpckit::JsonValue>);  // action-specific
static_assert(std::is_same_v<msg::OnStreamStart::Params, sn::OnStreamStartParams>);
static_assert(std::is_same_v<msg::OnStreamStop::Params, sn::OnStreamStopParams>);
static_assert(std::is_same_v<msg::OnChannelChange::Params, sn::OnChannelChangeParams>);
static_assert(std::is_same_v<msg::OnWatchTick::Params, sn::OnWatchTickParams>);
static_assert(std::is_same_v<msg::OnFollowedLive::Params, sn::OnFollowedLiveParams>);
static_assert(std::is_same_v<msg::OnChatMessage::Params, sn::OnChatMessageParams>);
static_assert(std::is_same_v<msg::OnSettingsChange::Params, sn::OnSettingsChangeParams>);
static_assert(std::is_same_v<msg::OnPanelChange::Params, sn::OnPanelChangeParams>);
static_assert(!kHasResult<msg::OnStreamStart> && !kHasResult<msg::OnStreamStop> &&
              !kHasResult<msg::OnChannelChange> && !kHasResult<msg::OnWatchTick> &&
              !kHasResult<msg::OnFollowedLive> && !kHasResult<msg::OnChatMessage> &&
              !kHasResult<msg::OnSettingsChange> && !kHasResult<msg::OnPanelChange>);
static_assert(std::is_same_v<msg::GetFollowedLive::Params, sn::GetFollowedLiveParams>);
static_assert(std::is_same_v<msg::GetFollowedLive::Result, sn::GetFollowedLiveResult>);
static_assert(std::is_same_v<msg::SetUpstream::Params, sn::SetUpstreamParams>);
static_assert(std::is_same_v<msg::SetUpstream::Result, sn::SetUpstreamResult>);
static_assert(std::is_same_v<msg::GetCredential::Params, sn::GetCredentialParams>);
static_assert(std::is_same_v<msg::GetCredential::Result, sn::Credential>);
static_assert(std::is_same_v<msg::Notify::Params, sn::NotifyParams>);
static_assert(std::is_same_v<msg::Notify::Result, sn::NotifyResult>);
static_assert(std::is_same_v<msg::Log::Params, sn::LogParams>);
static_assert(!kHasResult<msg::Log>);
static_assert(std::is_same_v<msg::RegisterPanel::Params, sn::RegisterPanelParams>);
static_assert(std::is_same_v<msg::RegisterPanel::Result, sn::RegisterPanelResult>);
static_assert(std::is_same_v<msg::GetPanelValues::Params, sn::GetPanelValuesParams>);
static_assert(std::is_same_v<msg::GetPanelValues::Result, sn::GetPanelValuesResult>);
static_assert(std::is_same_v<msg::SetStatus::Params, sn::SetStatusParams>);
static_assert(!kHasResult<msg::SetStatus>);

// ---- the table ----------------------------------------------------------------------------

struct Gate {
  GateClause::Kind kind;
  std::string_view list;
  std::string_view value;
  std::string_view param;
};

struct Row {
  MessageKind kind;
  Role from;
  ParamsPresence presence;
  std::vector<Gate> gate;
  std::vector<ErrorCode> errors;
  std::optional<std::chrono::milliseconds> deadline;  // only where the schema sets one
};

constexpr auto kReq = MessageKind::kRequest;
constexpr auto kNote = MessageKind::kNotification;
constexpr auto kValue = GateClause::Kind::kGrantedValue;
constexpr auto kParam = GateClause::Kind::kGrantedParam;
constexpr auto kDeclared = GateClause::Kind::kDeclaredParam;

Gate event(std::string_view name) { return {kValue, "events", name, ""}; }
Gate host_method(std::string_view name) { return {kValue, "host_methods", name, ""}; }
const Gate kUiPanel{kValue, "ui", "panel", ""};

const std::map<std::string_view, Row>& spec_table() {
  static const std::map<std::string_view, Row> table = {
      // Lifecycle (spec 2; 9.1 params; 9.2 and 9.8 errors).
      {"initialize",
       {kReq, Role::kHost, ParamsPresence::kRequired, {}, {ErrorCode::kInvalidRequest}, 10s}},
      {"initialized", {kNote, Role::kHost, ParamsPresence::kOptionalSendEmpty, {}, {}, {}}},
      {"ping", {kReq, Role::kHost, ParamsPresence::kOptionalSendEmpty, {}, {}, 30s}},
      {"shutdown", {kReq, Role::kHost, ParamsPresence::kOptionalOmit, {}, {}, {}}},
      {"exit", {kNote, Role::kHost, ParamsPresence::kOptionalOmit, {}, {}, {}}},
      {"invoke_action",
       {kReq,
        Role::kHost,
        ParamsPresence::kRequired,
        {{kDeclared, "contributes.actions", "", "action"}},
        {ErrorCode::kMethodNotFound},
        30s}},
      // Events (spec 4).
      {"on_stream_start",
       {kNote, Role::kHost, ParamsPresence::kRequired, {event("on_stream_start")}, {}, {}}},
      {"on_stream_stop",
       {kNote, Role::kHost, ParamsPresence::kRequired, {event("on_stream_stop")}, {}, {}}},
      {"on_channel_change",
       {kNote, Role::kHost, ParamsPresence::kRequired, {event("on_channel_change")}, {}, {}}},
      {"on_watch_tick",
       {kNote, Role::kHost, ParamsPresence::kRequired, {event("on_watch_tick")}, {}, {}}},
      {"on_followed_live",
       {kNote, Role::kHost, ParamsPresence::kRequired, {event("on_followed_live")}, {}, {}}},
      {"on_chat_message",
       {kNote, Role::kHost, ParamsPresence::kRequired, {event("on_chat_message")}, {}, {}}},
      {"on_settings_change",
       {kNote, Role::kHost, ParamsPresence::kRequired, {event("on_settings_change")}, {}, {}}},
      {"on_panel_change",
       {kNote, Role::kHost, ParamsPresence::kRequired, {event("on_panel_change"), kUiPanel}, {},
        {}}},
      // Host methods (spec 5; 9.3, 9.4).
      {"get_followed_live",
       {kReq, Role::kPlugin, ParamsPresence::kRequired, {host_method("get_followed_live")},
        {ErrorCode::kCapabilityDenied}, {}}},
      {"set_upstream",
       {kReq, Role::kPlugin, ParamsPresence::kRequired, {host_method("set_upstream")},
        {ErrorCode::kCapabilityDenied, ErrorCode::kUnknownStream}, {}}},
      {"get_credential",
       {kReq,
        Role::kPlugin,
        ParamsPresence::kRequired,
        {{kParam, "credentials", "", "kind"}},
        {ErrorCode::kCapabilityDenied, ErrorCode::kConsentDenied,
         ErrorCode::kCredentialUnavailable},
        120s}},
      {"notify",
       {kReq, Role::kPlugin, ParamsPresence::kRequired, {host_method("notify")},
        {ErrorCode::kCapabilityDenied, ErrorCode::kRateLimited}, {}}},
      {"log", {kNote, Role::kPlugin, ParamsPresence::kRequired, {host_method("log")}, {}, {}}},
      {"register_panel",
       {kReq, Role::kPlugin, ParamsPresence::kRequired, {kUiPanel},
        {ErrorCode::kCapabilityDenied, ErrorCode::kInvalidParams}, {}}},
      {"get_panel_values",
       {kReq, Role::kPlugin, ParamsPresence::kRequired, {kUiPanel},
        {ErrorCode::kCapabilityDenied}, {}}},
      {"set_status",
       {kNote,
        Role::kPlugin,
        ParamsPresence::kRequired,
        {{kDeclared, "contributes.status", "", "slot"}},
        {},
        {}}},
  };
  return table;
}

template <class M>
std::optional<std::chrono::milliseconds> deadline_of() {
  if constexpr (requires { M::kDeadline; }) {
    return M::kDeadline;
  } else {
    return std::nullopt;
  }
}

// The deadline a caller applies: the descriptor's, else default_request_timeout_ms
// (schema/README.md: "absent = default_request_timeout_ms").
template <class M>
std::chrono::milliseconds effective_deadline() {
  return deadline_of<M>().value_or(sn::kDefaultRequestTimeoutMs);
}

TEST(Descriptors, EveryMessageMatchesTheSpec) {
  std::size_t checked = 0;
  for_each_message([&]<class M>() {
    SCOPED_TRACE(M::kMethod);
    auto it = spec_table().find(M::kMethod);
    ASSERT_NE(it, spec_table().end()) << "not in the spec table";
    const Row& row = it->second;
    EXPECT_EQ(M::kKind, row.kind);
    EXPECT_EQ(M::kFrom, row.from);
    EXPECT_EQ(M::kTo, row.from == Role::kHost ? Role::kPlugin : Role::kHost);
    EXPECT_EQ(M::kParamsPresence, row.presence);
    EXPECT_EQ(kHasResult<M>, row.kind == kReq) << "requests and only requests have a Result";

    ASSERT_EQ(M::kGate.size(), row.gate.size());
    for (std::size_t i = 0; i < row.gate.size(); ++i) {
      SCOPED_TRACE("gate clause " + std::to_string(i));
      EXPECT_EQ(M::kGate[i].kind, row.gate[i].kind);
      EXPECT_EQ(M::kGate[i].list, row.gate[i].list);
      EXPECT_EQ(M::kGate[i].value, row.gate[i].value);
      EXPECT_EQ(M::kGate[i].param, row.gate[i].param);
    }
    std::vector<ErrorCode> errors(M::kErrors.begin(), M::kErrors.end());
    EXPECT_TRUE(errors == row.errors);

    if constexpr (M::kKind == kReq) {
      // Every request has one: x-deadline, else the protocol's default_request_timeout_ms.
      EXPECT_EQ(deadline_of<M>(), row.deadline.value_or(sn::kDefaultRequestTimeoutMs));
    } else {
      EXPECT_FALSE(deadline_of<M>().has_value()) << "a notification has no deadline";
    }
    ++checked;
  });
  EXPECT_EQ(checked, 22u);
  EXPECT_EQ(spec_table().size(), 22u);
}

TEST(Descriptors, DeadlinesMatchTheConstants) {
  EXPECT_EQ(msg::Initialize::kDeadline, sn::kHandshakeTimeoutMs);
  EXPECT_EQ(msg::Ping::kDeadline, sn::kPingIntervalMs);
  EXPECT_EQ(msg::InvokeAction::kDeadline, sn::kInvokeActionTimeoutMs);
  EXPECT_EQ(msg::GetCredential::kDeadline, sn::kCredentialConsentTimeoutMs);
  // Requests without x-deadline carry the protocol's default (x-default-deadline).
  EXPECT_EQ(msg::Shutdown::kDeadline, sn::kDefaultRequestTimeoutMs);
  EXPECT_EQ(effective_deadline<msg::Shutdown>(), 30s);
  EXPECT_EQ(effective_deadline<msg::GetFollowedLive>(), 30s);
  EXPECT_EQ(effective_deadline<msg::Notify>(), 30s);
  EXPECT_EQ(effective_deadline<msg::GetCredential>(), 120s);
}

TEST(Descriptors, Directions) {
  EXPECT_EQ(sn::HostToPlugin::kFrom, Role::kHost);
  EXPECT_EQ(sn::HostToPlugin::kTo, Role::kPlugin);
  EXPECT_EQ(sn::PluginToHost::kFrom, Role::kPlugin);
  EXPECT_EQ(sn::PluginToHost::kTo, Role::kHost);
  EXPECT_EQ(sn::to_string(Role::kHost), "host");
  EXPECT_EQ(sn::to_string(Role::kPlugin), "plugin");
  static_assert(sn::HostToPlugin::Messages::kSize == 14);
  static_assert(sn::PluginToHost::Messages::kSize == 8);

  const std::vector<std::string_view> host_to_plugin = {
      "initialize",        "initialized",       "ping",          "shutdown",
      "exit",              "invoke_action",     "on_stream_start", "on_stream_stop",
      "on_channel_change", "on_watch_tick",     "on_followed_live", "on_chat_message",
      "on_settings_change", "on_panel_change"};
  const std::vector<std::string_view> plugin_to_host = {
      "get_followed_live", "set_upstream", "get_credential", "notify",
      "log",               "register_panel", "get_panel_values", "set_status"};
  EXPECT_EQ(std::vector<std::string_view>(sn::HostToPlugin::kMethods.begin(),
                                          sn::HostToPlugin::kMethods.end()),
            host_to_plugin);
  EXPECT_EQ(std::vector<std::string_view>(sn::PluginToHost::kMethods.begin(),
                                          sn::PluginToHost::kMethods.end()),
            plugin_to_host);

  // Messages, kMethods and each descriptor agree; each message is in one direction only.
  std::size_t index = 0;
  auto check = [&]<class M>() {
    SCOPED_TRACE(M::kMethod);
    EXPECT_EQ(M::kFrom, Role::kHost);
    EXPECT_EQ(sn::HostToPlugin::kMethods[index], M::kMethod);
    EXPECT_EQ(sn::HostToPlugin::find(M::kMethod), index);
    EXPECT_FALSE(sn::PluginToHost::find(M::kMethod).has_value());
    std::string_view visited;
    EXPECT_TRUE(sn::HostToPlugin::visit(M::kMethod, [&]<class V>() { visited = V::kMethod; }));
    EXPECT_EQ(visited, M::kMethod);
    ++index;
  };
  for_each_in(sn::HostToPlugin::Messages{}, check);
  EXPECT_EQ(index, 14u);
}

TEST(Descriptors, PluginToHostAgreesWithItsMessages) {
  std::size_t index = 0;
  auto check = [&]<class M>() {
    SCOPED_TRACE(M::kMethod);
    EXPECT_EQ(M::kFrom, Role::kPlugin);
    EXPECT_EQ(sn::PluginToHost::kMethods[index], M::kMethod);
    EXPECT_EQ(sn::PluginToHost::find(M::kMethod), index);
    EXPECT_FALSE(sn::HostToPlugin::find(M::kMethod).has_value());
    std::string_view visited;
    EXPECT_TRUE(sn::PluginToHost::visit(M::kMethod, [&]<class V>() { visited = V::kMethod; }));
    EXPECT_EQ(visited, M::kMethod);
    ++index;
  };
  for_each_in(sn::PluginToHost::Messages{}, check);
  EXPECT_EQ(index, 8u);
}

TEST(Descriptors, FindAndVisitAreConstexpr) {
  static_assert(sn::HostToPlugin::find("ping") == std::optional<std::size_t>{2});
  static_assert(!sn::HostToPlugin::find("notify").has_value());
  static_assert(!sn::HostToPlugin::find("Ping").has_value());
  static_assert(!sn::HostToPlugin::find("").has_value());
  static_assert(sn::PluginToHost::find("set_status") == std::optional<std::size_t>{7});
  constexpr bool found = sn::HostToPlugin::visit("exit", []<class M>() {});
  constexpr bool not_found = sn::HostToPlugin::visit("log", []<class M>() {});
  static_assert(found && !not_found);
}

// ---- encode_params (spec 9.1: what a sender sends) ----------------------------------------

TEST(Descriptors, EncodeParamsFollowsThePresencePolicy) {
  EXPECT_EQ(rpckit::encode_params<msg::Ping>(sn::PingParams{}), json::object());
  EXPECT_EQ(rpckit::encode_params<msg::Initialized>(sn::InitializedParams{}), json::object());
  EXPECT_EQ(rpckit::encode_params<msg::Shutdown>(sn::ShutdownParams{}), std::nullopt);
  EXPECT_EQ(rpckit::encode_params<msg::Exit>(sn::ExitParams{}), std::nullopt);
  sn::NotifyParams notify;
  notify.message = "hi";
  EXPECT_EQ(rpckit::encode_params<msg::Notify>(notify), json::parse(R"({"message":"hi"})"));
  EXPECT_EQ(rpckit::encode_params<msg::GetFollowedLive>(sn::GetFollowedLiveParams{}),
            json::object());
}

}  // namespace
}  // namespace bindings_test
