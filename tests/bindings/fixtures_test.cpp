// Every example payload in tests/fixtures/examples/ through the generated bindings, driven
// generically from the files: <method>.json is mapped to its descriptor with
// HostToPlugin::visit / PluginToHost::visit, params are decoded with rpckit::decode_params<M>
// (absent/null params per M::kParamsPresence), results into M::Result, and everything is
// re-encoded and compared with its input minus the unknown fields, which must be dropped.
//
// Invalid examples: every one is listed below with what the bindings do with it, so that a
// new fixture, or a decoder that gets stricter or looser, fails here until it is looked at.
#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support.hpp"
#include "streamnook_v1/types.hpp"

namespace bindings_test {
namespace {

namespace sn = streamnook::v1;

// ---- unknown fields ---------------------------------------------------------------------

// Every member of a valid example that the re-encoding drops, i.e. every unknown field in the
// valid examples (spec 8 / 9.6: unknown fields are ignored, so they are not re-emitted).
// A known field that got lost would show up here too: the list must match exactly.
const std::set<std::string> kExpectedDropped = {
    "get_credential.results[2].scopes",
    "get_followed_live.envelopes[1].params.include_offline",
    "get_followed_live.results[0].channels[1].favorite",
    "get_panel_values.results[0].values.channels[1].avatar",
    "initialize.envelopes[1].params.session_nonce",
    "initialize.results[2].features",
    "initialized.envelopes[3].params.ready_at",
    "log.envelopes[4].params.target",
    "notify.envelopes[3].params.sticky",
    "on_channel_change.envelopes[1].params.display_name",
    "on_chat_message.envelopes[4].params.message.reply_parent_msg_id",
    "on_followed_live.envelopes[0].params.channels[1].favorite",
    "on_followed_live.envelopes[0].params.channels[3].favorite",
    "on_panel_change.envelopes[0].params.values.channels[1].avatar",
    "on_stream_start.envelopes[1].params.channel.favorite",
    "on_stream_start.envelopes[3].params.channel.favorite",
    "on_stream_stop.envelopes[1].params.reason",
    "ping.results[1].uptime_ms",
    "register_panel.envelopes[0].params.schema.sections[1].fields[3].default[1].avatar",
    "register_panel.envelopes[0].params.schema.sections[2].collapsed",
    "register_panel.envelopes[0].params.schema.sections[2].fields[3].hint",
};

// ---- valid examples -----------------------------------------------------------------------

struct Tally {
  std::size_t envelopes = 0;
  std::size_t results = 0;
  std::set<std::string> methods;
  std::vector<std::string> dropped;
};

// Decodes, re-encodes and compares one valid envelope of message M.
template <class M>
void check_envelope(const json& envelope, const std::string& where, Tally& tally) {
  SCOPED_TRACE(where);
  ASSERT_EQ(envelope.value("method", ""), M::kMethod);
  const json* params = nullptr;
  if (auto it = envelope.find("params"); it != envelope.end()) params = &*it;

  typename M::Params decoded{};
  try {
    decoded = rpckit::decode_params<M>(params);
  } catch (const rpckit::codec::DecodeError& e) {
    FAIL() << "valid params failed to decode: " << e.what();
  }

  if (params == nullptr || params->is_null()) {
    // Only messages whose params may be absent or null (spec 9.1) have such examples, and they
    // decode to the default (empty) params.
    EXPECT_NE(M::kParamsPresence, rpckit::ParamsPresence::kRequired);
    EXPECT_EQ(decoded, typename M::Params{});
  } else {
    json reencoded = encode(decoded);
    JsonDiff diff = diff_json(*params, reencoded, where + ".params");
    EXPECT_TRUE(diff.mismatches.empty()) << join(diff.mismatches);
    tally.dropped.insert(tally.dropped.end(), diff.dropped.begin(), diff.dropped.end());
    // Decoding the re-encoding gives the same value (nothing depends on the dropped fields).
    EXPECT_EQ(rpckit::decode_params<M>(&reencoded), decoded);
  }

  // What a sender of M puts on the wire for these params (spec 9.1).
  std::optional<json> sent = rpckit::encode_params<M>(decoded);
  if (M::kParamsPresence == rpckit::ParamsPresence::kOptionalOmit) {
    EXPECT_FALSE(sent.has_value());
  } else {
    ASSERT_TRUE(sent.has_value());
    EXPECT_EQ(*sent, encode(decoded));
  }
  ++tally.envelopes;
}

template <class M>
void check_result(const json& result, const std::string& where, Tally& tally) {
  SCOPED_TRACE(where);
  if constexpr (M::kKind == rpckit::MessageKind::kRequest) {
    using Result = typename M::Result;
    Result decoded{};
    try {
      decoded = decode_as<Result>(result, "result");
    } catch (const rpckit::codec::DecodeError& e) {
      FAIL() << "valid result failed to decode: " << e.what();
    }
    json reencoded = encode(decoded);
    JsonDiff diff = diff_json(result, reencoded, where);
    EXPECT_TRUE(diff.mismatches.empty()) << join(diff.mismatches);
    tally.dropped.insert(tally.dropped.end(), diff.dropped.begin(), diff.dropped.end());
    EXPECT_EQ(decode_as<Result>(reencoded, "result"), decoded);
    ++tally.results;
  } else {
    FAIL() << M::kMethod << " is a notification: its fixture cannot have results";
  }
}

TEST(Fixtures, EveryMessageHasAFixtureFile) {
  std::set<std::string> files;
  for (const auto& file : message_fixture_files()) files.insert(file.stem().string());
  std::set<std::string> methods;
  for_each_message([&]<class M>() { methods.insert(std::string(M::kMethod)); });
  EXPECT_EQ(methods.size(), 22u);
  EXPECT_EQ(files, methods);
}

TEST(Fixtures, EveryValidPayloadDecodesAndReencodes) {
  Tally tally;
  std::size_t envelopes_in_files = 0;
  std::size_t results_in_files = 0;
  for (const auto& file : message_fixture_files()) {
    const std::string method = file.stem().string();
    SCOPED_TRACE(file.filename().string());
    const json fixture = load_json(file);
    ASSERT_TRUE(fixture.contains("envelopes")) << "every message has valid examples";
    envelopes_in_files += fixture["envelopes"].size();
    results_in_files += fixture.value("results", json::array()).size();

    bool known = visit_message(method, [&]<class M>() {
      tally.methods.insert(std::string(M::kMethod));
      const json& envelopes = fixture["envelopes"];
      for (std::size_t i = 0; i < envelopes.size(); ++i) {
        check_envelope<M>(envelopes[i], method + ".envelopes[" + std::to_string(i) + "]",
                          tally);
      }
      if (fixture.contains("results")) {
        const json& results = fixture["results"];
        for (std::size_t i = 0; i < results.size(); ++i) {
          check_result<M>(results[i], method + ".results[" + std::to_string(i) + "]", tally);
        }
      }
    });
    EXPECT_TRUE(known) << method << ".json names no message of the protocol";
  }

  EXPECT_EQ(tally.methods.size(), 22u);
  EXPECT_GT(tally.envelopes, 0u);
  EXPECT_GT(tally.results, 0u);
  EXPECT_EQ(tally.envelopes, envelopes_in_files);
  EXPECT_EQ(tally.results, results_in_files);
  // Spelled out so that a change in the fixtures is noticed: 73 envelopes, 23 results.
  EXPECT_EQ(envelopes_in_files, 73u);
  EXPECT_EQ(results_in_files, 23u);

  std::set<std::string> dropped(tally.dropped.begin(), tally.dropped.end());
  EXPECT_EQ(dropped.size(), tally.dropped.size()) << "a path was reported twice";
  EXPECT_EQ(dropped, kExpectedDropped) << "dropped:\n  " << join({dropped.begin(), dropped.end()});
}

// The undocumented Channel.favorite the real host sends (spec 6) is dropped by name: it is
// not a member of Channel, and the re-encoding of every channel has exactly the 7 spec keys.
TEST(Fixtures, ChannelFavoriteIsDropped) {
  const json fixture = load_json(examples_dir() / "on_followed_live.json");
  const json& channels = fixture["envelopes"][0]["params"]["channels"];
  ASSERT_EQ(channels.size(), 4u);
  ASSERT_TRUE(channels[1].contains("favorite"));
  ASSERT_TRUE(channels[3].contains("favorite"));
  auto params = rpckit::decode_params<sn::messages::OnFollowedLive>(
      &fixture["envelopes"][0]["params"]);
  ASSERT_EQ(params.channels.size(), 4u);
  EXPECT_EQ(params.channels[1].display_name, "加藤純一");
  EXPECT_EQ(params.channels[3].viewer_count, std::int64_t{0});
  json out = encode(params);
  for (std::size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    EXPECT_FALSE(out["channels"][i].contains("favorite"));
    EXPECT_EQ(out["channels"][i].size(), 7u);
    json expected = channels[i];
    expected.erase("favorite");
    EXPECT_EQ(out["channels"][i], expected);
  }
}

// ---- invalid examples ---------------------------------------------------------------------

enum class Expect {
  kFails,          // the decoder rejects it; `detail` is the exact DecodeError::what()
  kUnknownMethod,  // the method is not in either direction: rejected before any params decode
  kEnvelopeOnly,   // params are fine; the envelope (jsonrpc, id) is what is invalid, which is
                   // the endpoint's business, not the bindings'
  kOpenByDesign,   // the schema rejects it but the decoder accepts it on purpose; `detail` says why
};

struct Expectation {
  std::string_view file;
  std::string_view why;
  Expect expect;
  std::string_view detail;
};

constexpr std::string_view kOpenEnum =
    "enums are open (DESIGN.md): an unknown value decodes to kUnknown and re-encodes intact; "
    "the schema's enum is closed, so ajv rejects it";
constexpr std::string_view kOpenUnion =
    "new panel field types / value kinds are additive (spec 6): an unknown shape is kept whole "
    "as the rpckit::JsonValue alternative";
constexpr std::string_view kRequestWithoutId =
    "a request without id (or with a bad id) is an envelope error";
constexpr std::string_view kBadJsonrpc = "jsonrpc member is not \"2.0\" or missing";

// What the bindings do with each "invalid" example of the message fixtures.
const std::vector<Expectation> kInvalid = {
    // exit
    {"exit", "params is a number", Expect::kFails, "params: expected object, got integer"},
    {"exit", "method names are case-sensitive", Expect::kUnknownMethod, ""},
    {"exit", "params is an array", Expect::kFails, "params: expected object, got array"},
    // get_credential
    {"get_credential", "unknown credential kind", Expect::kOpenByDesign, kOpenEnum},
    {"get_credential", "whitespace-padded kind", Expect::kOpenByDesign, kOpenEnum},
    {"get_credential", "kind missing", Expect::kFails, "params.kind: missing required field"},
    {"get_credential", "params missing", Expect::kFails, "params: missing required field"},
    // get_followed_live
    {"get_followed_live", "params missing", Expect::kFails, "params: missing required field"},
    {"get_followed_live", "params null", Expect::kFails, "params: expected object, got null"},
    {"get_followed_live", "a request needs an id", Expect::kEnvelopeOnly, kRequestWithoutId},
    // get_panel_values
    {"get_panel_values", "params missing", Expect::kFails, "params: missing required field"},
    {"get_panel_values", "params is an array", Expect::kFails,
     "params: expected object, got array"},
    // initialize
    {"initialize", "granted missing", Expect::kFails, "params.granted: missing required field"},
    {"initialize", "data_dir missing", Expect::kFails,
     "params.data_dir: missing required field"},
    {"initialize", "log_dir missing", Expect::kFails, "params.log_dir: missing required field"},
    {"initialize", "plugin_id missing", Expect::kFails,
     "params.plugin_id: missing required field"},
    {"initialize", "protocol_version is a string", Expect::kFails,
     "params.protocol_version: expected integer, got string"},
    {"initialize", "protocol_version is not an integer", Expect::kFails,
     "params.protocol_version: expected integer, got number"},
    {"initialize", "host_version is not semver", Expect::kFails,
     "params.host_version: expected a string matching "
     R"(^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-(0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*)?(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$)"},
    {"initialize", "unknown event in granted.events", Expect::kOpenByDesign, kOpenEnum},
    {"initialize", "unknown credential kind in grant", Expect::kOpenByDesign, kOpenEnum},
    {"initialize", "granted.ui missing", Expect::kFails,
     "params.granted.ui: missing required field"},
    {"initialize", "initialize params are required", Expect::kFails,
     "params: expected object, got null"},
    {"initialize", "a request needs an id", Expect::kEnvelopeOnly, kRequestWithoutId},
    {"initialize", "id null", Expect::kEnvelopeOnly, kRequestWithoutId},
    {"initialize", "fractional id", Expect::kEnvelopeOnly, kRequestWithoutId},
    {"initialize", "jsonrpc is not 2.0", Expect::kEnvelopeOnly, kBadJsonrpc},
    {"initialize", "wrong method name", Expect::kUnknownMethod, ""},
    // initialized
    {"initialized", "params is an array", Expect::kFails, "params: expected object, got array"},
    {"initialized", "params is a string", Expect::kFails, "params: expected object, got string"},
    {"initialized", "wrong method name", Expect::kUnknownMethod, ""},
    {"initialized", "jsonrpc missing", Expect::kEnvelopeOnly, kBadJsonrpc},
    // invoke_action
    {"invoke_action", "action missing", Expect::kFails, "params.action: missing required field"},
    {"invoke_action", "action is not a string", Expect::kFails,
     "params.action: expected string, got integer"},
    {"invoke_action", "params missing", Expect::kFails, "params: missing required field"},
    {"invoke_action", "a request needs an id", Expect::kEnvelopeOnly, kRequestWithoutId},
    // log
    {"log", "unknown level", Expect::kOpenByDesign, kOpenEnum},
    {"log", "message is a number", Expect::kFails, "params.message: expected string, got integer"},
    {"log", "message missing", Expect::kFails, "params.message: missing required field"},
    {"log", "params missing", Expect::kFails, "params: missing required field"},
    // notify
    {"notify", "debug is a log level, not a notify level", Expect::kOpenByDesign, kOpenEnum},
    {"notify", "unknown level", Expect::kOpenByDesign, kOpenEnum},
    {"notify", "level is not nullable", Expect::kFails, "params.level: expected string, got null"},
    {"notify", "message missing", Expect::kFails, "params.message: missing required field"},
    {"notify", "notify is a request: id needed", Expect::kEnvelopeOnly, kRequestWithoutId},
    // on_channel_change
    {"on_channel_change", "login missing", Expect::kFails, "params.login: missing required field"},
    {"on_channel_change", "channel_id missing", Expect::kFails,
     "params.channel_id: missing required field"},
    // on_chat_message
    {"on_chat_message", "bits below 0", Expect::kFails,
     "params.message.bits: expected integer in [0, 4294967295], got -1"},
    {"on_chat_message", "bits above u32", Expect::kFails,
     "params.message.bits: expected integer in [0, 4294967295], got 4294967296"},
    {"on_chat_message", "badges missing", Expect::kFails,
     "params.message.badges: missing required field"},
    {"on_chat_message", "color is required even when null", Expect::kFails,
     "params.message.color: missing required field"},
    {"on_chat_message", "is_action is a string", Expect::kFails,
     "params.message.is_action: expected boolean, got string"},
    {"on_chat_message", "badge without version", Expect::kFails,
     "params.message.badges[0].version: missing required field"},
    {"on_chat_message", "ts without time zone", Expect::kFails,
     "params.message.ts: expected an RFC 3339 date-time"},
    {"on_chat_message", "channel missing", Expect::kFails, "params.channel: missing required field"},
    {"on_chat_message", "id missing (it is \"\" for own messages)", Expect::kFails,
     "params.message.id: missing required field"},
    // on_followed_live
    {"on_followed_live", "channels is null", Expect::kFails,
     "params.channels: expected array, got null"},
    {"on_followed_live", "channels missing", Expect::kFails,
     "params.channels: missing required field"},
    {"on_followed_live", "a channel lacks display_name", Expect::kFails,
     "params.channels[1].display_name: missing required field"},
    {"on_followed_live", "channels is an object", Expect::kFails,
     "params.channels: expected array, got object"},
    // on_panel_change
    {"on_panel_change", "values missing", Expect::kFails, "params.values: missing required field"},
    {"on_panel_change", "a value is null", Expect::kOpenByDesign, kOpenUnion},
    {"on_panel_change", "a value is an object", Expect::kOpenByDesign, kOpenUnion},
    {"on_panel_change", "channel ref without channel_login", Expect::kFails,
     "params.values.channels[0].channel_login: missing required field"},
    {"on_panel_change", "a list mixing strings and numbers", Expect::kFails,
     "params.values.mixed[1]: expected string, got integer"},
    {"on_panel_change", "values is an array", Expect::kFails,
     "params.values: expected object, got array"},
    // on_settings_change
    {"on_settings_change", "keys is a string", Expect::kFails,
     "params.keys: expected array, got string"},
    {"on_settings_change", "keys holds a number", Expect::kFails,
     "params.keys[0]: expected string, got integer"},
    {"on_settings_change", "params missing", Expect::kFails, "params: missing required field"},
    {"on_settings_change", "params null", Expect::kFails, "params: expected object, got null"},
    // on_stream_start
    {"on_stream_start", "started_at is required (nullable, not optional)", Expect::kFails,
     "params.channel.started_at: missing required field"},
    {"on_stream_start", "viewer_count missing", Expect::kFails,
     "params.channel.viewer_count: missing required field"},
    {"on_stream_start", "started_at is not a date-time", Expect::kFails,
     "params.channel.started_at: expected an RFC 3339 date-time"},
    {"on_stream_start", "started_at has no time zone", Expect::kFails,
     "params.channel.started_at: expected an RFC 3339 date-time"},
    {"on_stream_start", "viewer_count is not an integer", Expect::kFails,
     "params.channel.viewer_count: expected integer, got number"},
    {"on_stream_start", "channel_id is a number", Expect::kFails,
     "params.channel.channel_id: expected string, got integer"},
    {"on_stream_start", "login is not nullable", Expect::kFails,
     "params.channel.login: expected string, got null"},
    {"on_stream_start", "channel is null", Expect::kFails,
     "params.channel: expected object, got null"},
    {"on_stream_start", "channel missing", Expect::kFails, "params.channel: missing required field"},
    // on_stream_stop
    {"on_stream_stop", "channel_id is not nullable", Expect::kFails,
     "params.channel_id: expected string, got null"},
    {"on_stream_stop", "channel_id missing", Expect::kFails,
     "params.channel_id: missing required field"},
    {"on_stream_stop", "channel_id is a number", Expect::kFails,
     "params.channel_id: expected string, got integer"},
    // on_watch_tick
    {"on_watch_tick", "active_channel_id is required even when null", Expect::kFails,
     "params.active_channel_id: missing required field"},
    {"on_watch_tick", "ts missing", Expect::kFails, "params.ts: missing required field"},
    {"on_watch_tick", "ts is not RFC 3339", Expect::kFails,
     "params.ts: expected an RFC 3339 date-time"},
    {"on_watch_tick", "ts is a number", Expect::kFails, "params.ts: expected string, got integer"},
    {"on_watch_tick", "active_channel_id is a number", Expect::kFails,
     "params.active_channel_id: expected string, got integer"},
    // ping
    {"ping", "a request needs an id", Expect::kEnvelopeOnly, kRequestWithoutId},
    {"ping", "params is a number", Expect::kFails, "params: expected object, got integer"},
    {"ping", "params is an array", Expect::kFails, "params: expected object, got array"},
    // register_panel
    {"register_panel", "empty title", Expect::kFails,
     "params.schema.title: expected at least 1 character, got 0"},
    {"register_panel", "title longer than 60", Expect::kFails,
     "params.schema.title: expected at most 60 characters, got 61"},
    {"register_panel", "more than 8 sections", Expect::kFails,
     "params.schema.sections: expected at most 8 items, got 9"},
    {"register_panel", "more than 24 fields in a section", Expect::kFails,
     "params.schema.sections[0].fields: expected at most 24 items, got 25"},
    {"register_panel", "key with uppercase and dash", Expect::kFails,
     "params.schema.sections[0].fields[0].key: expected a string matching ^[a-z0-9_]{1,40}$"},
    {"register_panel", "key longer than 40", Expect::kFails,
     "params.schema.sections[0].fields[0].key: expected a string matching ^[a-z0-9_]{1,40}$"},
    {"register_panel", "empty key", Expect::kFails,
     "params.schema.sections[0].fields[0].key: expected a string matching ^[a-z0-9_]{1,40}$"},
    {"register_panel", "select with no options", Expect::kFails,
     "params.schema.sections[0].fields[0].options: expected at least 1 item, got 0"},
    {"register_panel", "select without options", Expect::kFails,
     "params.schema.sections[0].fields[0].options: missing required field"},
    {"register_panel", "select option without label", Expect::kFails,
     "params.schema.sections[0].fields[0].options[0].label: missing required field"},
    {"register_panel", "unknown field type", Expect::kOpenByDesign, kOpenUnion},
    {"register_panel", "slider without step", Expect::kFails,
     "params.schema.sections[0].fields[0].step: missing required field"},
    {"register_panel", "toggle default is a string", Expect::kFails,
     "params.schema.sections[0].fields[0].default: expected boolean, got string"},
    {"register_panel", "number default is a string", Expect::kFails,
     "params.schema.sections[0].fields[0].default: expected number, got string"},
    {"register_panel", "string_list default is a string", Expect::kFails,
     "params.schema.sections[0].fields[0].default: expected array, got string"},
    {"register_panel", "channel_list default with an incomplete ref", Expect::kFails,
     "params.schema.sections[0].fields[0].default[0].channel_login: missing required field"},
    {"register_panel", "folder default null", Expect::kFails,
     "params.schema.sections[0].fields[0].default: expected string, got null"},
    {"register_panel", "field without label", Expect::kFails,
     "params.schema.sections[0].fields[0].label: missing required field"},
    {"register_panel", "field without key", Expect::kFails,
     "params.schema.sections[0].fields[0].key: missing required field"},
    {"register_panel", "section without fields", Expect::kFails,
     "params.schema.sections[0].fields: missing required field"},
    {"register_panel", "section without label", Expect::kFails,
     "params.schema.sections[0].label: missing required field"},
    {"register_panel", "schema without title", Expect::kFails,
     "params.schema.title: missing required field"},
    {"register_panel", "schema missing", Expect::kFails, "params.schema: missing required field"},
    // set_status
    {"set_status", "slot missing", Expect::kFails, "params.slot: missing required field"},
    {"set_status", "value missing (null must be sent explicitly)", Expect::kFails,
     "params.value: missing required field"},
    {"set_status", "slot is a number", Expect::kFails, "params.slot: expected string, got integer"},
    // set_upstream
    {"set_upstream", "not http/https", Expect::kFails,
     R"(params.playlist_url: expected a string matching ^https?://[^\s/?#]+([/?#]\S*)?$)"},
    {"set_upstream", "relative URL", Expect::kFails,
     R"(params.playlist_url: expected a string matching ^https?://[^\s/?#]+([/?#]\S*)?$)"},
    {"set_upstream", "URL without host", Expect::kFails,
     R"(params.playlist_url: expected a string matching ^https?://[^\s/?#]+([/?#]\S*)?$)"},
    {"set_upstream", "URL with a space", Expect::kFails,
     R"(params.playlist_url: expected a string matching ^https?://[^\s/?#]+([/?#]\S*)?$)"},
    {"set_upstream", "stream_id missing", Expect::kFails,
     "params.stream_id: missing required field"},
    {"set_upstream", "playlist_url missing", Expect::kFails,
     "params.playlist_url: missing required field"},
    // shutdown
    {"shutdown", "params is a string", Expect::kFails, "params: expected object, got string"},
    {"shutdown", "a request needs an id", Expect::kEnvelopeOnly, kRequestWithoutId},
    {"shutdown", "id is a boolean", Expect::kEnvelopeOnly, kRequestWithoutId},
};

// The "invalid_results" examples: results are decoded with the path root "result".
const std::vector<Expectation> kInvalidResults = {
    {"get_credential", "token missing", Expect::kFails, "result.token: missing required field"},
    {"get_credential", "device_id is required even when null", Expect::kFails,
     "result.device_id: missing required field"},
    {"get_credential", "expires_at is not a date-time", Expect::kFails,
     "result.expires_at: expected an RFC 3339 date-time"},
    {"get_credential", "result null", Expect::kFails, "result: expected object, got null"},
    {"get_followed_live", "channels missing", Expect::kFails,
     "result.channels: missing required field"},
    {"get_followed_live", "channel lacks game_id", Expect::kFails,
     "result.channels[0].game_id: missing required field"},
    {"get_panel_values", "values missing", Expect::kFails, "result.values: missing required field"},
    {"get_panel_values", "null value", Expect::kOpenByDesign, kOpenUnion},
    {"initialize", "hooks missing", Expect::kFails, "result.hooks: missing required field"},
    {"initialize", "plugin_version missing", Expect::kFails,
     "result.plugin_version: missing required field"},
    {"initialize", "hooks is not an array", Expect::kFails,
     "result.hooks: expected array, got string"},
    {"initialize", "result null", Expect::kFails, "result: expected object, got null"},
    {"ping", "result must be {} not null", Expect::kFails, "result: expected object, got null"},
    {"ping", "result is an array", Expect::kFails, "result: expected object, got array"},
    {"ping", "result is a string", Expect::kFails, "result: expected object, got string"},
    {"shutdown", "result must be null", Expect::kFails, "result: expected null, got object"},
    {"shutdown", "result must be null", Expect::kFails, "result: expected null, got integer"},
};

struct Actual {
  Expect kind;
  std::string text;
};

std::string_view expect_name(Expect e) {
  switch (e) {
    case Expect::kFails: return "Expect::kFails";
    case Expect::kUnknownMethod: return "Expect::kUnknownMethod";
    case Expect::kEnvelopeOnly: return "Expect::kEnvelopeOnly";
    case Expect::kOpenByDesign: return "Expect::kOpenByDesign";
  }
  return "?";
}

// Checks each actual outcome against the next expectation listed for (file, why): the lists
// above are in fixture order, so two examples with the same `why` are told apart by order.
class ExpectationChecker {
 public:
  explicit ExpectationChecker(const std::vector<Expectation>& expectations) {
    for (const Expectation& e : expectations) {
      pending_[{std::string(e.file), std::string(e.why)}].push_back(e);
    }
    total_ = expectations.size();
  }

