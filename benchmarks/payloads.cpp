#include "payloads.hpp"

#include <array>
#include <string>

namespace rpckit::bench {
namespace {

// The four channels of tests/fixtures/examples/on_followed_live.json: ASCII and CJK names,
// null metadata, offsets with and without fractions, the undocumented `favorite` flag.
const std::array<const char*, 4> kChannels = {
    R"({"channel_id": "71092938", "login": "xqc", "display_name": "xQc", "game_id": "509658",
        "game_name": "Just Chatting", "started_at": "2024-05-18T14:02:11Z",
        "viewer_count": 58213})",
    R"({"channel_id": "545050196", "login": "kato_junichi0817", "display_name": "加藤純一",
        "game_id": "32982", "game_name": "Grand Theft Auto V",
        "started_at": "2024-05-18T21:30:00.123+09:00", "viewer_count": 12004,
        "favorite": true})",
    R"({"channel_id": "12826", "login": "twitch", "display_name": "Twitch", "game_id": null,
        "game_name": null, "started_at": null, "viewer_count": null})",
    R"({"channel_id": "37402112", "login": "shroud", "display_name": "shroud",
        "game_id": "516575", "game_name": "VALORANT",
        "started_at": "2024-05-18T09:15:42.5-07:00", "viewer_count": 0, "favorite": false})",
};

// Channel i of a longer list: the fixture channels in turn, with distinct ids and logins.
nlohmann::json channel(std::size_t i) {
  nlohmann::json c = nlohmann::json::parse(kChannels[i % kChannels.size()]);
  if (i >= kChannels.size()) {
    const std::string suffix = std::to_string(i);
    c["channel_id"] = c["channel_id"].get<std::string>() + suffix;
    c["login"] = c["login"].get<std::string>() + "_" + suffix;
  }
  return c;
}

}  // namespace

nlohmann::json chat_message_params() {
  return nlohmann::json::parse(R"({
    "channel": "xqc",
    "message": {
      "id": "b6e1c7a2-3f0e-4a5e-9d7b-1c2a3b4c5d6e",
      "user_id": "149747285",
      "login": "twitchdev",
      "display_name": "TwitchDev",
      "color": "#9146FF",
      "badges": [{"name": "moderator", "version": "1"}, {"name": "subscriber", "version": "12"}],
      "text": "Kappa hello chat, is the \"new\" patch live yet? PogChamp",
      "is_action": false,
      "msg_type": null,
      "system_message": null,
      "bits": 100,
      "ts": "2024-05-18T14:05:00.512Z"
    }
  })");
}

nlohmann::json followed_live_params(std::size_t count) {
  nlohmann::json channels = nlohmann::json::array();
  for (std::size_t i = 0; i < count; ++i) channels.push_back(channel(i));
  return {{"channels", std::move(channels)}};
}

nlohmann::json get_followed_live_result() {
  nlohmann::json channels = nlohmann::json::array();
  for (std::size_t i = 0; i < 3; ++i) channels.push_back(channel(i));
  return {{"channels", std::move(channels)}};
}

nlohmann::json watch_tick_params() {
  return {{"active_channel_id", "71092938"}, {"ts", "2024-05-18T14:03:11Z"}};
}

std::vector<SizedEvent> sized_events() {
  constexpr std::size_t kLargeChannels = 115;  // ~20 KB framed
  nlohmann::json large = followed_live_params(kLargeChannels);
  for (nlohmann::json& c : large["channels"]) c.erase("favorite");
  return {
      {"small", "on_watch_tick", "on_watch_tick", watch_tick_params()},
      {"medium", "on_chat_message", "on_chat_message", chat_message_params()},
      {"large", "on_followed_live", "on_followed_live_" + std::to_string(kLargeChannels),
       std::move(large)},
  };
}

nlohmann::json initialize_params() {
  return nlohmann::json::parse(R"({
    "protocol_version": 1,
    "host_version": "7.8.6",
    "plugin_id": "io.github.alice.drops-miner",
    "granted": {
      "events": ["on_stream_start", "on_stream_stop", "on_channel_change", "on_watch_tick",
                 "on_followed_live", "on_chat_message", "on_settings_change",
                 "on_panel_change"],
      "host_methods": ["get_followed_live", "set_upstream", "notify", "log", "register_panel",
                       "get_panel_values"],
      "credentials": ["twitch.android"],
      "ui": ["panel"]
    },
    "data_dir": "/home/alice/.local/share/streamnook/plugins/io.github.alice.drops-miner/data",
    "log_dir": "/home/alice/.local/share/streamnook/plugins/io.github.alice.drops-miner/logs"
  })");
}

// The first register_panel envelope of the fixtures: 3 sections, 16 fields covering all 8
// field types, with and without the optional keys.
nlohmann::json register_panel_params() {
  return nlohmann::json::parse(R"({
    "schema": {
      "title": "Drops miner",
      "sections": [
        {
          "label": "General",
          "description": "What to mine and how.",
          "fields": [
            {"key": "enabled", "type": "toggle", "label": "Enabled"},
            {"key": "notify_on_claim", "type": "toggle", "label": "Notify on claim",
             "description": "Show a notification for each claimed drop.", "default": true},
            {"key": "max_parallel", "type": "number", "label": "Parallel campaigns"},
            {"key": "min_minutes", "type": "number", "label": "Minimum minutes",
             "description": "Skip shorter drops.", "min": 0, "max": 600, "default": 12.5},
            {"key": "priority", "type": "select", "label": "Priority",
             "options": [{"value": "drops_first", "label": "Drops first"},
                         {"value": "favorites_first", "label": "Favorites first"}]},
            {"key": "quality", "type": "select", "label": "Quality",
             "description": "Relay quality.", "options": [{"value": "best", "label": "Best"}],
             "default": "best"},
            {"key": "note", "type": "text", "label": "Note"},
            {"key": "webhook", "type": "text", "label": "Webhook URL", "description": "Optional.",
             "placeholder": "https://…", "default": ""}
          ]
        },
        {
          "label": "Lists",
          "fields": [
            {"key": "games", "type": "string_list", "label": "Games"},
            {"key": "blocked_games", "type": "string_list", "label": "Blocked games",
             "description": "Never mine these.", "placeholder": "Game name",
             "default": ["Fortnite"]},
            {"key": "channels", "type": "channel_list", "label": "Channels"},
            {"key": "preferred", "type": "channel_list", "label": "Preferred channels",
             "description": "Watched first.",
             "default": [
               {"channel_id": "71092938", "channel_login": "xqc", "display_name": "xQc"},
               {"channel_id": "545050196", "channel_login": "kato_junichi0817",
                "display_name": "加藤純一", "avatar": "x.png"}
             ]}
          ]
        },
        {
          "label": "Advanced",
          "fields": [
            {"key": "volume_ms", "type": "slider", "label": "Delay", "min": 0, "max": 5000,
             "step": 100},
            {"key": "buffer", "type": "slider", "label": "Buffer",
             "description": "Seconds of buffer.", "min": 500, "max": 10000, "step": 250,
             "unit": "s", "display_divisor": 1000, "default": 1500},
            {"key": "download_dir", "type": "folder", "label": "Download folder"},
            {"key": "cache_dir", "type": "folder", "label": "Cache folder",
             "description": "\"\" = plugin default.", "placeholder": "default", "default": "",
             "hint": "unknown keys are ignored"}
          ],
          "collapsed": true
        }
      ]
    }
  })");
}

}  // namespace rpckit::bench
