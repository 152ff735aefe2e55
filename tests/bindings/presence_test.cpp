// Absent vs null vs present (DESIGN.md "Type mapping"), per kind of field, and the
// *_or_default() accessors of fields with a schema default.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "support.hpp"
#include "streamnook_v1/messages.hpp"
#include "streamnook_v1/types.hpp"

namespace bindings_test {
namespace {

namespace sn = streamnook::v1;
namespace msg = streamnook::v1::messages;

// The three shapes map to distinct C++ types.
static_assert(std::is_same_v<decltype(sn::OnStreamStopParams::channel_id), std::string>);
static_assert(std::is_same_v<decltype(sn::NotifyParams::level), std::optional<sn::NotifyLevel>>);
static_assert(std::is_same_v<decltype(sn::Channel::game_id), rpckit::Nullable<std::string>>);
static_assert(std::is_same_v<decltype(sn::Channel::viewer_count), rpckit::Nullable<std::int64_t>>);
static_assert(std::is_same_v<decltype(sn::ChatMessage::bits), rpckit::Nullable<std::uint32_t>>);
static_assert(std::is_same_v<decltype(sn::OnSettingsChangeParams::keys),
                             std::optional<std::vector<std::string>>>);
static_assert(std::is_same_v<decltype(sn::InvokeActionParams::args),
                             std::optional<rpckit::JsonValue>>);
static_assert(std::is_same_v<decltype(sn::SetStatusParams::value), rpckit::JsonValue>);

// ---- required, not nullable ---------------------------------------------------------------

TEST(Presence, RequiredStringMissingNullPresent) {
  using M = msg::OnStreamStop;
  EXPECT_EQ(params_error<M>(json::object()), "params.channel_id: missing required field");
  EXPECT_EQ(params_error<M>(json{{"channel_id", nullptr}}),
            "params.channel_id: expected string, got null");
  auto p = params_of<M>(json::parse(R"({"channel_id":"71092938"})"));
  EXPECT_EQ(p.channel_id, "71092938");
  // An empty string is a value, not an absence.
  EXPECT_EQ(params_of<M>(json::parse(R"({"channel_id":""})")).channel_id, "");
  EXPECT_EQ(encode(sn::OnStreamStopParams{}), json::parse(R"({"channel_id":""})"));
}

TEST(Presence, RequiredNestedFieldsOfEveryJsonKind) {
  // Nested in a struct of a struct: the path names the member.
  json channel = json::parse(R"({"channel_id":"1","login":"a","display_name":"A","game_id":null,
                                 "game_name":null,"started_at":null,"viewer_count":null})");
  channel.erase("login");
  EXPECT_EQ(params_error<msg::OnStreamStart>(json{{"channel", channel}}),
            "params.channel.login: missing required field");
  channel["login"] = nullptr;
  EXPECT_EQ(params_error<msg::OnStreamStart>(json{{"channel", channel}}),
            "params.channel.login: expected string, got null");
  // object, array, integer, boolean, enum
  EXPECT_EQ(params_error<msg::OnStreamStart>(json{{"channel", nullptr}}),
            "params.channel: expected object, got null");
  EXPECT_EQ(params_error<msg::OnFollowedLive>(json{{"channels", nullptr}}),
            "params.channels: expected array, got null");
  json init = encode(sn::InitializeParams{});
  init["host_version"] = "7.8.6";
  init["protocol_version"] = nullptr;
  EXPECT_EQ(params_error<msg::Initialize>(init),
            "params.protocol_version: expected integer, got null");
  EXPECT_EQ(params_error<msg::GetCredential>(json{{"kind", nullptr}}),
            "params.kind: expected string, got null");
  json chat = encode(sn::ChatMessage{});
  chat["ts"] = "2024-05-18T14:05:00Z";
  chat["is_action"] = nullptr;
  EXPECT_EQ(params_error<msg::OnChatMessage>(json{{"channel", "xqc"}, {"message", chat}}),
            "params.message.is_action: expected boolean, got null");
}

// A required member of type "any JSON": null is one of its values, only absence is an error.
TEST(Presence, RequiredAnyJson) {
  using M = msg::SetStatus;
  EXPECT_EQ(params_error<M>(json{{"slot", "relay.health"}}), "params.value: missing required field");
  auto p = params_of<M>(json::parse(R"({"slot":"relay.health","value":null})"));
  EXPECT_TRUE(p.value.is_null());
  EXPECT_EQ(encode(p), json::parse(R"({"slot":"relay.health","value":null})"));
  p = params_of<M>(json::parse(R"({"slot":"relay.bitrate","value":6000.5})"));
  EXPECT_EQ(p.value.get(), json(6000.5));
}

// ---- optional, not nullable ---------------------------------------------------------------

TEST(Presence, OptionalAbsentStaysAbsent) {
  using M = msg::Notify;
  auto p = params_of<M>(json::parse(R"({"message":"x"})"));
  EXPECT_FALSE(p.level.has_value());
  json out = encode(p);
  EXPECT_FALSE(out.contains("level")) << "an absent optional member is not emitted";
  EXPECT_EQ(out, json::parse(R"({"message":"x"})"));
}

TEST(Presence, OptionalNullIsAnError) {
  EXPECT_EQ(params_error<msg::Notify>(json::parse(R"({"level":null,"message":"x"})")),
            "params.level: expected string, got null");
  EXPECT_EQ(params_error<msg::OnSettingsChange>(json::parse(R"({"keys":null})")),
            "params.keys: expected array, got null");
  EXPECT_EQ(decode_error<sn::PanelSection>(json::parse(R"({"label":"S","description":null,
                                                          "fields":[]})")),
            "value.description: expected string, got null");
}

TEST(Presence, OptionalPresentStaysPresent) {
  auto p = params_of<msg::Notify>(json::parse(R"({"level":"error","message":"x"})"));
  ASSERT_TRUE(p.level.has_value());
  EXPECT_EQ(*p.level, sn::NotifyLevel::kError);
  EXPECT_EQ(encode(p), json::parse(R"({"level":"error","message":"x"})"));
  // An empty list is present, not absent.
  auto s = params_of<msg::OnSettingsChange>(json::parse(R"({"keys":[]})"));
  ASSERT_TRUE(s.keys.has_value());
  EXPECT_TRUE(s.keys->empty());
  EXPECT_EQ(encode(s), json::parse(R"({"keys":[]})"));
  EXPECT_EQ(encode(sn::OnSettingsChangeParams{}), json::object());
}

// invoke_action's args is optional and of type "any JSON", so it has three states on the
// wire, kept apart: absent (nullopt), null (a JsonValue holding null), a value.
TEST(Presence, OptionalAnyJsonKeepsAbsentNullAndValueApart) {
  using M = msg::InvokeAction;
  auto absent = params_of<M>(json::parse(R"({"action":"drops.claim-all"})"));
  auto null = params_of<M>(json::parse(R"({"action":"drops.claim-all","args":null})"));
  auto value = params_of<M>(json::parse(R"({"action":"drops.claim-all","args":{}})"));
  EXPECT_FALSE(absent.args.has_value());
  ASSERT_TRUE(null.args.has_value());
  EXPECT_TRUE(null.args->is_null());
  ASSERT_TRUE(value.args.has_value());
  EXPECT_EQ(value.args->get(), json::object());
  EXPECT_FALSE(absent == null);
  EXPECT_FALSE(null == value);
  EXPECT_EQ(encode(absent), json::parse(R"({"action":"drops.claim-all"})"));
  EXPECT_EQ(encode(null), json::parse(R"({"action":"drops.claim-all","args":null})"));
  EXPECT_EQ(encode(value), json::parse(R"({"action":"drops.claim-all","args":{}})"));
}

// ---- nullable, required -------------------------------------------------------------------

TEST(Presence, NullableNullStaysNull) {
  json tick = json::parse(R"({"active_channel_id":null,"ts":"2024-05-18T14:03:11Z"})");
  auto p = rpckit::decode_params<msg::OnWatchTick>(&tick);
  EXPECT_TRUE(p.active_channel_id.is_null());
  EXPECT_EQ(p.active_channel_id, std::nullopt);
  json out = encode(p);
  ASSERT_TRUE(out.contains("active_channel_id")) << "a null nullable member is emitted";
  EXPECT_TRUE(out["active_channel_id"].is_null());
  EXPECT_EQ(out, tick);
}

TEST(Presence, NullableMissingIsAnError) {
  EXPECT_EQ(params_error<msg::OnWatchTick>(json::parse(R"({"ts":"2024-05-18T14:03:11Z"})")),
            "params.active_channel_id: missing required field");
  json chat = encode(sn::ChatMessage{});
  chat["ts"] = "2024-05-18T14:05:00Z";
  chat.erase("bits");
  EXPECT_EQ(params_error<msg::OnChatMessage>(json{{"channel", "xqc"}, {"message", chat}}),
            "params.message.bits: missing required field");
}

TEST(Presence, NullablePresentStaysPresent) {
  json tick = json::parse(R"({"active_channel_id":"71092938","ts":"2024-05-18T14:03:11Z"})");
  auto p = rpckit::decode_params<msg::OnWatchTick>(&tick);
  ASSERT_TRUE(p.active_channel_id.has_value());
  EXPECT_EQ(*p.active_channel_id, "71092938");
  EXPECT_EQ(encode(p), tick);
  // A present nullable still has its type checked and its constraints applied.
  tick["active_channel_id"] = 71092938;
  EXPECT_EQ(params_error<msg::OnWatchTick>(tick),
            "params.active_channel_id: expected string, got integer");
  json channel = encode(sn::Channel{});
  channel["started_at"] = "yesterday";
  EXPECT_EQ(decode_error<sn::Channel>(channel), "value.started_at: expected an RFC 3339 date-time");
  channel["started_at"] = nullptr;
  channel["viewer_count"] = 0;
  auto c = decode_as<sn::Channel>(channel);
  EXPECT_EQ(c.viewer_count, std::int64_t{0}) << "0 is a value, not null";
  EXPECT_TRUE(c.started_at.is_null());
}

// ---- optional + nullable ------------------------------------------------------------------

// No field of the StreamNook schema is optional and nullable at once (spec 9.9: only "where
// the schema says so", and it never does; the only absent-or-null things are the params of
// initialized/ping/shutdown/exit, handled by kParamsPresence below). The generator tests cover
// std::optional<rpckit::Nullable<T>> with a fixture of their own; here the codec pieces it is
// built from are checked directly.
TEST(Presence, NoOptionalNullableFieldInTheStreamNookSchema) {
  const std::string header = read_text(source_dir() / "generated" / "streamnook_v1" / "types.hpp");
  EXPECT_NE(header.find("rpckit::Nullable<"), std::string::npos);
  EXPECT_EQ(header.find("std::optional<rpckit::Nullable<"), std::string::npos);
}

TEST(Presence, CodecKeepsOptionalNullableApart) {
  std::optional<rpckit::Nullable<std::string>> field;
  rpckit::codec::DecodePath path("value");
  rpckit::codec::decode_optional(json::object(), "x", field, path);
  EXPECT_FALSE(field.has_value());
  rpckit::codec::decode_optional(json::parse(R"({"x":null})"), "x", field, path);
  ASSERT_TRUE(field.has_value());
  EXPECT_TRUE(field->is_null());
  rpckit::codec::decode_optional(json::parse(R"({"x":"v"})"), "x", field, path);
  ASSERT_TRUE(field.has_value());
  EXPECT_EQ(*field, std::string("v"));

  json out = json::object();
  rpckit::codec::encode_optional(out, "absent", std::optional<rpckit::Nullable<std::string>>{});
  rpckit::codec::encode_optional(out, "null",
                                 std::optional<rpckit::Nullable<std::string>>{rpckit::Nullable<std::string>{}});
  rpckit::codec::encode_optional(out, "value", field);
  EXPECT_EQ(out, json::parse(R"({"null":null,"value":"v"})"));
}

// ---- absent / null params (spec 9.1) ------------------------------------------------------

TEST(Presence, OptionalParamsAcceptAbsentNullAndEmpty) {
  int checked = 0;
  for_each_message([&]<class M>() {
    if (M::kParamsPresence == rpckit::ParamsPresence::kRequired) return;
    SCOPED_TRACE(M::kMethod);
    const json null;
    const json empty = json::object();
    EXPECT_EQ(rpckit::decode_params<M>(nullptr), typename M::Params{});
    EXPECT_EQ(rpckit::decode_params<M>(&null), typename M::Params{});
    EXPECT_EQ(rpckit::decode_params<M>(&empty), typename M::Params{});
    EXPECT_EQ(params_error<M>(json::array()), "params: expected object, got array");
    ++checked;
  });
  EXPECT_EQ(checked, 4);  // initialized, ping, shutdown, exit
}

TEST(Presence, RequiredParamsRejectAbsentAndNull) {
  int checked = 0;
  for_each_message([&]<class M>() {
    if (M::kParamsPresence != rpckit::ParamsPresence::kRequired) return;
    SCOPED_TRACE(M::kMethod);
    EXPECT_EQ(params_error<M>(nullptr), "params: missing required field");
    EXPECT_EQ(params_error<M>(json()), "params: expected object, got null");
    ++checked;
  });
  EXPECT_EQ(checked, 18);
}

// ---- unknown fields (spec 8, 9.6) ---------------------------------------------------------

// Unknown members of any JSON kind, at every level (params, nested struct, array item, union
// member, map value, manifest sections), are ignored on decode and not re-emitted.
TEST(UnknownFields, IgnoredAtEveryLevel) {
  const json unknowns = json::parse(R"({"x_obj":{"a":[1,{"b":null}]},"x_null":null,
                                        "x_arr":[],"x_num":1.5,"x_str":"s","x_bool":true})");
  auto with_unknowns = [&](json j) {
    for (auto it = unknowns.begin(); it != unknowns.end(); ++it) j[it.key()] = it.value();
    return j;
  };

