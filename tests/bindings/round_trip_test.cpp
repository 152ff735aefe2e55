// Round trip of every generated struct: a fully populated value (every optional member
// present, every nullable non-null) and a minimal one (optionals absent, nullables null),
// each encoded, compared with hand-written JSON, decoded and compared with ==.
// The last test reads generated/streamnook_v1/types.hpp and checks that no struct was left out.
#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "support.hpp"
#include "streamnook_v1/types.hpp"

namespace bindings_test {
namespace {

namespace sn = streamnook::v1;

std::set<std::string>& covered_full() {
  static std::set<std::string> names;
  return names;
}
std::set<std::string>& covered_minimal() {
  static std::set<std::string> names;
  return names;
}

enum class Shape { kFull, kMinimal };

// Encodes `value`, compares with `expected_text`, decodes it back and compares with ==; the
// hand-written JSON must decode to the same value too.
template <class T>
void round_trip(std::string_view type, Shape shape, const T& value,
                std::string_view expected_text) {
  SCOPED_TRACE(std::string(type) + (shape == Shape::kFull ? " (full)" : " (minimal)"));
  (shape == Shape::kFull ? covered_full() : covered_minimal()).insert(std::string(type));
  const json expected = json::parse(expected_text);
  const json encoded = encode(value);
  EXPECT_EQ(encoded, expected) << "encoded: " << encoded.dump();
  try {
    T back = decode_as<T>(encoded);
    EXPECT_TRUE(back == value) << "decoded value differs; re-encoded: " << encode(back).dump();
    EXPECT_EQ(encode(back), encoded);
    EXPECT_TRUE(decode_as<T>(expected) == value);
  } catch (const rpckit::codec::DecodeError& e) {
    ADD_FAILURE() << "decode failed: " << e.what();
  }
}

// ---- builders -----------------------------------------------------------------------------

sn::Channel full_channel() {
  sn::Channel c;
  c.channel_id = "71092938";
  c.login = "xqc";
  c.display_name = "xQc";
  c.game_id = "509658";
  c.game_name = "Just Chatting";
  c.started_at = "2024-05-18T14:02:11Z";
  c.viewer_count = std::int64_t{58213};
  return c;
}
constexpr std::string_view kFullChannel =
    R"({"channel_id":"71092938","login":"xqc","display_name":"xQc","game_id":"509658",
        "game_name":"Just Chatting","started_at":"2024-05-18T14:02:11Z","viewer_count":58213})";

sn::Channel minimal_channel() {
  sn::Channel c;
  c.channel_id = "12826";
  c.login = "twitch";
  c.display_name = "Twitch";
  return c;
}
constexpr std::string_view kMinimalChannel =
    R"({"channel_id":"12826","login":"twitch","display_name":"Twitch","game_id":null,
        "game_name":null,"started_at":null,"viewer_count":null})";

sn::Badge badge(std::string name, std::string version) {
  sn::Badge b;
  b.name = std::move(name);
  b.version = std::move(version);
  return b;
}

sn::ChatMessage full_chat_message() {
  sn::ChatMessage m;
  m.id = "b6e1c7a2";
  m.user_id = "149747285";
  m.login = "twitchdev";
  m.display_name = "TwitchDev";
  m.color = "#9146FF";
  m.badges = {badge("moderator", "1"), badge("subscriber", "12")};
  m.text = "cheer100 GG";
  m.is_action = true;
  m.msg_type = "sub";
  m.system_message = "TwitchDev subscribed at Tier 1.";
  m.bits = std::uint32_t{4294967295u};
  m.ts = "2024-05-18T14:05:00.512Z";
  return m;
}
constexpr std::string_view kFullChatMessage =
    R"({"id":"b6e1c7a2","user_id":"149747285","login":"twitchdev","display_name":"TwitchDev",
        "color":"#9146FF","badges":[{"name":"moderator","version":"1"},
        {"name":"subscriber","version":"12"}],"text":"cheer100 GG","is_action":true,
        "msg_type":"sub","system_message":"TwitchDev subscribed at Tier 1.","bits":4294967295,
        "ts":"2024-05-18T14:05:00.512Z"})";

sn::ChatMessage minimal_chat_message() {
  sn::ChatMessage m;
  m.user_id = "40234817";
  m.login = "alice";
  m.display_name = "alice";
  m.text = "hi";
  m.ts = "2024-05-18T16:05:01+02:00";
  return m;
}
constexpr std::string_view kMinimalChatMessage =
    R"({"id":"","user_id":"40234817","login":"alice","display_name":"alice","color":null,
        "badges":[],"text":"hi","is_action":false,"msg_type":null,"system_message":null,
        "bits":null,"ts":"2024-05-18T16:05:01+02:00"})";

