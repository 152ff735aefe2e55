#include "script.hpp"

#include <ctime>
#include <future>
#include <type_traits>
#include <variant>

#include <nlohmann/json.hpp>

#include "streamnook_v1/messages.hpp"

namespace demo {

namespace msg = sn::messages;
using rpckit::streamnook::LifecycleEvent;

void StopFlag::request() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  cv_.notify_all();
}

bool StopFlag::requested() const {
  std::lock_guard lock(mutex_);
  return stopped_;
}

bool StopFlag::sleep_for(std::chrono::milliseconds d) {
  std::unique_lock lock(mutex_);
  return !cv_.wait_for(lock, d, [&] { return stopped_; });
}

namespace {

std::string now_rfc3339() {
  std::time_t t = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buffer;
}

sn::ChatMessage chat(const std::string& id, const std::string& login, const std::string& text) {
  sn::ChatMessage m;
  m.id = id;
  m.user_id = "u-" + login;
  m.login = login;
  m.display_name = login;
  m.color = "#1E90FF";
  m.badges = {sn::Badge{"subscriber", "12"}};
  m.text = text;
  m.is_action = false;
  m.msg_type = nullptr;
  m.system_message = nullptr;
  m.bits = nullptr;
  m.ts = now_rfc3339();
  return m;
}

// What a user might save in `panel`: every toggle set to `toggles`, every other field of a
// known type a plausible value (its default, else one the field allows). Fields of a type this
// version does not know are left out.
sn::PanelValues saved_values(const sn::PanelSchema& panel, bool toggles, const sn::Channel& channel) {
  sn::PanelValues values;
  for (const sn::PanelSection& section : panel.sections) {
    for (const sn::PanelField& field : section.fields) {
      std::visit(
          [&](const auto& f) {
            using F = std::decay_t<decltype(f)>;
            if constexpr (std::is_same_v<F, sn::ToggleField>) {
              values[f.key] = sn::PanelValue{toggles};
            } else if constexpr (std::is_same_v<F, sn::NumberField>) {
              values[f.key] = sn::PanelValue{f.default_.value_or(f.min.value_or(1.0))};
            } else if constexpr (std::is_same_v<F, sn::SliderField>) {
              values[f.key] = sn::PanelValue{f.default_.value_or(f.min)};
            } else if constexpr (std::is_same_v<F, sn::SelectField>) {
              if (!f.options.empty()) values[f.key] = sn::PanelValue{f.options.back().value};
            } else if constexpr (std::is_same_v<F, sn::TextField> ||
                                 std::is_same_v<F, sn::FolderField>) {
              values[f.key] = sn::PanelValue{f.default_.value_or(std::string("demo"))};
            } else if constexpr (std::is_same_v<F, sn::StringListField>) {
              values[f.key] = sn::PanelValue{f.default_.value_or(std::vector<std::string>{})};
            } else if constexpr (std::is_same_v<F, sn::ChannelListField>) {
              values[f.key] = sn::PanelValue{std::vector<sn::ChannelRef>{
                  {channel.channel_id, channel.login, channel.display_name}}};
            }
          },
          field.value);
    }
  }
  return values;
}

std::string describe(const sn::PanelValues& values) {
  std::string out;
  for (const auto& [key, value] : values) {
    out += (out.empty() ? "" : ", ") + key + " = " + nlohmann::json(value).dump();
  }
  return out.empty() ? std::string("(no fields)") : out;
}

}  // namespace