  // OnFollowedLiveParams.channels[3] (a Channel inside an array inside params) and params.
  const json channel = json::parse(R"({"channel_id":"1","login":"a","display_name":"A",
      "game_id":null,"game_name":null,"started_at":null,"viewer_count":null})");
  json clean = json{{"channels", {channel, channel, channel, channel}}};
  json noisy = clean;
  noisy["channels"][3] = with_unknowns(channel);
  noisy["channels"][3]["favorite"] = true;
  noisy = with_unknowns(noisy);
  auto live = params_of<msg::OnFollowedLive>(noisy);
  EXPECT_EQ(live, params_of<msg::OnFollowedLive>(clean));
  EXPECT_EQ(encode(live), clean);

  // ChatMessage.badges[i], inside OnChatMessageParams.message.
  json chat = encode(sn::ChatMessage{});
  chat["ts"] = "2024-05-18T14:05:00Z";
  chat["badges"] = json::parse(R"([{"name":"vip","version":"1"}])");
  json noisy_chat = with_unknowns(chat);
  noisy_chat["badges"][0] = with_unknowns(chat["badges"][0]);
  auto message = params_of<msg::OnChatMessage>(json{{"channel", "c"}, {"message", noisy_chat}});
  EXPECT_EQ(encode(message), (json{{"channel", "c"}, {"message", chat}}));

  // Inside a tagged-union member and a map value. "default_" (the C++ member's name) is not
  // the wire key "default": it is unknown too.
  json field = json::parse(R"({"key":"k","type":"toggle","label":"K"})");
  json noisy_field = with_unknowns(field);
  noisy_field["default_"] = true;
  auto panel = decode_as<sn::PanelField>(noisy_field);
  EXPECT_FALSE(std::get<sn::ToggleField>(panel.value).default_.has_value());
  EXPECT_EQ(encode(panel), field);
  json ref = json::parse(R"({"channel_id":"1","channel_login":"a","display_name":"A"})");
  auto values = params_of<msg::OnPanelChange>(json{{"values", {{"c", {with_unknowns(ref)}}}}});
  EXPECT_EQ(encode(values), (json{{"values", {{"c", {ref}}}}}));

  // Grant and manifest.
  json granted = encode(sn::Granted{});
  auto g = decode_as<sn::Granted>(with_unknowns(granted));
  EXPECT_EQ(encode(g), granted);
  json manifest = json::parse(R"({"id":"io.github.alice.x","name":"X","version":"1.0.0",
      "author":"A","tier":"A","description":"","host_min":"7.8.0",
      "runtime":{"kind":"process","entry":"x"},"capabilities":{},"contributes":{}})");
  json noisy_manifest = with_unknowns(manifest);
  noisy_manifest["runtime"] = with_unknowns(manifest["runtime"]);
  noisy_manifest["capabilities"] = with_unknowns(json::object());
  noisy_manifest["contributes"] = with_unknowns(json::object());
  EXPECT_EQ(encode(decode_as<sn::Manifest>(noisy_manifest, "")), manifest);

  // Results too.
  auto result = decode_as<sn::GetFollowedLiveResult>(with_unknowns(clean), "result");
  EXPECT_EQ(encode(result), clean);
}