sn::ChannelRef channel_ref(std::string id, std::string login, std::string name) {
  sn::ChannelRef r;
  r.channel_id = std::move(id);
  r.channel_login = std::move(login);
  r.display_name = std::move(name);
  return r;
}

sn::ToggleField full_toggle() {
  sn::ToggleField f;
  f.key = "notify_on_claim";
  f.label = "Notify on claim";
  f.description = "Show a notification for each claimed drop.";
  f.default_ = true;
  return f;
}
constexpr std::string_view kFullToggle =
    R"({"key":"notify_on_claim","type":"toggle","label":"Notify on claim",
        "description":"Show a notification for each claimed drop.","default":true})";

sn::ToggleField minimal_toggle() {
  sn::ToggleField f;
  f.key = "enabled";
  f.label = "Enabled";
  return f;
}
constexpr std::string_view kMinimalToggle = R"({"key":"enabled","type":"toggle","label":"Enabled"})";

sn::NumberField full_number() {
  sn::NumberField f;
  f.key = "min_minutes";
  f.label = "Minimum minutes";
  f.description = "Skip shorter drops.";
  f.min = -1.5;
  f.max = 600.0;
  f.default_ = 12.5;
  return f;
}
constexpr std::string_view kFullNumber =
    R"({"key":"min_minutes","type":"number","label":"Minimum minutes",
        "description":"Skip shorter drops.","min":-1.5,"max":600,"default":12.5})";

sn::SelectOption option(std::string value, std::string label) {
  sn::SelectOption o;
  o.value = std::move(value);
  o.label = std::move(label);
  return o;
}

sn::SelectField full_select() {
  sn::SelectField f;
  f.key = "quality";
  f.label = "Quality";
  f.description = "Relay quality.";
  f.options = {option("best", "Best"), option("720p", "720p")};
  f.default_ = "best";
  return f;
}
constexpr std::string_view kFullSelect =
    R"({"key":"quality","type":"select","label":"Quality","description":"Relay quality.",
        "options":[{"value":"best","label":"Best"},{"value":"720p","label":"720p"}],
        "default":"best"})";

sn::TextField full_text() {
  sn::TextField f;
  f.key = "webhook";
  f.label = "Webhook URL";
  f.description = "Optional.";
  f.placeholder = "https://…";
  f.default_ = "";
  return f;
}
constexpr std::string_view kFullText =
    R"({"key":"webhook","type":"text","label":"Webhook URL","description":"Optional.",
        "placeholder":"https://…","default":""})";

sn::StringListField full_string_list() {
  sn::StringListField f;
  f.key = "blocked_games";
  f.label = "Blocked games";
  f.description = "Never mine these.";
  f.placeholder = "Game name";
  f.default_ = std::vector<std::string>{"Fortnite", "Rust"};
  return f;
}
constexpr std::string_view kFullStringList =
    R"({"key":"blocked_games","type":"string_list","label":"Blocked games",
        "description":"Never mine these.","placeholder":"Game name",
        "default":["Fortnite","Rust"]})";

sn::ChannelListField full_channel_list() {
  sn::ChannelListField f;
  f.key = "preferred";
  f.label = "Preferred channels";
  f.description = "Watched first.";
  f.default_ = std::vector<sn::ChannelRef>{channel_ref("71092938", "xqc", "xQc")};
  return f;
}
constexpr std::string_view kFullChannelList =
    R"({"key":"preferred","type":"channel_list","label":"Preferred channels",
        "description":"Watched first.",
        "default":[{"channel_id":"71092938","channel_login":"xqc","display_name":"xQc"}]})";

sn::SliderField full_slider() {
  sn::SliderField f;
  f.key = "buffer";
  f.label = "Buffer";
  f.description = "Seconds of buffer.";
  f.min = 500.0;
  f.max = 10000.0;
  f.step = 250.0;
  f.unit = "s";
  f.display_divisor = 1000.0;
  f.default_ = 1500.0;
  return f;
}
constexpr std::string_view kFullSlider =
    R"({"key":"buffer","type":"slider","label":"Buffer","description":"Seconds of buffer.",
        "min":500,"max":10000,"step":250,"unit":"s","display_divisor":1000,"default":1500})";

sn::FolderField full_folder() {
  sn::FolderField f;
  f.key = "cache_dir";
  f.label = "Cache folder";
  f.description = "\"\" = plugin default.";
  f.placeholder = "default";
  f.default_ = "";
  return f;
}
constexpr std::string_view kFullFolder =
    R"({"key":"cache_dir","type":"folder","label":"Cache folder",
        "description":"\"\" = plugin default.","placeholder":"default","default":""})";

