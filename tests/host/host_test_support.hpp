#pragma once
// Shared parts of host_e2e_test: a recording HostApplication, temp plugin directories with a
// real plugin.toml (loaded with load_manifest), a fixture that runs a Host at a fast time
// scale, and the checks every test ends with (no child process left behind).
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "rpckit/streamnook/host.hpp"
#include "rpckit/streamnook/manifest.hpp"

namespace host_test {

namespace fs = std::filesystem;
namespace rs = rpckit::streamnook;
namespace sn = ::streamnook::v1;
namespace msg = sn::messages;
using Json = nlohmann::json;
using Kind = rs::LifecycleEvent::Kind;
using rpckit::supervision::State;
using rpckit::supervision::StopCause;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

inline const char* const kMisbehavingPluginExe = MISBEHAVING_PLUGIN_EXE;
inline const char* const kDemoHostExe = DEMO_HOST_EXE;
inline const char* const kLiveAlertsPluginDir = LIVE_ALERTS_PLUGIN_DIR;

// Polls `condition` until it holds or `timeout` passes; the result of the last evaluation.
bool eventually(const std::function<bool()>& condition, milliseconds timeout);

// A fresh directory per test, removed afterwards unless the test failed (or
// RPCKIT_KEEP_TEST_DIRS is set).
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct LifecycleRecord {
  std::string plugin;
  Kind kind = Kind::kStarting;
  StopCause cause = StopCause::kRequested;
  std::string detail;
  milliseconds delay{0};
  Clock::time_point at;
};

struct FrameRecord {
  std::string plugin;
  bool outgoing = false;  // host to plugin
  Json message;  // the parsed body (the raw text as a string if not JSON or over 1 MiB)
  Clock::time_point at;
};

struct CallRecord {
  std::string plugin;
  std::string method;
  Json params;
};

struct ReportRecord {
  std::string plugin;
  std::string what;
};

// A HostApplication that records everything the host tells it and answers every host method
// with canned data. Tests can make a method throw (typed errors) or block (a slow app).
class RecordingApp : public rs::HostApplication {
 public:
  // Runs before a host method returns its canned answer; may throw an RpcError.
  using CallHook =
      std::function<void(const std::string& plugin, const std::string& method, const Json& params)>;
  void set_call_hook(CallHook hook);
  // Calls of `method` from `plugin` wait until release() (or 20 s at most).
  void block(const std::string& plugin, const std::string& method);
  void release();
  // Calls on_report and on_lifecycle make into the Host (as an app may): set to a host.
  void set_reentrant_host(rs::Host* host);
  // How ask_consent answers: at once (granted or not), or never (the answer is kept, see
  // answer_consent). Default: granted at once.
  enum class Consent { kGrant, kDeny, kHold };
  void set_consent(Consent consent);
  // Answers the prompts held so far; returns how many there were.
  int answer_consent(bool granted);
  int consent_prompts() const;
  // What tell_user said, per plugin.
  std::vector<std::string> told(const std::string& plugin) const;

  std::vector<LifecycleRecord> lifecycle(const std::string& plugin) const;
  std::vector<FrameRecord> frames(const std::string& plugin) const;
  std::vector<CallRecord> calls(const std::string& plugin, const std::string& method = "") const;
  std::vector<ReportRecord> reports(const std::string& plugin) const;

  int count(const std::string& plugin, Kind kind) const;
  int count(const std::string& plugin, Kind kind, StopCause cause) const;
  bool has_report(const std::string& plugin, const std::string& substring) const;
  // Frames with this method (requests and notifications), in `direction`.
  int count_frames(const std::string& plugin, bool outgoing, const std::string& method) const;
  // Waits (bounded) until `condition` holds; re-evaluated whenever something is recorded.
  bool await(const std::function<bool()>& condition, milliseconds timeout) const;
  bool await_lifecycle(const std::string& plugin, Kind kind, int times, milliseconds timeout) const;
  bool await_lifecycle(const std::string& plugin, Kind kind, StopCause cause, int times,
                       milliseconds timeout) const;