  void check(const std::string& file, const std::string& why, const Actual& actual) {
    ++seen_;
    auto it = pending_.find({file, why});
    if (it == pending_.end() || it->second.empty()) {
      ADD_FAILURE() << "no expectation listed for " << file << ": \"" << why << "\"; actual: {\""
                    << file << "\", \"" << why << "\", " << expect_name(actual.kind) << ", \""
                    << actual.text << "\"},";
      return;
    }
    Expectation e = it->second.front();
    it->second.erase(it->second.begin());
    SCOPED_TRACE(file + ": " + why);
    if (e.expect == Expect::kEnvelopeOnly || e.expect == Expect::kOpenByDesign) {
      // Both decode; the listed reason is documentation.
      EXPECT_TRUE(actual.kind == Expect::kEnvelopeOnly || actual.kind == Expect::kOpenByDesign)
          << "expected to decode (" << e.detail << "), but: " << actual.text;
      return;
    }
    EXPECT_EQ(expect_name(actual.kind), expect_name(e.expect)) << actual.text;
    if (e.expect == Expect::kFails) {
      EXPECT_EQ(actual.text, e.detail);
    }
  }

  void finish() const {
    EXPECT_GT(seen_, 0u);
    EXPECT_EQ(seen_, total_) << "the table lists examples that are not in the fixtures";
    for (const auto& [key, rest] : pending_) {
      EXPECT_TRUE(rest.empty()) << "listed but not in the fixtures: " << key.first << ": \""
                                << key.second << "\"";
    }
  }