sn::PanelValues full_panel_values() {
  sn::PanelValues v;
  v["enabled"].value = true;
  v["max_parallel"].value = 3.0;
  v["priority"].value = std::string("drops_first");
  v["games"].value = std::vector<std::string>{"VALORANT", "Rust"};
  v["channels"].value = std::vector<sn::ChannelRef>{channel_ref("71092938", "xqc", "xQc")};
  return v;
}
constexpr std::string_view kFullPanelValues =
    R"({"enabled":true,"max_parallel":3,"priority":"drops_first","games":["VALORANT","Rust"],
        "channels":[{"channel_id":"71092938","channel_login":"xqc","display_name":"xQc"}]})";

sn::ManifestRuntime full_runtime() {
  sn::ManifestRuntime r;
  r.kind = sn::RuntimeKind::kProcess;
  r.entry = "bin/drops-miner";
  r.args = std::vector<std::string>{"--stdio"};
  r.transport = sn::RuntimeTransport::kStdio;
  return r;
}
constexpr std::string_view kFullRuntime =
    R"({"kind":"process","entry":"bin/drops-miner","args":["--stdio"],"transport":"stdio"})";

sn::ManifestRuntime minimal_runtime() {
  sn::ManifestRuntime r;
  r.kind = sn::RuntimeKind::kUi;
  r.entry = "ui/index.html";
  return r;
}
constexpr std::string_view kMinimalRuntime = R"({"kind":"ui","entry":"ui/index.html"})";

sn::ManifestCapabilities full_capabilities() {
  sn::ManifestCapabilities c;
  c.events = std::vector<sn::EventName>{sn::EventName::kOnStreamStart, sn::EventName::kOnPanelChange};
  c.host_methods = std::vector<sn::HostMethodName>{sn::HostMethodName::kGetFollowedLive,
                                                   sn::HostMethodName::kLog};
  c.credentials = std::vector<sn::CredentialKind>{sn::CredentialKind::kTwitchAndroid};
  c.network = sn::NetworkAccess::kExternal;
  c.ui = std::vector<sn::UiCapability>{sn::UiCapability::kPanel};
  return c;
}
constexpr std::string_view kFullCapabilities =
    R"({"events":["on_stream_start","on_panel_change"],"host_methods":["get_followed_live","log"],
        "credentials":["twitch.android"],"network":"external","ui":["panel"]})";

sn::ManifestContributes full_contributes() {
  sn::ManifestContributes c;
  c.actions = std::vector<std::string>{"drops.claim-all", "playback.resolve"};
  c.status = std::vector<std::string>{"drops.status"};
  c.provides = std::vector<std::string>{"drops.miner"};
  return c;
}
constexpr std::string_view kFullContributes =
    R"({"actions":["drops.claim-all","playback.resolve"],"status":["drops.status"],
        "provides":["drops.miner"]})";

sn::Manifest minimal_manifest() {
  sn::Manifest m;
  m.id = "io.github.alice.drops-miner";
  m.name = "Drops Miner";
  m.version = "0.3.1";
  m.author = "Alice";
  m.tier = sn::ManifestTier::kB;
  m.description = "";
  m.host_min = "7.8.0";
  m.runtime = minimal_runtime();
  return m;
}

sn::InitializeParams initialize_params() {
  sn::InitializeParams p;
  p.protocol_version = 1;
  p.host_version = "7.9.0-beta.2+build.511";
  p.plugin_id = "io.github.alice.drops-miner";
  p.granted.events = {sn::EventName::kOnChatMessage};
  p.granted.host_methods = {sn::HostMethodName::kLog};
  p.data_dir = "/data";
  p.log_dir = "/logs";
  return p;
}

// ---- the round trips --------------------------------------------------------------------------------

