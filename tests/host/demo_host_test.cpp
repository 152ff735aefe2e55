// streamnook-demo-host end to end with the live-alerts sample plugin: a full scripted session,
// SIGTERM and stdin EOF mid-run, and a run with no host methods granted.
#include <signal.h>

#include <fstream>
#include <future>
#include <sstream>

#include "host_test_support.hpp"
#include "rpckit/process/child_process.hpp"

namespace host_test {
namespace {

using namespace std::chrono_literals;
using rpckit::process::ChildProcess;
using rpckit::process::ExitStatus;

const char* const kPluginId = "dev.rpckit.live-alerts";

class HostDemo : public ::testing::Test {
 protected:
  void TearDown() override {
    if (child_) {
      child_->kill();
      child_->wait();
    }
    if (reader_.joinable()) reader_.join();
    child_.reset();
    EXPECT_EQ(child_pids(), std::vector<int>{});
  }

  fs::path transcript_path() const { return dir_.path() / "transcript.jsonl"; }
  fs::path state_dir() const { return dir_.path() / "state"; }
  fs::path plugin_log() const { return state_dir() / "logs" / kPluginId / "plugin.log"; }

  void start(std::vector<std::string> extra = {}) {
    rpckit::process::SpawnOptions options;
    options.executable = kDemoHostExe;
    options.args = {kLiveAlertsPluginDir,
                    "--time-scale",
                    "0.05",
                    "--transcript",
                    transcript_path().string(),
                    "--state-dir",
                    state_dir().string()};
    options.args.insert(options.args.end(), extra.begin(), extra.end());
    options.working_dir = dir_.path();
    options.stderr_log = dir_.path() / "demo.stderr";
    std::string error;
    child_ = ChildProcess::spawn(options, &error);
    ASSERT_TRUE(child_) << error;
    // Drain stdout (the readable transcript) so the demo never blocks on it.
    reader_ = std::thread([this, fd = child_->stdout_fd()] {
      char buffer[4096];
      for (;;) {
        ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0) break;
        std::lock_guard lock(mutex_);
        stdout_.append(buffer, static_cast<std::size_t>(n));
      }
    });
  }

  // The exit status, or nullopt (and the process killed) after `timeout`.
  std::optional<ExitStatus> wait_exit(milliseconds timeout) {
    ChildProcess* child = child_.get();
    auto waited = std::async(std::launch::async, [child] { return child->wait(); });
    if (waited.wait_for(timeout) != std::future_status::ready) {
      child_->kill();
      waited.wait();
      return std::nullopt;
    }
    return waited.get();
  }

  std::string stdout_text() {
    std::lock_guard lock(mutex_);
    return stdout_;
  }

  // The transcript's lines, each parsed (a line that does not parse fails the test).
  std::vector<Json> transcript() const {
    std::vector<Json> out;
    std::istringstream in(read_file(transcript_path()));
    std::string line;
    while (std::getline(in, line)) {
      Json entry = Json::parse(line, nullptr, false);
      EXPECT_FALSE(entry.is_discarded()) << "not JSON: " << line;
      if (!entry.is_discarded()) out.push_back(std::move(entry));
    }
    return out;
  }

  // Frames with `method` in `direction`, of one plugin (all plugins when `plugin` is empty).
  static int frames(const std::vector<Json>& lines, const std::string& direction,
                    const std::string& method, const std::string& plugin = "") {
    int n = 0;
    for (const auto& l : lines) {
      if (l.value("type", "") == "frame" && l.value("direction", "") == direction &&
          (plugin.empty() || l.value("plugin", "") == plugin) && l["message"].is_object() &&
          l["message"].value("method", "") == method) {
        ++n;
      }
    }
    return n;
  }

  static int lifecycle_count(const std::vector<Json>& lines, const std::string& plugin,
                             const std::string& event) {
    return static_cast<int>(std::count_if(lines.begin(), lines.end(), [&](const Json& l) {
      return l.value("type", "") == "lifecycle" && l.value("event", "") == event &&
             l.value("plugin", "") == plugin;
    }));
  }

  static bool has_lifecycle(const std::vector<Json>& lines, const std::string& event,
                            const std::string& cause) {
    return std::any_of(lines.begin(), lines.end(), [&](const Json& l) {
      return l.value("type", "") == "lifecycle" && l.value("event", "") == event &&
             l.value("cause", "") == cause && l.value("plugin", "") == kPluginId;
    });
  }

  // The graceful stop: shutdown answered, exit obeyed, no kill. The tests that check it run
  // the demo at a time scale whose exit grace (5 s times the scale) a prompt exit never
  // reaches, even a sanitizer build's on a loaded machine (about 10 ms under ASan).
  static bool stopped_gracefully(const std::vector<Json>& lines) {
    return has_lifecycle(lines, "stopped", "requested") && stopped_detail(lines) == "exit code 0";
  }

  // Stopped by the host at the end, gracefully or killed after the grace: for the tests at
  // --time-scale 0.05 (a 250 ms grace) that check something else.
  static bool stopped_by_the_host(const std::vector<Json>& lines) {
    return has_lifecycle(lines, "stopped", "requested") ||
           has_lifecycle(lines, "stopped", "exit_timeout");
  }