  std::size_t seen() const { return seen_; }

 private:
  std::map<std::pair<std::string, std::string>, std::vector<Expectation>> pending_;
  std::size_t total_ = 0;
  std::size_t seen_ = 0;
};

template <class M>
Actual decode_invalid_params(const json& envelope) {
  const json* params = nullptr;
  if (auto it = envelope.find("params"); it != envelope.end()) params = &*it;
  if (std::optional<std::string> error = params_error<M>(params)) {
    return {Expect::kFails, *error};
  }
  return {Expect::kOpenByDesign, "(decodes)"};
}

TEST(Fixtures, InvalidEnvelopesAreRejectedWhereTheBindingsCanTell) {
  ExpectationChecker checker(kInvalid);
  std::size_t in_files = 0;
  for (const auto& file : message_fixture_files()) {
    const std::string name = file.stem().string();
    const json fixture = load_json(file);
    for (const json& item : fixture.value("invalid", json::array())) {
      ++in_files;
      const json& envelope = item.at("envelope");
      const std::string why = item.at("why").get<std::string>();
      const std::string method = envelope.value("method", "");
      Actual actual{Expect::kUnknownMethod, "unknown method " + method};
      visit_message(method, [&]<class M>() { actual = decode_invalid_params<M>(envelope); });
      if (actual.kind == Expect::kUnknownMethod) {
        EXPECT_FALSE(streamnook::v1::HostToPlugin::find(method).has_value());
        EXPECT_FALSE(streamnook::v1::PluginToHost::find(method).has_value());
      }
      checker.check(name, why, actual);
    }
  }
  checker.finish();
  EXPECT_EQ(checker.seen(), in_files);
  EXPECT_EQ(in_files, 125u);
}

TEST(Fixtures, InvalidResultsAreRejected) {
  ExpectationChecker checker(kInvalidResults);
  std::size_t in_files = 0;
  for (const auto& file : message_fixture_files()) {
    const std::string method = file.stem().string();
    const json fixture = load_json(file);
    for (const json& item : fixture.value("invalid_results", json::array())) {
      ++in_files;
      const std::string why = item.at("why").get<std::string>();
      Actual actual{Expect::kUnknownMethod, "no such request"};
      visit_message(method, [&]<class M>() {
        if constexpr (M::kKind == rpckit::MessageKind::kRequest) {
          if (auto error = decode_error<typename M::Result>(item.at("result"), "result")) {
            actual = {Expect::kFails, *error};
          } else {
            actual = {Expect::kOpenByDesign, "(decodes)"};
          }
        }
      });
      checker.check(method, why, actual);
    }
  }
  checker.finish();
  EXPECT_EQ(checker.seen(), in_files);
  EXPECT_EQ(in_files, 17u);
}

// ---- manifest.json ------------------------------------------------------------------------

// The schema's x-error-messages texts (schema/manifest.json), said instead of the regexes.
constexpr std::string_view kVersionNotSemver =
    R"(version: expected a semantic version MAJOR.MINOR.PATCH (SemVer 2.0.0, e.g. "1.0.0"))";
constexpr std::string_view kHostMinNotSemver =
    R"(host_min: expected a semantic version MAJOR.MINOR.PATCH (SemVer 2.0.0, e.g. "1.0.0"))";
constexpr std::string_view kEntryNot =
    R"(runtime.entry: expected no ".." segment and no NUL character (the entry must stay inside )"
    R"(the plugin directory))";
constexpr std::string_view kEntryAbsolute =
    R"(runtime.entry: expected a path relative to the plugin directory, not an absolute path )"
    R"((no leading / or \, no drive letter "C:"))";
constexpr std::string_view kBadId =
    R"(id: expected a plugin id: lowercase letters and digits in dot-separated parts, "-" )"
    R"(allowed after the first dot (e.g. "dev.example.my-plugin"))";
#define RPCKIT_NOT_NAMESPACED                                                        \
  R"(expected a namespaced id feature.name (lowercase letters, digits and "-", )"    \
  R"(dot-separated, no "_", e.g. "drops.mine-auto"))"
constexpr std::string_view kActionNotNamespaced = "contributes.actions[0]: " RPCKIT_NOT_NAMESPACED;
constexpr std::string_view kStatusNotNamespaced = "contributes.status[0]: " RPCKIT_NOT_NAMESPACED;
constexpr std::string_view kProvidesNotNamespaced =
    "contributes.provides[0]: " RPCKIT_NOT_NAMESPACED;
#undef RPCKIT_NOT_NAMESPACED
constexpr std::string_view kInstallCheck =
    "enums are open (DESIGN.md) in the default decoder, also in the manifest: an unknown "
    "capability/tier/kind decodes to kUnknown. Spec 7 rejects unknown values at install (fail "
    "closed): the manifest loader decodes with strict enums (tests/manifest)";

// Manifests decode with an empty path root: "runtime.entry: ...".
const std::vector<Expectation> kInvalidManifests = {
    {"manifest", "id missing", Expect::kFails, "id: missing required field"},
    {"manifest", "id with uppercase and no dot", Expect::kFails,
     kBadId},
    {"manifest", "id without a dot", Expect::kFails,
     kBadId},
    {"manifest", "id with underscore", Expect::kFails,
     kBadId},
    {"manifest", "id longer than 64", Expect::kFails, "id: expected at most 64 characters, got 65"},
    {"manifest", "reserved app.streamnook. prefix", Expect::kFails,
     R"(id: expected an id outside the reserved prefix "app.streamnook.")"},
    {"manifest", "empty name", Expect::kFails, "name: expected at least 1 character, got 0"},
    {"manifest", "name longer than 40", Expect::kFails,
     "name: expected at most 40 characters, got 41"},
    {"manifest", "version is not MAJOR.MINOR.PATCH", Expect::kFails, kVersionNotSemver},
    {"manifest", "version with a v prefix", Expect::kFails, kVersionNotSemver},
    {"manifest", "version with a leading zero", Expect::kFails, kVersionNotSemver},
    {"manifest", "author missing", Expect::kFails, "author: missing required field"},
    {"manifest", "unknown tier", Expect::kOpenByDesign, kInstallCheck},
    {"manifest", "lowercase tier", Expect::kOpenByDesign, kInstallCheck},
    {"manifest", "description longer than 200", Expect::kFails,
     "description: expected at most 200 characters, got 201"},
    {"manifest", "description missing", Expect::kFails, "description: missing required field"},
    {"manifest", "homepage not https", Expect::kFails,
     "homepage: expected an https:// URL"},
    {"manifest", "homepage without a scheme", Expect::kFails,
     "homepage: expected an https:// URL"},
    {"manifest", "host_min is not semver", Expect::kFails, kHostMinNotSemver},
    {"manifest", "host_min missing", Expect::kFails, "host_min: missing required field"},
    {"manifest", "runtime missing", Expect::kFails, "runtime: missing required field"},
    {"manifest", "wasm runtime is reserved", Expect::kOpenByDesign, kInstallCheck},
    {"manifest", "runtime kind is case-sensitive", Expect::kOpenByDesign, kInstallCheck},
    {"manifest", "runtime kind missing", Expect::kFails, "runtime.kind: missing required field"},
    {"manifest", "socket transport is reserved", Expect::kOpenByDesign, kInstallCheck},
    {"manifest", "absolute POSIX entry", Expect::kFails, kEntryAbsolute},
    {"manifest", "absolute Windows entry", Expect::kFails, kEntryAbsolute},
    {"manifest", "UNC entry", Expect::kFails, kEntryAbsolute},
    {"manifest", "entry escaping with ..", Expect::kFails, kEntryNot},
    {"manifest", "entry with a .. segment", Expect::kFails, kEntryNot},
    {"manifest", "entry with a backslash .. segment", Expect::kFails, kEntryNot},
    {"manifest", "entry is ..", Expect::kFails, kEntryNot},
    {"manifest", "empty entry", Expect::kFails,
     "runtime.entry: expected at least 1 character, got 0"},
    {"manifest", "entry missing", Expect::kFails, "runtime.entry: missing required field"},
    {"manifest", "args is a string", Expect::kFails, "runtime.args: expected array, got string"},
    {"manifest", "duplicate event", Expect::kFails,
     "capabilities.events[1]: expected unique items (same as [0])"},
    {"manifest", "whitespace-padded event", Expect::kOpenByDesign, kInstallCheck},
    {"manifest", "trailing whitespace in event", Expect::kOpenByDesign, kInstallCheck},
    {"manifest", "empty event", Expect::kOpenByDesign, kInstallCheck},
    {"manifest", "unknown event", Expect::kOpenByDesign, kInstallCheck},
    {"manifest", "get_credential is not a host_methods capability", Expect::kOpenByDesign,
     kInstallCheck},
    {"manifest", "duplicate host method", Expect::kFails,
     "capabilities.host_methods[1]: expected unique items (same as [0])"},
    {"manifest", "unknown credential kind", Expect::kOpenByDesign, kInstallCheck},
    {"manifest", "credential kind is case-sensitive", Expect::kOpenByDesign, kInstallCheck},
    {"manifest", "unknown network access", Expect::kOpenByDesign, kInstallCheck},
    {"manifest", "unknown ui capability", Expect::kOpenByDesign, kInstallCheck},
    {"manifest", "duplicate ui capability", Expect::kFails,
     "capabilities.ui[1]: expected unique items (same as [0])"},
    {"manifest", "events is a string", Expect::kFails,
     "capabilities.events: expected array, got string"},
    {"manifest", "action id not namespaced", Expect::kFails,
     kActionNotNamespaced},
    {"manifest", "uppercase action id", Expect::kFails,
     kActionNotNamespaced},
    {"manifest", "action id with underscore (the real host refuses it)", Expect::kFails,
     kActionNotNamespaced},
    {"manifest", "status slot with underscore (the real host refuses it)", Expect::kFails,
     kStatusNotNamespaced},
    {"manifest", "duplicate status slot", Expect::kFails,
     "contributes.status[1]: expected unique items (same as [0])"},
    {"manifest", "empty name after the dot", Expect::kFails,
     kProvidesNotNamespaced},
};

TEST(Fixtures, ValidManifestsRoundTrip) {
  const json fixture = load_json(examples_dir() / "manifest.json");
  const json& valid = fixture.at("valid");
  ASSERT_GT(valid.size(), 0u);
  std::size_t exercised = 0;
  std::vector<std::string> dropped;
  for (std::size_t i = 0; i < valid.size(); ++i) {
    SCOPED_TRACE("manifest.valid[" + std::to_string(i) + "]");
    sn::Manifest manifest;
    try {
      manifest = decode_as<sn::Manifest>(valid[i], "");
    } catch (const rpckit::codec::DecodeError& e) {
      FAIL() << e.what();
    }
    JsonDiff diff =
        diff_json(valid[i], encode(manifest), "manifest.valid[" + std::to_string(i) + "]");
    EXPECT_TRUE(diff.mismatches.empty()) << join(diff.mismatches);
    dropped.insert(dropped.end(), diff.dropped.begin(), diff.dropped.end());
    EXPECT_EQ(decode_as<sn::Manifest>(encode(manifest), ""), manifest);
    ++exercised;
  }
  EXPECT_EQ(exercised, valid.size());
  EXPECT_EQ(exercised, 9u);
  // The one unknown key of the valid manifests is dropped, nothing else.
  EXPECT_EQ(dropped, std::vector<std::string>{"manifest.valid[2].$comment_from_toml"});
}

TEST(Fixtures, InvalidManifestsAreRejectedWhereTheDecoderCanTell) {
  const json fixture = load_json(examples_dir() / "manifest.json");
  ExpectationChecker checker(kInvalidManifests);
  for (const json& item : fixture.at("invalid")) {
    const std::string why = item.at("why").get<std::string>();
    Actual actual{Expect::kOpenByDesign, "(decodes)"};
    if (auto error = decode_error<sn::Manifest>(item.at("manifest"), "")) {
      actual = {Expect::kFails, *error};
    }
    checker.check("manifest", why, actual);
  }
  checker.finish();
  EXPECT_EQ(checker.seen(), fixture.at("invalid").size());
  EXPECT_EQ(checker.seen(), 54u);
}

// ---- types/*.json -------------------------------------------------------------------------

// The shared-type examples whose schema maps to a generated type: decode + re-encode for the
// valid ones, rejection (or the documented acceptance) for the invalid ones.
template <class T>
void check_type_case(const json& c, std::size_t& valid_count, std::size_t& invalid_count,
                     std::vector<std::string>& accepted_invalid) {
  for (const json& v : c.at("valid")) {
    SCOPED_TRACE(c.at("schema").get<std::string>() + " " + v.dump());
    T decoded{};
    try {
      decoded = decode_as<T>(v);
    } catch (const rpckit::codec::DecodeError& e) {
      FAIL() << e.what();
    }
    JsonDiff diff = diff_json(v, encode(decoded), "value");
    EXPECT_TRUE(diff.mismatches.empty()) << join(diff.mismatches);
    for (const std::string& d : diff.dropped) accepted_invalid.push_back("dropped " + d);
    ++valid_count;
  }
  for (const json& inv : c.at("invalid")) {
    ++invalid_count;
    if (!decode_error<T>(inv.at("value")).has_value()) {
      accepted_invalid.push_back(c.at("schema").get<std::string>() + ": " +
                                 inv.at("why").get<std::string>());
    }
  }
}

TEST(Fixtures, SharedTypeExamples) {
  std::size_t valid = 0;
  std::size_t invalid = 0;
  std::size_t cases = 0;
  std::vector<std::string> accepted;  // invalid examples that decode, and dropped fields
  std::set<std::string> skipped;
  for (const char* name : {"types/hook_payloads.json", "types/jsonrpc.json"}) {
    const json fixture = load_json(examples_dir() / name);
    for (const json& c : fixture.at("cases")) {
      ++cases;
      const std::string schema = c.at("schema").get<std::string>();
      if (schema == "types/playback_resolve_args.json") {
        check_type_case<sn::PlaybackResolveArgs>(c, valid, invalid, accepted);
      } else if (schema == "types/drops_action_result.json") {
        check_type_case<sn::DropsActionResult>(c, valid, invalid, accepted);
      } else if (schema == "types/drops_status.json") {
        check_type_case<sn::DropsStatus>(c, valid, invalid, accepted);
      } else if (schema == "errors.json#/definitions/ErrorData") {
        check_type_case<sn::ErrorData>(c, valid, invalid, accepted);
      } else if (schema == "errors.json#/definitions/ErrorCode") {
        check_type_case<sn::ErrorCode>(c, valid, invalid, accepted);
      } else {
        skipped.insert(schema);
      }
    }
  }
  EXPECT_EQ(cases, 8u);
  // The JSON-RPC envelope pieces have no generated type: they belong to the endpoint.
  EXPECT_EQ(skipped, (std::set<std::string>{"jsonrpc.json#/definitions/ErrorResponse",
                                            "jsonrpc.json#/definitions/Id",
                                            "jsonrpc.json#/definitions/Response"}));
  EXPECT_EQ(valid, 12u);
  EXPECT_EQ(invalid, 11u);
  // ErrorCode is open (spec 3: "a receiver must cope with a code it does not know"), so
  // -32006 decodes although the schema's enum rejects it. ErrorData's unknown prompt_id is
  // dropped.
  EXPECT_EQ(accepted, (std::vector<std::string>{"dropped value.prompt_id",
                                                "errors.json#/definitions/ErrorCode: not a v1 code"}));
}

}  // namespace
}  // namespace bindings_test