void shared_types() {
  {
    sn::Granted g;
    g.events = {sn::EventName::kOnStreamStart, sn::EventName::from_wire("on_future_event")};
    g.host_methods = {sn::HostMethodName::kNotify, sn::HostMethodName::kGetPanelValues};
    g.credentials = {sn::CredentialKind::kTwitchAndroid};
    g.ui = {sn::UiCapability::kPanel};
    round_trip("Granted", Shape::kFull, g,
               R"({"events":["on_stream_start","on_future_event"],
                   "host_methods":["notify","get_panel_values"],
                   "credentials":["twitch.android"],"ui":["panel"]})");
    round_trip("Granted", Shape::kMinimal, sn::Granted{},
               R"({"events":[],"host_methods":[],"credentials":[],"ui":[]})");
  }
  round_trip("Channel", Shape::kFull, full_channel(), kFullChannel);
  round_trip("Channel", Shape::kMinimal, minimal_channel(), kMinimalChannel);
  round_trip("Badge", Shape::kFull, badge("subscriber", "12"),
             R"({"name":"subscriber","version":"12"})");
  round_trip("Badge", Shape::kMinimal, sn::Badge{}, R"({"name":"","version":""})");
  round_trip("ChatMessage", Shape::kFull, full_chat_message(), kFullChatMessage);
  round_trip("ChatMessage", Shape::kMinimal, minimal_chat_message(), kMinimalChatMessage);
  {
    sn::Credential c;
    c.kind = sn::CredentialKind::kTwitchAndroid;
    c.token = "2gbdx6oar67tqtcmt49t3wpcgycthx";
    c.client_id = "kd1unb4b3q4t58fwlpcbzcbnm76a8fp";
    c.user_id = "40234817";
    c.device_id = "8f2d6c1e9a7b4c3d";
    c.expires_at = "2024-06-17T16:05:00.25+02:00";
    round_trip("Credential", Shape::kFull, c,
               R"({"kind":"twitch.android","token":"2gbdx6oar67tqtcmt49t3wpcgycthx",
                   "client_id":"kd1unb4b3q4t58fwlpcbzcbnm76a8fp","user_id":"40234817",
                   "device_id":"8f2d6c1e9a7b4c3d","expires_at":"2024-06-17T16:05:00.25+02:00"})");
    sn::Credential m;
    m.kind = sn::CredentialKind::kTwitchAndroid;
    m.token = "t";
    round_trip("Credential", Shape::kMinimal, m,
               R"({"kind":"twitch.android","token":"t","client_id":null,"user_id":null,
                   "device_id":null,"expires_at":null})");
  }
  round_trip("ChannelRef", Shape::kFull, channel_ref("545050196", "kato_junichi0817", "加藤純一"),
             R"({"channel_id":"545050196","channel_login":"kato_junichi0817",
                 "display_name":"加藤純一"})");
  round_trip("ChannelRef", Shape::kMinimal, sn::ChannelRef{},
             R"({"channel_id":"","channel_login":"","display_name":""})");
  {
    sn::PlaybackResolveArgs a;
    a.stream_id = "relay-7f3a2c";
    a.channel = "xqc";
    a.quality = "1080p60";
    a.auth_master = "https://usher.ttvnw.net/api/channel/hls/xqc.m3u8";
    round_trip("PlaybackResolveArgs", Shape::kFull, a,
               R"({"stream_id":"relay-7f3a2c","channel":"xqc","quality":"1080p60",
                   "auth_master":"https://usher.ttvnw.net/api/channel/hls/xqc.m3u8"})");
    a.auth_master = std::nullopt;
    round_trip("PlaybackResolveArgs", Shape::kMinimal, a,
               R"({"stream_id":"relay-7f3a2c","channel":"xqc","quality":"1080p60",
                   "auth_master":null})");
  }
  // DropsActionResult has no member: its const "ok": true is written by the encoder.
  round_trip("DropsActionResult", Shape::kFull, sn::DropsActionResult{}, R"({"ok":true})");
  round_trip("DropsActionResult", Shape::kMinimal, sn::DropsActionResult{}, R"({"ok":true})");
  {
    sn::DropsStatus s;
    s.active = true;
    s.is_mining = false;
    s.game_name = "Rust";
    s.campaign_id = "c2a5e9f4";
    s.channel_login = "shroud";
    s.current_minutes = 35.0;
    s.required_minutes = 120.5;
    round_trip("DropsStatus", Shape::kFull, s,
               R"({"active":true,"is_mining":false,"game_name":"Rust","campaign_id":"c2a5e9f4",
                   "channel_login":"shroud","current_minutes":35,"required_minutes":120.5})");
    round_trip("DropsStatus", Shape::kMinimal, sn::DropsStatus{}, "{}");
  }
  {
    sn::ErrorData d;
    d.name = "rate_limited";
    d.retry_after_ms = 7250.0;
    round_trip("ErrorData", Shape::kFull, d, R"({"name":"rate_limited","retry_after_ms":7250})");
    d.name = "protocol_version_mismatch";
    d.retry_after_ms = std::nullopt;
    round_trip("ErrorData", Shape::kMinimal, d,
               R"({"name":"protocol_version_mismatch","retry_after_ms":null})");
  }
}