  // HostApplication
  sn::GetFollowedLiveResult get_followed_live(const rs::PluginContext& plugin,
                                              const sn::GetFollowedLiveParams& params) override;
  sn::SetUpstreamResult set_upstream(const rs::PluginContext& plugin,
                                     const sn::SetUpstreamParams& params) override;
  sn::Credential get_credential(const rs::PluginContext& plugin,
                                const sn::GetCredentialParams& params) override;
  sn::NotifyResult notify(const rs::PluginContext& plugin, const sn::NotifyParams& params) override;
  void log(const rs::PluginContext& plugin, const sn::LogParams& params) override;
  sn::RegisterPanelResult register_panel(const rs::PluginContext& plugin,
                                         const sn::RegisterPanelParams& params) override;
  sn::GetPanelValuesResult get_panel_values(const rs::PluginContext& plugin,
                                            const sn::GetPanelValuesParams& params) override;
  void set_status(const rs::PluginContext& plugin, const sn::SetStatusParams& params) override;
  void ask_consent(const rs::PluginContext& plugin, const sn::CredentialKind& kind,
                   ConsentAnswer answer) override;
  void tell_user(std::string_view plugin_id, std::string_view message) override;
  void on_lifecycle(const rs::LifecycleEvent& event) override;
  void on_report(std::string_view plugin_id, std::string_view what) override;
  void on_frame(std::string_view plugin_id, bool outgoing, std::string_view body) override;

 private:
  void record_call(const rs::PluginContext& plugin, const std::string& method, Json params);
  void changed();

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_cv_;
  std::uint64_t version_ = 0;
  std::vector<LifecycleRecord> lifecycle_;
  std::vector<FrameRecord> frames_;
  std::vector<CallRecord> calls_;
  std::vector<ReportRecord> reports_;
  CallHook hook_;
  std::set<std::pair<std::string, std::string>> blocked_;
  bool released_ = false;
  rs::Host* reentrant_host_ = nullptr;
  Consent consent_ = Consent::kGrant;
  int consent_prompts_ = 0;
  std::vector<ConsentAnswer> held_answers_;
  std::vector<std::pair<std::string, std::string>> told_;
};

// A plugin directory to create: plugin.toml plus bin/plugin (the misbehaving_plugin).
struct PluginSpec {
  enum class Entry { kSymlink, kCopy, kMissing, kNotExecutable };
  using List = std::vector<std::string>;

  PluginSpec(std::string plugin_id, List runtime_args)
      : id(std::move(plugin_id)), args(std::move(runtime_args)) {}
  PluginSpec& with_events(List v) {
    events = std::move(v);
    return *this;
  }
  PluginSpec& with_host_methods(List v) {
    host_methods = std::move(v);
    return *this;
  }
  PluginSpec& with_credentials(List v) {
    credentials = std::move(v);
    return *this;
  }
  PluginSpec& with_ui(List v) {
    ui = std::move(v);
    return *this;
  }
  PluginSpec& with_actions(List v) {
    actions = std::move(v);
    return *this;
  }
  PluginSpec& with_status(List v) {
    status = std::move(v);
    return *this;
  }
  PluginSpec& with_entry(Entry e) {
    entry = e;
    return *this;
  }
  PluginSpec& with_executable(std::string path) {
    executable = std::move(path);
    return *this;
  }

  PluginSpec& with_host_min(std::string v) {
    host_min = std::move(v);
    return *this;
  }
  PluginSpec& with_runtime_kind(std::string v) {
    runtime_kind = std::move(v);
    return *this;
  }