// ---- *_or_default() -----------------------------------------------------------------------

TEST(OrDefault, NotifyAndLogLevelDefaultToInfo) {
  auto notify = params_of<msg::Notify>(json::parse(R"({"message":"x"})"));
  EXPECT_EQ(notify.level_or_default(), sn::NotifyLevel::kInfo);
  EXPECT_FALSE(notify.level.has_value()) << "the accessor does not fill the member in";
  EXPECT_EQ(encode(notify), json::parse(R"({"message":"x"})"));
  notify.level = sn::NotifyLevel::kError;
  EXPECT_EQ(notify.level_or_default(), sn::NotifyLevel::kError);
  // An unknown level is a present value: it is returned, not replaced by the default.
  notify.level = sn::NotifyLevel::from_wire("critical");
  EXPECT_EQ(notify.level_or_default().wire(), "critical");

  auto log = params_of<msg::Log>(json::parse(R"({"message":"x"})"));
  EXPECT_EQ(log.level_or_default(), sn::LogLevel::kInfo);
  // Not the first value, which is what a default-constructed LogLevel holds.
  EXPECT_EQ(sn::LogLevel{}, sn::LogLevel::kDebug);
  EXPECT_NE(log.level_or_default(), sn::LogLevel{});
  log.level = sn::LogLevel::kDebug;
  EXPECT_EQ(log.level_or_default(), sn::LogLevel::kDebug);
}