void panel_types() {
  round_trip("ToggleField", Shape::kFull, full_toggle(), kFullToggle);
  round_trip("ToggleField", Shape::kMinimal, minimal_toggle(), kMinimalToggle);
  round_trip("NumberField", Shape::kFull, full_number(), kFullNumber);
  {
    sn::NumberField f;
    f.key = "max_parallel";
    f.label = "Parallel campaigns";
    round_trip("NumberField", Shape::kMinimal, f,
               R"({"key":"max_parallel","type":"number","label":"Parallel campaigns"})");
  }
  round_trip("SelectOption", Shape::kFull, option("drops_first", "Drops first"),
             R"({"value":"drops_first","label":"Drops first"})");
  round_trip("SelectOption", Shape::kMinimal, sn::SelectOption{}, R"({"value":"","label":""})");
  round_trip("SelectField", Shape::kFull, full_select(), kFullSelect);
  {
    sn::SelectField f;
    f.key = "priority";
    f.label = "Priority";
    f.options = {option("drops_first", "Drops first")};
    round_trip("SelectField", Shape::kMinimal, f,
               R"({"key":"priority","type":"select","label":"Priority",
                   "options":[{"value":"drops_first","label":"Drops first"}]})");
  }
  round_trip("TextField", Shape::kFull, full_text(), kFullText);
  {
    sn::TextField f;
    f.key = "note";
    f.label = "Note";
    round_trip("TextField", Shape::kMinimal, f, R"({"key":"note","type":"text","label":"Note"})");
  }
  round_trip("StringListField", Shape::kFull, full_string_list(), kFullStringList);
  {
    sn::StringListField f;
    f.key = "games";
    f.label = "Games";
    round_trip("StringListField", Shape::kMinimal, f,
               R"({"key":"games","type":"string_list","label":"Games"})");
  }
  round_trip("ChannelListField", Shape::kFull, full_channel_list(), kFullChannelList);
  {
    sn::ChannelListField f;
    f.key = "channels";
    f.label = "Channels";
    round_trip("ChannelListField", Shape::kMinimal, f,
               R"({"key":"channels","type":"channel_list","label":"Channels"})");
  }
  round_trip("SliderField", Shape::kFull, full_slider(), kFullSlider);
  {
    sn::SliderField f;
    f.key = "volume_ms";
    f.label = "Delay";
    f.max = 5000.0;
    f.step = 100.0;
    round_trip("SliderField", Shape::kMinimal, f,
               R"({"key":"volume_ms","type":"slider","label":"Delay","min":0,"max":5000,
                   "step":100})");
  }
  round_trip("FolderField", Shape::kFull, full_folder(), kFullFolder);
  {
    sn::FolderField f;
    f.key = "download_dir";
    f.label = "Download folder";
    round_trip("FolderField", Shape::kMinimal, f,
               R"({"key":"download_dir","type":"folder","label":"Download folder"})");
  }
  round_trip("PanelField", Shape::kFull, sn::PanelField{full_slider()}, kFullSlider);
  round_trip("PanelField", Shape::kMinimal, sn::PanelField{minimal_toggle()}, kMinimalToggle);
  {
    sn::PanelSection s;
    s.label = "General";
    s.description = "What to mine and how.";
    s.fields = {sn::PanelField{minimal_toggle()}, sn::PanelField{full_number()}};
    round_trip("PanelSection", Shape::kFull, s,
               std::string(R"({"label":"General","description":"What to mine and how.","fields":[)") +
                   std::string(kMinimalToggle) + "," + std::string(kFullNumber) + "]}");
    round_trip("PanelSection", Shape::kMinimal, sn::PanelSection{},
               R"({"label":"","fields":[]})");

    sn::PanelSchema schema;
    schema.title = "Drops miner";
    schema.sections = {s};
    round_trip("PanelSchema", Shape::kFull, schema,
               std::string(R"({"title":"Drops miner","sections":[{"label":"General",)"
                           R"("description":"What to mine and how.","fields":[)") +
                   std::string(kMinimalToggle) + "," + std::string(kFullNumber) + "]}]}");
    sn::PanelSchema minimal;
    minimal.title = "T";
    round_trip("PanelSchema", Shape::kMinimal, minimal, R"({"title":"T","sections":[]})");
  }
  round_trip("PanelValue", Shape::kFull,
             sn::PanelValue{std::vector<sn::ChannelRef>{channel_ref("1", "a", "A")}},
             R"([{"channel_id":"1","channel_login":"a","display_name":"A"}])");
  round_trip("PanelValue", Shape::kMinimal, sn::PanelValue{false}, "false");
}

