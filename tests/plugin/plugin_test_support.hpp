#pragma once
// Shared bits of the plugin end-to-end tests: grants, initialize params, channels, a temp
// directory per test, and a ScriptedHost preloaded with the answers live-alerts needs.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scripted_host.hpp"

namespace plugin_test {

namespace fs = std::filesystem;

// RPCKIT_LIVE_ALERTS_EXE runs the suite against another live-alerts build.
inline const char* const kLiveAlertsExe =
    std::getenv("RPCKIT_LIVE_ALERTS_EXE") != nullptr ? std::getenv("RPCKIT_LIVE_ALERTS_EXE")
                                                      : LIVE_ALERTS_EXE;
inline const char* const kNoisyPluginExe = NOISY_PLUGIN_EXE;
inline const char* const kProbePluginExe = PROBE_PLUGIN_EXE;

// A fresh directory per test, removed afterwards unless the test failed (to inspect it).
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info != nullptr ? std::string(info->test_suite_name()) + "." + info->name()
                                       : std::string("plugin_test");
    std::replace(name.begin(), name.end(), '/', '_');  // parameterized suites: "Grants/..."
    path_ = fs::temp_directory_path() /
            ("rpckit-" + name + "-" + std::to_string(::getpid()) + "-" +
             std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    if (!::testing::Test::HasFailure()) {
      std::error_code ec;
      fs::remove_all(path_, ec);
    }
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Messages of the plugin's `notify` notifications, in order.
inline std::vector<std::string> notify_messages(const ScriptedHost& host) {
  std::vector<std::string> out;
  for (const Frame& f : host.frames_from_plugin()) {
    if (f.method() == "notify") out.push_back(f.params().at("message"));
  }
  return out;
}

inline Json grant(std::vector<std::string> events, std::vector<std::string> host_methods,
                  std::vector<std::string> ui, std::vector<std::string> credentials = {}) {
  return Json{{"events", events},
              {"host_methods", host_methods},
              {"credentials", credentials},
              {"ui", ui}};
}

// Everything live-alerts' manifest requests.
inline Json full_grant() {
  return grant({"on_followed_live", "on_panel_change"}, {"get_followed_live", "notify", "log"},
               {"panel"});
}

inline Json no_grant() { return grant({}, {}, {}); }

inline Json init_params(const Json& granted, const fs::path& data_dir,
                        std::int64_t protocol_version = 1) {
  return Json{{"protocol_version", protocol_version},
              {"host_version", "7.8.6"},
              {"plugin_id", "dev.rpckit.live-alerts"},
              {"granted", granted},
              {"data_dir", (data_dir / "data").string()},
              {"log_dir", (data_dir / "log").string()}};
}

// A Channel as the real host sends it (with its undocumented `favorite`).
inline Json channel(const std::string& id, const std::optional<std::string>& game = "Chess") {
  return Json{{"channel_id", id},
              {"login", "login" + id},
              {"display_name", "Streamer" + id},
              {"game_id", game ? Json("g-" + *game) : Json(nullptr)},
              {"game_name", game ? Json(*game) : Json(nullptr)},
              {"started_at", "2024-05-01T12:00:00Z"},
              {"viewer_count", 42},
              {"favorite", true}};
}

inline Json channels(std::initializer_list<std::string> ids) {
  Json out = Json::array();
  for (const std::string& id : ids) out.push_back(channel(id));
  return out;
}

inline std::string alert_for(const std::string& id, const std::string& game = "Chess") {
  return "Streamer" + id + " is live playing " + game;
}

// The error object of a response frame / call result, for assertions.
inline Json error_of(const rpckit::CallResult& r) {
  if (r.ok()) return Json();
  return r.error().error.to_json();
}

// live-alerts as the host starts it: working directory = the plugin's install directory.
inline ScriptedHost::Options live_alerts_options(const fs::path& stderr_path) {
  ScriptedHost::Options options(kLiveAlertsExe, stderr_path);
  options.working_dir = fs::path(kLiveAlertsExe).parent_path().parent_path();
  return options;
}

// A ScriptedHost running live-alerts, with the answers a real host would give: register_panel
// {}, get_panel_values {values: panel_values}, get_followed_live {channels: live}, notify {}.
// The answers read `live` and `panel_values` when asked, so a test may change them.
struct LiveAlertsHost {
  explicit LiveAlertsHost(const fs::path& dir, std::string stderr_name = "stderr.txt")
      : host(live_alerts_options(dir / stderr_name)) {
    host.answer_result("register_panel", Json::object());
    host.answer("get_panel_values", [this](const Json&) {
      std::lock_guard lock(mutex);
      return Json{{"values", panel_values}};
    });
    host.answer("get_followed_live", [this](const Json&) {
      std::lock_guard lock(mutex);
      return Json{{"channels", live}};
    });
    host.answer_result("notify", Json::object());
  }

  void set_live(Json value) {
    std::lock_guard lock(mutex);
    live = std::move(value);
  }

  // initialize + initialized, then waits for the end of the start-up work (which runs while
  // the plugin handles `initialized`). Returns the initialize result.
  Json handshake(const Json& params) {
    host.start();
    rpckit::CallResult init = host.call("initialize", params);
    EXPECT_TRUE(init.ok()) << error_of(init).dump();
    if (!init.ok()) return Json();
    EXPECT_TRUE(host.notify("initialized", Json::object()));
    wait_started();
    barrier();
    return init.result();
  }

  // The last thing live-alerts' start-up does is one "started..." line, through `log` when
  // granted, else on stderr. (A ping is no barrier here: the runtime answers pings even while
  // on_start waits on the host.)
  void wait_started() {
    auto started_log = [](const Frame& f) {
      return f.method() == "log" && f.params().value("message", "").rfind("started", 0) == 0;
    };
    auto until = Clock::now() + kWait;
    do {
      if (host.wait_for(started_log, Millis(5))) return;
      if (host.stderr_text().find("] started") != std::string::npos) return;
    } while (Clock::now() < until);
    ADD_FAILURE() << "live-alerts did not finish its start-up";
  }

  // A ping round trip: once no handler waits on the host, the plugin handles messages one at
  // a time in arrival order, so everything it did for earlier messages is on the wire.
  void barrier() {
    rpckit::CallResult pong = host.call("ping", Json::object());
    ASSERT_TRUE(pong.ok()) << error_of(pong).dump();
    EXPECT_EQ(pong.result(), Json::object());
  }

  // shutdown -> null, exit -> exit code 0, and nothing but frames on stdout.
  void stop() {
    rpckit::CallResult bye = host.call("shutdown", std::nullopt);
    ASSERT_TRUE(bye.ok()) << error_of(bye).dump();
    EXPECT_TRUE(bye.result().is_null());
    EXPECT_TRUE(host.notify("exit", std::nullopt));
    EXPECT_EQ(host.wait_exit(), std::optional<int>(0));
    EXPECT_EQ(host.check_stdout_frames(), "");
  }

  std::mutex mutex;
  Json live = Json::array();
  Json panel_values = Json::object();
  ScriptedHost host;
};

}  // namespace plugin_test