  std::string id;
  std::string host_min = "7.0.0";
  std::string runtime_kind = "process";
  List args;  // runtime.args: the misbehaving_plugin mode and options
  List events;
  List host_methods;
  List credentials;
  List ui;
  List actions = {"t.call", "t.fire", "t.send", "t.state", "t.echo", "t.never"};
  List status;
  Entry entry = Entry::kSymlink;
  std::string executable = kMisbehavingPluginExe;  // what bin/plugin is
};

// Writes <root>/<id>/{plugin.toml, bin/plugin} and returns the directory.
fs::path make_plugin_dir(const fs::path& root, const PluginSpec& spec);
// load_manifest() of that directory; fails the test if the manifest has issues.
rs::LoadedManifest load(const fs::path& dir);

sn::Granted grant(const std::vector<std::string>& events,
                  const std::vector<std::string>& host_methods,
                  const std::vector<std::string>& credentials = {},
                  const std::vector<std::string>& ui = {});
// Everything a Granted can name in v1.
sn::Granted grant_everything();
// The grant as wire strings, e.g. for comparisons with the plugin's view.
Json to_json(const sn::Granted& granted);

// pids of our child processes that still exist (zombies included), and the zombies alone.
std::vector<int> child_pids();
std::vector<int> zombie_pids();

// Aborts the whole test program (with a message) if not destroyed within `limit`: a host that
// deadlocks must fail the suite, not hang it.
class Watchdog {
 public:
  Watchdog(std::string what, milliseconds limit);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

// Runs one Host over the test's temp dir; every test ends with no child process left.
class HostTest : public ::testing::Test {
 protected:
  void TearDown() override;

  // Creates the host (once per test) at this time scale. Every timer is scaled but the
  // handshake deadline, which stays at kStartAllowance: a sanitizer-built plugin on a loaded
  // machine can take longer than a scaled 10 s to start, and a crash or an answer would then
  // race the deadline. The tests of the deadline itself pass kProtocolHandshake.
  static constexpr std::optional<milliseconds> kStartAllowance = milliseconds(10000);
  static constexpr std::optional<milliseconds> kProtocolHandshake = std::nullopt;
  rs::Host& make_host(double time_scale, std::size_t max_queued_events = 1024,
                      std::optional<milliseconds> handshake_timeout = kStartAllowance);
  rs::Host& host() { return *host_; }
  // make_plugin_dir + load + add_plugin with `granted` (nullopt: everything requested).
  void add(const PluginSpec& spec, std::optional<sn::Granted> granted = std::nullopt);
  void destroy_host();

  // invoke_action helpers on a misbehaving_plugin.
  rpckit::Result<rpckit::JsonValue> action(const std::string& plugin, const std::string& name,
                                           Json args = Json::object());
  // t.call: the plugin sends `method` with `params` to the host; the response envelope.
  Json call_host(const std::string& plugin, const std::string& method,
                 std::optional<Json> params = Json::object());
  // t.send: the plugin sends a notification; returns once the plugin has sent it.
  void send_host(const std::string& plugin, const std::string& method, Json params);
  // t.state: what the plugin has seen.
  Json plugin_state(const std::string& plugin);

  bool await_state(const std::string& plugin, State state, milliseconds timeout);
  bool await_running(const std::string& plugin, milliseconds timeout = milliseconds(10000)) {
    return app_.await_lifecycle(plugin, Kind::kRunning, 1, timeout);
  }

  fs::path data_dir(const std::string& plugin) const { return dir_.path() / "data" / plugin; }
  fs::path log_dir(const std::string& plugin) const { return dir_.path() / "logs" / plugin; }

  TempDir dir_;
  RecordingApp app_;
  std::unique_ptr<rs::Host> host_;
  double time_scale_ = 1.0;
};

// A chat line event with message.id = the sequence number.
sn::OnChatMessageParams chat(long seq, std::size_t text_size = 8);
sn::Channel channel(const std::string& id);
// Reads a whole file (empty if missing).
std::string read_file(const fs::path& file);

}  // namespace host_test