void manifest_types() {
  round_trip("ManifestRuntime", Shape::kFull, full_runtime(), kFullRuntime);
  round_trip("ManifestRuntime", Shape::kMinimal, minimal_runtime(), kMinimalRuntime);
  round_trip("ManifestCapabilities", Shape::kFull, full_capabilities(), kFullCapabilities);
  round_trip("ManifestCapabilities", Shape::kMinimal, sn::ManifestCapabilities{}, "{}");
  round_trip("ManifestContributes", Shape::kFull, full_contributes(), kFullContributes);
  round_trip("ManifestContributes", Shape::kMinimal, sn::ManifestContributes{}, "{}");

  sn::Manifest full = minimal_manifest();
  full.description = "Mines Twitch drops in the background.";
  full.homepage = "https://github.com/alice/drops-miner";
  full.runtime = full_runtime();
  full.capabilities = full_capabilities();
  full.contributes = full_contributes();
  round_trip("Manifest", Shape::kFull, full,
             std::string(R"({"id":"io.github.alice.drops-miner","name":"Drops Miner",)"
                         R"("version":"0.3.1","author":"Alice","tier":"B",)"
                         R"("description":"Mines Twitch drops in the background.",)"
                         R"("homepage":"https://github.com/alice/drops-miner",)"
                         R"("host_min":"7.8.0","runtime":)") +
                 std::string(kFullRuntime) + R"(,"capabilities":)" +
                 std::string(kFullCapabilities) + R"(,"contributes":)" +
                 std::string(kFullContributes) + "}");
  round_trip("Manifest", Shape::kMinimal, minimal_manifest(),
             std::string(R"({"id":"io.github.alice.drops-miner","name":"Drops Miner",)"
                         R"("version":"0.3.1","author":"Alice","tier":"B","description":"",)"
                         R"("host_min":"7.8.0","runtime":)") +
                 std::string(kMinimalRuntime) + "}");
}

void lifecycle_messages() {
  round_trip("InitializeParams", Shape::kFull, initialize_params(),
             R"({"protocol_version":1,"host_version":"7.9.0-beta.2+build.511",
                 "plugin_id":"io.github.alice.drops-miner",
                 "granted":{"events":["on_chat_message"],"host_methods":["log"],
                            "credentials":[],"ui":[]},
                 "data_dir":"/data","log_dir":"/logs"})");
  {
    sn::InitializeParams p;
    p.host_version = "0.0.0";
    round_trip("InitializeParams", Shape::kMinimal, p,
               R"({"protocol_version":0,"host_version":"0.0.0","plugin_id":"",
                   "granted":{"events":[],"host_methods":[],"credentials":[],"ui":[]},
                   "data_dir":"","log_dir":""})");
  }
  {
    sn::InitializeResult r;
    r.plugin_version = "2.1.0-rc.1";
    r.hooks = {"on_chat_message", "on_future_event"};
    round_trip("InitializeResult", Shape::kFull, r,
               R"({"plugin_version":"2.1.0-rc.1","hooks":["on_chat_message","on_future_event"]})");
    round_trip("InitializeResult", Shape::kMinimal, sn::InitializeResult{},
               R"({"plugin_version":"","hooks":[]})");
  }
  // Empty params and results: {} whichever shape.
  for (Shape shape : {Shape::kFull, Shape::kMinimal}) {
    round_trip("InitializedParams", shape, sn::InitializedParams{}, "{}");
    round_trip("PingParams", shape, sn::PingParams{}, "{}");
    round_trip("PingResult", shape, sn::PingResult{}, "{}");
    round_trip("ShutdownParams", shape, sn::ShutdownParams{}, "{}");
    round_trip("ExitParams", shape, sn::ExitParams{}, "{}");
    round_trip("GetFollowedLiveParams", shape, sn::GetFollowedLiveParams{}, "{}");
    round_trip("SetUpstreamResult", shape, sn::SetUpstreamResult{}, "{}");
    round_trip("NotifyResult", shape, sn::NotifyResult{}, "{}");
    round_trip("RegisterPanelResult", shape, sn::RegisterPanelResult{}, "{}");
    round_trip("GetPanelValuesParams", shape, sn::GetPanelValuesParams{}, "{}");
  }
  {
    sn::InvokeActionParams p;
    p.action = "playback.resolve";
    p.args = rpckit::JsonValue(json::parse(
        R"({"stream_id":"relay-7f3a2c","channel":"xqc","quality":"1080p60","auth_master":null})"));
    round_trip("InvokeActionParams", Shape::kFull, p,
               R"({"action":"playback.resolve","args":{"stream_id":"relay-7f3a2c","channel":"xqc",
                   "quality":"1080p60","auth_master":null}})");
    sn::InvokeActionParams m;
    m.action = "drops.claim-all";
    round_trip("InvokeActionParams", Shape::kMinimal, m, R"({"action":"drops.claim-all"})");
  }
}