TEST(OrDefault, ManifestLists) {
  auto runtime = decode_as<sn::ManifestRuntime>(json::parse(R"({"kind":"process","entry":"x"})"));
  EXPECT_EQ(runtime.args_or_default(), std::vector<std::string>{});
  EXPECT_EQ(runtime.transport_or_default(), sn::RuntimeTransport::kStdio);
  EXPECT_FALSE(runtime.args.has_value());
  EXPECT_FALSE(runtime.transport.has_value());
  runtime.args = std::vector<std::string>{"--stdio"};
  EXPECT_EQ(runtime.args_or_default(), std::vector<std::string>{"--stdio"});

  sn::ManifestCapabilities caps = decode_as<sn::ManifestCapabilities>(json::object());
  EXPECT_TRUE(caps.events_or_default().empty());
  EXPECT_TRUE(caps.host_methods_or_default().empty());
  EXPECT_TRUE(caps.credentials_or_default().empty());
  EXPECT_TRUE(caps.ui_or_default().empty());
  EXPECT_EQ(caps.network_or_default(), sn::NetworkAccess::kNone);
  caps.network = sn::NetworkAccess::kExternal;
  EXPECT_EQ(caps.network_or_default(), sn::NetworkAccess::kExternal);
  caps.events = std::vector<sn::EventName>{sn::EventName::kOnWatchTick};
  EXPECT_EQ(caps.events_or_default(), std::vector<sn::EventName>{sn::EventName::kOnWatchTick});

  sn::ManifestContributes contributes = decode_as<sn::ManifestContributes>(json::object());
  EXPECT_TRUE(contributes.actions_or_default().empty());
  EXPECT_TRUE(contributes.status_or_default().empty());
  EXPECT_TRUE(contributes.provides_or_default().empty());
  contributes.status = std::vector<std::string>{"drops.status"};
  EXPECT_EQ(contributes.status_or_default(), std::vector<std::string>{"drops.status"});
  EXPECT_EQ(encode(contributes), json::parse(R"({"status":["drops.status"]})"));
}

}  // namespace
}  // namespace bindings_test