void run_script(rpckit::streamnook::Host& host, DemoApplication& app, Transcript& transcript,
                const ScriptOptions& options, StopFlag& stop) {
  auto step = [&](const std::string& narration) {
    if (stop.requested()) return false;
    transcript.host(narration);
    return true;
  };
  auto pause = [&] { return stop.sleep_for(options.step); };

  sn::Channel ana = demo_channel("101", "ana_plays", "AnaPlays", "Celeste", 1200);
  sn::Channel bob = demo_channel("102", "bobcodes", "BobCodes", "Software and Game Development", 340);
  sn::Channel cat = demo_channel("103", "catstream", "CatStream", "Just Chatting", 8800);
  sn::Channel dan = demo_channel("104", "dan_speedruns", "DanSpeedruns", "Celeste", 95);
  app.set_live({ana});

  host.start_all();
  std::vector<std::string> running;
  for (const std::string& id : options.plugin_ids) {
    if (!app.wait_for(id, LifecycleEvent::Kind::kRunning, options.start_timeout)) {
      transcript.host(id + " did not come up; see the lifecycle lines above");
      continue;
    }
    running.push_back(id);
    std::string hook_list;
    for (const auto& h : host.hooks(id)) hook_list += (hook_list.empty() ? "" : ", ") + h;
    transcript.host(id + " hooked: " + (hook_list.empty() ? std::string("(nothing)") : hook_list));
  }
  if (running.empty()) return;
  if (!pause()) return;

  if (step("BobCodes goes live")) {
    app.set_live({ana, bob});
    host.emit<msg::OnFollowedLive>({app.live()});
  }
  if (!pause()) return;
  if (step("you start watching AnaPlays and chat scrolls by")) {
    std::size_t delivered = host.emit<msg::OnStreamStart>({ana});
    delivered += host.emit<msg::OnChannelChange>({ana.channel_id, ana.login});
    delivered += host.emit<msg::OnWatchTick>({ana.channel_id, now_rfc3339()});
    delivered += host.emit<msg::OnChatMessage>({ana.login, chat("m1", "viewer_one", "hype!")});
    delivered += host.emit<msg::OnChatMessage>(
        {ana.login, chat("m2", "viewer_two", "that jump was clean")});
    if (delivered == 0) {
      transcript.host("(5 events emitted; no plugin hooked them, so none was sent)");
    }
  }
  if (!pause()) return;
  if (step("CatStream goes live")) {
    app.set_live({ana, bob, cat});
    host.emit<msg::OnFollowedLive>({app.live()});
  }
  // The settings panels the plugins registered: each saved with its toggles on, later off.
  auto save_panels = [&](bool toggles) {
    for (const std::string& id : running) {
      std::optional<sn::PanelSchema> panel = app.registered_panel(id);
      if (!panel) continue;
      sn::PanelValues values = saved_values(*panel, toggles, ana);
      transcript.host("you save " + id + "'s panel: " + describe(values));
      app.save_panel(id, values);
      host.emit_to<msg::OnPanelChange>(id, {values});
    }
  };
  if (!pause()) return;
  if (step("you switch the toggles of each plugin's settings panel on")) save_panels(true);
  if (!pause()) return;
  if (step("DanSpeedruns goes live")) {
    app.set_live({ana, bob, cat, dan});
    host.emit<msg::OnFollowedLive>({app.live()});
  }
  if (!pause()) return;
  if (step("you switch the toggles off again and press each action the plugins declare")) {
    save_panels(false);
    // One thread per plugin, its actions in turn: a plugin slow to answer holds up no other,
    // and a manifest declaring many actions costs no more threads.
    std::vector<std::future<std::vector<std::string>>> calls;
    for (const std::string& id : running) {
      auto declared = options.actions.find(id);
      if (declared == options.actions.end()) continue;
      calls.push_back(std::async(std::launch::async, [&host, id, &actions = declared->second] {
        std::vector<std::string> lines;
        for (const std::string& action : actions) {
          auto result = host.invoke_action(
              id, action, rpckit::JsonValue(nlohmann::json{{"text", "Test alert"}}));
          lines.push_back("invoke_action " + id + " " + action + " -> " +
                          (result.ok() ? result->dump() : result.error().describe()));
        }
        return lines;
      }));
    }
    for (auto& call : calls) {
      for (const std::string& line : call.get()) transcript.host(line);
    }
  }
  if (!pause()) return;
  if (step("a raid: four channels go live at once (notify allows a burst of 3)")) {
    std::vector<sn::Channel> live = {ana, bob, cat, dan};
    for (int i = 0; i < 4; ++i) {
      std::string n = std::to_string(200 + i);
      live.push_back(demo_channel(n, "raider" + n, "Raider" + n, "Celeste", 50 + i));
    }
    app.set_live(live);
    host.emit<msg::OnFollowedLive>({live});
  }
  // Long enough for the rate-limited alerts to be retried after retry_after_ms.
  stop.sleep_for(options.step * 8);
  transcript.host("stream stops; the evening is over");
  host.emit<msg::OnStreamStop>({ana.channel_id});
  stop.sleep_for(options.step / 2);
}

void serve(rpckit::streamnook::Host& host, DemoApplication& app, Transcript& transcript,
           std::chrono::milliseconds watch_tick, StopFlag& stop) {
  transcript.host("serving until SIGINT, SIGTERM or stdin EOF");
  for (long tick = 1; stop.sleep_for(watch_tick); ++tick) {
    std::vector<sn::Channel> live = app.live();
    rpckit::Nullable<std::string> watching = nullptr;
    if (!live.empty()) watching = live.front().channel_id;
    host.emit<msg::OnWatchTick>({watching, now_rfc3339()});
    if (tick % 2 == 0) host.emit<msg::OnFollowedLive>({live});
  }
}

}  // namespace demo