void event_messages() {
  round_trip("OnStreamStartParams", Shape::kFull, sn::OnStreamStartParams{full_channel()},
             std::string(R"({"channel":)") + std::string(kFullChannel) + "}");
  round_trip("OnStreamStartParams", Shape::kMinimal, sn::OnStreamStartParams{minimal_channel()},
             std::string(R"({"channel":)") + std::string(kMinimalChannel) + "}");
  {
    sn::OnStreamStopParams p;
    p.channel_id = "71092938";
    round_trip("OnStreamStopParams", Shape::kFull, p, R"({"channel_id":"71092938"})");
    round_trip("OnStreamStopParams", Shape::kMinimal, sn::OnStreamStopParams{},
               R"({"channel_id":""})");
  }
  {
    sn::OnChannelChangeParams p;
    p.channel_id = "545050196";
    p.login = "kato_junichi0817";
    round_trip("OnChannelChangeParams", Shape::kFull, p,
               R"({"channel_id":"545050196","login":"kato_junichi0817"})");
    round_trip("OnChannelChangeParams", Shape::kMinimal, sn::OnChannelChangeParams{},
               R"({"channel_id":"","login":""})");
  }
  {
    sn::OnWatchTickParams p;
    p.active_channel_id = "71092938";
    p.ts = "2024-05-18T14:03:11Z";
    round_trip("OnWatchTickParams", Shape::kFull, p,
               R"({"active_channel_id":"71092938","ts":"2024-05-18T14:03:11Z"})");
    p.active_channel_id = std::nullopt;
    p.ts = "2024-05-18T23:03:11.457+09:00";
    round_trip("OnWatchTickParams", Shape::kMinimal, p,
               R"({"active_channel_id":null,"ts":"2024-05-18T23:03:11.457+09:00"})");
  }
  {
    sn::OnFollowedLiveParams p;
    p.channels = {full_channel(), minimal_channel()};
    round_trip("OnFollowedLiveParams", Shape::kFull, p,
               std::string(R"({"channels":[)") + std::string(kFullChannel) + "," +
                   std::string(kMinimalChannel) + "]}");
    round_trip("OnFollowedLiveParams", Shape::kMinimal, sn::OnFollowedLiveParams{},
               R"({"channels":[]})");
  }
  {
    sn::OnChatMessageParams p;
    p.channel = "xqc";
    p.message = full_chat_message();
    round_trip("OnChatMessageParams", Shape::kFull, p,
               std::string(R"({"channel":"xqc","message":)") + std::string(kFullChatMessage) +
                   "}");
    p.message = minimal_chat_message();
    round_trip("OnChatMessageParams", Shape::kMinimal, p,
               std::string(R"({"channel":"xqc","message":)") +
                   std::string(kMinimalChatMessage) + "}");
  }
  {
    sn::OnSettingsChangeParams p;
    p.keys = std::vector<std::string>{"chat.font_size", "player.low_latency"};
    round_trip("OnSettingsChangeParams", Shape::kFull, p,
               R"({"keys":["chat.font_size","player.low_latency"]})");
    round_trip("OnSettingsChangeParams", Shape::kMinimal, sn::OnSettingsChangeParams{}, "{}");
  }
  round_trip("OnPanelChangeParams", Shape::kFull, sn::OnPanelChangeParams{full_panel_values()},
             std::string(R"({"values":)") + std::string(kFullPanelValues) + "}");
  round_trip("OnPanelChangeParams", Shape::kMinimal, sn::OnPanelChangeParams{},
             R"({"values":{}})");
}