  static std::string stopped_detail(const std::vector<Json>& lines) {
    for (const auto& l : lines) {
      if (l.value("type", "") == "lifecycle" && l.value("event", "") == "stopped") {
        return l.value("detail", "");
      }
    }
    return "(no stopped line)";
  }

  static bool has_host_line(const std::vector<Json>& lines, const std::string& text) {
    return std::any_of(lines.begin(), lines.end(), [&](const Json& l) {
      return l.value("type", "") == "host" && l.value("text", "").find(text) != std::string::npos;
    });
  }

  bool await_running(milliseconds timeout) {
    return eventually(
        [&] {
          auto t = read_file(transcript_path());
          return t.find("\"event\":\"running\"") != std::string::npos;
        },
        timeout);
  }

  TempDir dir_;
  std::unique_ptr<ChildProcess> child_;
  std::thread reader_;
  std::mutex mutex_;
  std::string stdout_;
};

// The whole script is 15.5 steps of 5 s times the scale, the same scale as the exit grace: at
// 0.2 the session takes about 16 s and the grace is 1 s.
TEST_F(HostDemo, FullSessionExitsZeroWithACompleteTranscript) {
  start({"--time-scale", "0.2"});
  auto status = wait_exit(60s);
  ASSERT_TRUE(status.has_value()) << "the demo did not finish\n" << stdout_text();
  EXPECT_EQ(status->describe(), "exit code 0") << stdout_text();
  auto lines = transcript();
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(frames(lines, "host_to_plugin", "initialize"), 1);
  EXPECT_EQ(frames(lines, "host_to_plugin", "initialized"), 1);
  EXPECT_GE(frames(lines, "plugin_to_host", "notify"), 1);
  EXPECT_EQ(frames(lines, "host_to_plugin", "shutdown"), 1);
  EXPECT_EQ(frames(lines, "host_to_plugin", "exit"), 1);
  EXPECT_GE(frames(lines, "host_to_plugin", "on_followed_live"), 1);
  EXPECT_GE(frames(lines, "host_to_plugin", "invoke_action"), 1);
  EXPECT_TRUE(has_lifecycle(lines, "running", ""));
  EXPECT_EQ(lifecycle_count(lines, kPluginId, "stopped"), 1);
  // The plugin left with code 0 after `exit` (a sanitizer report would make it 66).
  EXPECT_TRUE(stopped_gracefully(lines)) << stopped_detail(lines);
  EXPECT_TRUE(has_host_line(lines, "the evening is over"));
  // Every frame's message is a JSON-RPC envelope.
  for (const auto& l : lines) {
    if (l.value("type", "") == "frame") {
      EXPECT_EQ(l["message"].value("jsonrpc", ""), "2.0");
    }
  }
}

// Real timings (a 5 s grace): the stop cuts the script's first pause short, so the test
// stays short.
TEST_F(HostDemo, SigtermMidRunStopsGracefully) {
  start({"--time-scale", "1"});
  ASSERT_TRUE(await_running(30s)) << stdout_text();
  ASSERT_EQ(::kill(child_->pid(), SIGTERM), 0);
  auto status = wait_exit(30s);
  ASSERT_TRUE(status.has_value()) << "no exit after SIGTERM\n" << stdout_text();
  EXPECT_EQ(status->describe(), "exit code 0");
  auto lines = transcript();
  EXPECT_TRUE(has_host_line(lines, "SIGTERM: stopping"));
  EXPECT_FALSE(has_host_line(lines, "the evening is over"));  // cut short
  EXPECT_EQ(frames(lines, "host_to_plugin", "shutdown"), 1);
  EXPECT_EQ(frames(lines, "host_to_plugin", "exit"), 1);
  EXPECT_TRUE(stopped_gracefully(lines)) << stopped_detail(lines);
}

TEST_F(HostDemo, ClosingStdinStopsGracefully) {
  start({"--time-scale", "1"});  // as SigtermMidRunStopsGracefully
  ASSERT_TRUE(await_running(30s)) << stdout_text();
  child_->close_stdin();
  auto status = wait_exit(30s);
  ASSERT_TRUE(status.has_value()) << "no exit after stdin EOF\n" << stdout_text();
  EXPECT_EQ(status->describe(), "exit code 0");
  auto lines = transcript();
  EXPECT_TRUE(has_host_line(lines, "stdin closed: stopping"));
  EXPECT_FALSE(has_host_line(lines, "the evening is over"));
  EXPECT_EQ(frames(lines, "host_to_plugin", "shutdown"), 1);
  EXPECT_EQ(frames(lines, "host_to_plugin", "exit"), 1);
  EXPECT_TRUE(stopped_gracefully(lines)) << stopped_detail(lines);
}

// At the full session's scale (0.2): at 0.05 the handshake has 500 ms and the script waits 3 s
// for the plugin to come up, which an ASan build on a loaded machine missed once, so the
// session ran with no plugin.
TEST_F(HostDemo, NoHostMethodsMeansOnlyStderrLogsAndNoNotify) {
  start({"--host-methods", "none", "--time-scale", "0.2"});
  auto status = wait_exit(60s);
  ASSERT_TRUE(status.has_value()) << stdout_text();
  EXPECT_EQ(status->describe(), "exit code 0");
  auto lines = transcript();
  ASSERT_TRUE(has_lifecycle(lines, "running", "")) << stdout_text();
  EXPECT_EQ(frames(lines, "plugin_to_host", "notify"), 0);
  EXPECT_EQ(frames(lines, "plugin_to_host", "log"), 0);
  EXPECT_EQ(frames(lines, "plugin_to_host", "get_followed_live"), 0);
  EXPECT_TRUE(stopped_by_the_host(lines));
  // The plugin still ran the whole session, and said so on stderr (its log file).
  EXPECT_GE(frames(lines, "host_to_plugin", "on_followed_live"), 1);
  std::string log = read_file(plugin_log());
  EXPECT_NE(log.find("[info]"), std::string::npos) << log;
  EXPECT_NE(log.find("started"), std::string::npos) << log;
}

// The demo host (the command a plugin author runs) with the hostile plugin cases at once
// beside the sample plugin: the demo never crashes (both crashes that opened the
// hostile-input issue were here: a 30 KB playlist_url and a 30,000-deep frame), each offender
// gets its documented answers, and live-alerts runs its whole session undisturbed.
TEST_F(HostDemo, HostilePluginsAllAtOnceAndLiveAlertsIsUndisturbed) {
  // Every case but "wide" (300,000-member values, each answered within 60 s): under ASan beside
  // nine other offenders and a loaded machine the host's parse missed that deadline, which says
  // nothing of the demo. It runs alone in HostilePlugin/wide, in dev and under both sanitizers.
  const std::vector<std::string> cases = {
      "long-strings", "deep-nesting",   "numbers",            "duplicate-keys", "encoding",
      "garbage",      "response-abuse", "notification-flood", "endless-header"};
  std::vector<std::string> args;
  for (const std::string& c : cases) {
    fs::path dir = make_plugin_dir(
        dir_.path(), PluginSpec("test.hostile." + c, {c, (dir_.path() / (c + ".json")).string()})
                         .with_executable(HOSTILE_PLUGIN_PY)
                         .with_events({"on_followed_live", "on_chat_message"})
                         .with_host_methods({"get_followed_live", "set_upstream", "notify", "log"})
                         .with_credentials({"twitch.android"})
                         .with_ui({"panel"})
                         .with_status({"h.status"})
                         .with_actions({"h.deep"}));
    args.push_back(dir.string());
  }
  // The spec's own timers: pings every 30 s, and a ping or handshake answer has its full time
  // from a plugin busy flooding on a loaded sanitizer build (at half of them, a missed ping
  // restarted notification-flood under ASan). --serve keeps the demo up after its session
  // until every case is done, however slow the build.
  args.insert(args.end(), {"--time-scale", "1", "--serve"});
  start(args);
  for (const std::string& c : cases) {
    EXPECT_TRUE(eventually([&] { return fs::exists(dir_.path() / (c + ".json")); }, 300s))
        << c << ": no verdict\n" << stdout_text().substr(0, 4000);
  }
  ASSERT_TRUE(eventually(
      [&] { return read_file(transcript_path()).find("the evening is over") != std::string::npos; },
      300s))
      << "the scripted session did not end";
  child_->close_stdin();
  auto status = wait_exit(60s);
  ASSERT_TRUE(status.has_value()) << "the demo did not stop\n" << stdout_text().substr(0, 4000);
  // The endless-header offender breaks the framing at every start: restarted, then disabled.
  EXPECT_EQ(status->describe(), "exit code 1") << stdout_text().substr(0, 4000);

  auto lines = transcript();
  for (const std::string& c : cases) {
    std::ifstream in(dir_.path() / (c + ".json"));
    Json verdict = Json::parse(in, nullptr, false);
    EXPECT_TRUE(verdict.is_object() && verdict.value("ok", false)) << c << ": " << verdict.dump(2);
    const std::string id = "test.hostile." + c;
    if (c == "endless-header") {
      EXPECT_GE(lifecycle_count(lines, id, "disabled"), 1);
    } else {
      EXPECT_EQ(lifecycle_count(lines, id, "running"), 1) << id << " was restarted";
    }
  }
  // live-alerts: up once, every event of the script, stopped once by the host at the end.
  EXPECT_EQ(lifecycle_count(lines, kPluginId, "running"), 1);
  EXPECT_EQ(lifecycle_count(lines, kPluginId, "stopped"), 1);
  EXPECT_TRUE(stopped_by_the_host(lines));
  // The script's four, and the ones --serve sends meanwhile.
  EXPECT_GE(frames(lines, "host_to_plugin", "on_followed_live", kPluginId), 4);
  EXPECT_EQ(frames(lines, "host_to_plugin", "on_panel_change", kPluginId), 2);
  EXPECT_EQ(frames(lines, "host_to_plugin", "invoke_action", kPluginId), 1);
  EXPECT_GE(frames(lines, "plugin_to_host", "notify", kPluginId), 1);
}

}  // namespace
}  // namespace host_test
