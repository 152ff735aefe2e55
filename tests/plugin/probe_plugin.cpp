// probe-plugin: a tiny test plugin that exposes the plugin role's typed errors and HostApi
// gates to an end-to-end test, one action each.
//   probe.rate_limited  throws spec_error(kRateLimited, ..., 1500)
//   probe.call {method} calls that host method through HostApi and describes the outcome:
//                       {ok, kind, code, name, message} ({sent} for the notifications);
//                       "register_folder_panel" registers a panel with a folder field
//   probe.date_times    the date-time members of the last on_stream_start, on_watch_tick,
//                       on_followed_live and on_chat_message it decoded, as received
//   probe.chat_ids      the message ids of the on_chat_message events it handled, in the order
//                       it handled them (what a host sees of events held while a handler waits)
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rpckit//streamnook/errors.hpp"
#include "rpckit/streamnook/plugin.hpp"

namespace sn = ::streamnook::v1;
using nlohmann::json;

namespace {

template <class T>
json describe(const rpckit::Result<T>& r) {
  if (r.ok()) return {{"ok", true}};
  const rpckit::CallError& e = r.error();
  auto data = rpckit::streamnook::error_data(e.error);
  return {{"ok", false},
          {"kind", kind_name(e.kind)},
          {"code", e.error.code()},
          {"name", data ? json(data->name) : json(nullptr)},
          {"message", e.error.message()}};
}

}  // namespace

int main() {
  rpckit::streamnook::Plugin plugin("0.0.1");
  rpckit::streamnook::HostApi& host = plugin.host();
  // Every event that carries a date-time member: what the decoder handed over, kept as text.
  std::mutex mutex;
  json date_times = json::object();
  std::vector<std::string> chat_ids;
  auto keep = [&](const char* event, json value) {
    std::lock_guard lock(mutex);
    date_times[event] = std::move(value);
  };
  auto nullable = [](const rpckit::Nullable<std::string>& v) {
    return v.has_value() ? json(*v) : json(nullptr);
  };
  plugin.on<sn::messages::OnStreamStart>([&](const sn::OnStreamStartParams& p) {
    keep("on_stream_start", nullable(p.channel.started_at));
  });
  plugin.on<sn::messages::OnWatchTick>(
      [&](const sn::OnWatchTickParams& p) { keep("on_watch_tick", p.ts); });
  plugin.on<sn::messages::OnFollowedLive>([&](const sn::OnFollowedLiveParams& p) {
    json all = json::array();
    for (const sn::Channel& c : p.channels) all.push_back(nullable(c.started_at));
    keep("on_followed_live", std::move(all));
  });
  plugin.on<sn::messages::OnChatMessage>([&](const sn::OnChatMessageParams& p) {
    keep("on_chat_message", p.message.ts);
    std::lock_guard lock(mutex);
    chat_ids.push_back(p.message.id);
  });
  plugin.on_action("probe.chat_ids", [&](const rpckit::JsonValue&) -> json {
    std::lock_guard lock(mutex);
    return chat_ids;
  });
  plugin.on_action("probe.date_times", [&](const rpckit::JsonValue&) -> json {
    std::lock_guard lock(mutex);
    return date_times;
  });
  plugin.on_action("probe.rate_limited", [](const rpckit::JsonValue&) -> json {
    throw rpckit::streamnook::spec_error(sn::ErrorCode::kRateLimited, "slow down", 1500);
  });
  plugin.on_action("probe.call", [&host](const rpckit::JsonValue& args) -> json {
    std::string method = args.get().value("method", "");
    if (method == "get_followed_live") return describe(host.get_followed_live());
    if (method == "notify") return describe(host.notify("probe"));
    if (method == "register_panel") {
      sn::PanelSchema schema;
      schema.title = "Probe";
      return describe(host.register_panel(schema));
    }
    if (method == "register_folder_panel") {
      sn::PanelSchema schema;
      schema.title = "Probe";
      sn::PanelSection section;
      section.label = "Files";
      sn::ToggleField toggle;
      toggle.key = "enabled";
      toggle.label = "Enabled";
      sn::FolderField folder;
      folder.key = "out_dir";
      folder.label = "Output folder";
      section.fields = {sn::PanelField{toggle}, sn::PanelField{folder}};
      schema.sections = {section};
      return describe(host.register_panel(schema));
    }
    if (method == "get_panel_values") return describe(host.get_panel_values());
    if (method == "get_credential") {
      return describe(host.get_credential(sn::CredentialKind::kTwitchAndroid));
    }
    if (method == "set_upstream") {
      return describe(host.set_upstream("s1", "https://example.com/media.m3u8"));
    }
    if (method == "log") return {{"sent", host.log(sn::LogLevel::kInfo, "probe log")}};
    throw rpckit::streamnook::spec_error(sn::ErrorCode::kInvalidParams, "unknown method " + method);
  });
  return plugin.run();
}