void host_method_messages() {
  {
    sn::GetFollowedLiveResult r;
    r.channels = {full_channel()};
    round_trip("GetFollowedLiveResult", Shape::kFull, r,
               std::string(R"({"channels":[)") + std::string(kFullChannel) + "]}");
    round_trip("GetFollowedLiveResult", Shape::kMinimal, sn::GetFollowedLiveResult{},
               R"({"channels":[]})");
  }
  {
    sn::SetUpstreamParams p;
    p.stream_id = "relay-7f3a2c";
    p.playlist_url = "https://proxy.example.net/hls/xqc/720p60/index.m3u8?token=abc%20def";
    round_trip("SetUpstreamParams", Shape::kFull, p,
               R"({"stream_id":"relay-7f3a2c",
                   "playlist_url":"https://proxy.example.net/hls/xqc/720p60/index.m3u8?token=abc%20def"})");
    p.stream_id = "";
    p.playlist_url = "http://h";
    round_trip("SetUpstreamParams", Shape::kMinimal, p,
               R"({"stream_id":"","playlist_url":"http://h"})");
  }
  {
    sn::GetCredentialParams p;
    p.kind = sn::CredentialKind::kTwitchAndroid;
    round_trip("GetCredentialParams", Shape::kFull, p, R"({"kind":"twitch.android"})");
    round_trip("GetCredentialParams", Shape::kMinimal, p, R"({"kind":"twitch.android"})");
  }
  {
    sn::NotifyParams p;
    p.level = sn::NotifyLevel::kWarning;
    p.message = "Campaign ends in 1 hour";
    round_trip("NotifyParams", Shape::kFull, p,
               R"({"level":"warning","message":"Campaign ends in 1 hour"})");
    p.level = std::nullopt;
    round_trip("NotifyParams", Shape::kMinimal, p, R"({"message":"Campaign ends in 1 hour"})");
  }
  {
    sn::LogParams p;
    p.level = sn::LogLevel::kDebug;
    p.message = "tick 42";
    round_trip("LogParams", Shape::kFull, p, R"({"level":"debug","message":"tick 42"})");
    p.level = std::nullopt;
    round_trip("LogParams", Shape::kMinimal, p, R"({"message":"tick 42"})");
  }
  {
    sn::RegisterPanelParams p;
    p.schema.title = "Drops miner";
    sn::PanelSection s;
    s.label = "All";
    s.fields = {sn::PanelField{full_toggle()},       sn::PanelField{full_number()},
                sn::PanelField{full_select()},       sn::PanelField{full_text()},
                sn::PanelField{full_string_list()},  sn::PanelField{full_channel_list()},
                sn::PanelField{full_slider()},       sn::PanelField{full_folder()}};
    p.schema.sections = {s};
    round_trip("RegisterPanelParams", Shape::kFull, p,
               std::string(R"({"schema":{"title":"Drops miner","sections":[{"label":"All","fields":[)") +
                   std::string(kFullToggle) + "," + std::string(kFullNumber) + "," +
                   std::string(kFullSelect) + "," + std::string(kFullText) + "," +
                   std::string(kFullStringList) + "," + std::string(kFullChannelList) + "," +
                   std::string(kFullSlider) + "," + std::string(kFullFolder) + "]}]}}");
    sn::RegisterPanelParams m;
    m.schema.title = "T";
    round_trip("RegisterPanelParams", Shape::kMinimal, m,
               R"({"schema":{"title":"T","sections":[]}})");
  }
  round_trip("GetPanelValuesResult", Shape::kFull, sn::GetPanelValuesResult{full_panel_values()},
             std::string(R"({"values":)") + std::string(kFullPanelValues) + "}");
  round_trip("GetPanelValuesResult", Shape::kMinimal, sn::GetPanelValuesResult{},
             R"({"values":{}})");
  {
    sn::SetStatusParams p;
    p.slot = "drops.status";
    p.value = rpckit::JsonValue(json::parse(R"({"active":true,"current_minutes":35})"));
    round_trip("SetStatusParams", Shape::kFull, p,
               R"({"slot":"drops.status","value":{"active":true,"current_minutes":35}})");
    sn::SetStatusParams m;
    m.slot = "relay.health";
    round_trip("SetStatusParams", Shape::kMinimal, m, R"({"slot":"relay.health","value":null})");
  }
}

TEST(RoundTrip, SharedTypes) { shared_types(); }
TEST(RoundTrip, PanelTypes) { panel_types(); }
TEST(RoundTrip, ManifestTypes) { manifest_types(); }
TEST(RoundTrip, LifecycleMessages) { lifecycle_messages(); }
TEST(RoundTrip, EventMessages) { event_messages(); }
TEST(RoundTrip, HostMethodMessages) { host_method_messages(); }

// Every struct of types.hpp is round-tripped in both shapes by the functions above (ctest
// runs each TEST in a process of its own, so this one calls them all itself).
TEST(RoundTrip, EveryGeneratedStructIsCovered) {
  const std::string header =
      read_text(source_dir() / "generated" / "streamnook_v1" / "types.hpp");
  std::set<std::string> structs;
  // Not an open enum's values (struct <Name>Values { enum Value ...).
  const std::regex struct_decl(R"(\nstruct (\w+) \{\n(?!  enum Value))");
  for (auto it = std::sregex_iterator(header.begin(), header.end(), struct_decl);
       it != std::sregex_iterator(); ++it) {
    structs.insert((*it)[1].str());
  }
  EXPECT_EQ(structs.size(), 56u) << "types.hpp changed: update this test";
  covered_full().clear();
  covered_minimal().clear();
  shared_types();
  panel_types();
  manifest_types();
  lifecycle_messages();
  event_messages();
  host_method_messages();
  EXPECT_EQ(covered_full(), structs);
  EXPECT_EQ(covered_minimal(), structs);
}

}  // namespace
}  // namespace bindings_test
