#include "host_test_support.hpp"

#include "rpckit/codec/json_reader.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace host_test {

namespace {
constexpr std::size_t kParsedFrameBytes = std::size_t{1} << 20;  // larger frames stay text
}  // namespace

bool eventually(const std::function<bool()>& condition, milliseconds timeout) {
  auto until = Clock::now() + timeout;
  for (;;) {
    if (condition()) return true;
    if (Clock::now() >= until) return condition();
    std::this_thread::sleep_for(milliseconds(2));
  }
}

// ---- TempDir ------------------------------------------------------------------------------

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info != nullptr ? std::string(info->test_suite_name()) + "." + info->name()
                                     : std::string("host_test");
  std::replace(name.begin(), name.end(), '/', '_');
  path_ = fs::temp_directory_path() / ("rpckit-host-" + name + "-" + std::to_string(::getpid()) +
                                       "-" + std::to_string(counter++));
  fs::remove_all(path_);
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  // RPCKIT_KEEP_TEST_DIRS=1 keeps them all (plugin.log files hold the plugins' stderr, e.g.
  // sanitizer reports of a plugin process).
  if (!::testing::Test::HasFailure() && std::getenv("RPCKIT_KEEP_TEST_DIRS") == nullptr) {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
}

// ---- RecordingApp -------------------------------------------------------------------------

void RecordingApp::set_call_hook(CallHook hook) {
  std::lock_guard lock(mutex_);
  hook_ = std::move(hook);
}

void RecordingApp::block(const std::string& plugin, const std::string& method) {
  std::lock_guard lock(mutex_);
  blocked_.emplace(plugin, method);
  released_ = false;
}

void RecordingApp::release() {
  std::lock_guard lock(mutex_);
  released_ = true;
  changed_cv_.notify_all();
}

void RecordingApp::set_reentrant_host(rs::Host* host) {
  std::lock_guard lock(mutex_);
  reentrant_host_ = host;
}

void RecordingApp::changed() {
  ++version_;
  changed_cv_.notify_all();
}

std::vector<LifecycleRecord> RecordingApp::lifecycle(const std::string& plugin) const {
  std::lock_guard lock(mutex_);
  std::vector<LifecycleRecord> out;
  for (const auto& r : lifecycle_) {
    if (r.plugin == plugin) out.push_back(r);
  }
  return out;
}

std::vector<FrameRecord> RecordingApp::frames(const std::string& plugin) const {
  std::lock_guard lock(mutex_);
  std::vector<FrameRecord> out;
  for (const auto& r : frames_) {
    if (r.plugin == plugin) out.push_back(r);
  }
  return out;
}

std::vector<CallRecord> RecordingApp::calls(const std::string& plugin,
                                            const std::string& method) const {
  std::lock_guard lock(mutex_);
  std::vector<CallRecord> out;
  for (const auto& r : calls_) {
    if (r.plugin == plugin && (method.empty() || r.method == method)) out.push_back(r);
  }
  return out;
}

std::vector<ReportRecord> RecordingApp::reports(const std::string& plugin) const {
  std::lock_guard lock(mutex_);
  std::vector<ReportRecord> out;
  for (const auto& r : reports_) {
    if (r.plugin == plugin) out.push_back(r);
  }
  return out;
}

int RecordingApp::count(const std::string& plugin, Kind kind) const {
  std::lock_guard lock(mutex_);
  return static_cast<int>(std::count_if(lifecycle_.begin(), lifecycle_.end(), [&](const auto& r) {
    return r.plugin == plugin && r.kind == kind;
  }));
}

int RecordingApp::count(const std::string& plugin, Kind kind, StopCause cause) const {
  std::lock_guard lock(mutex_);
  return static_cast<int>(std::count_if(lifecycle_.begin(), lifecycle_.end(), [&](const auto& r) {
    return r.plugin == plugin && r.kind == kind && r.cause == cause;
  }));
}

bool RecordingApp::has_report(const std::string& plugin, const std::string& substring) const {
  std::lock_guard lock(mutex_);
  return std::any_of(reports_.begin(), reports_.end(), [&](const auto& r) {
    return r.plugin == plugin && r.what.find(substring) != std::string::npos;
  });
}

int RecordingApp::count_frames(const std::string& plugin, bool outgoing,
                               const std::string& method) const {
  std::lock_guard lock(mutex_);
  return static_cast<int>(std::count_if(frames_.begin(), frames_.end(), [&](const auto& r) {
    return r.plugin == plugin && r.outgoing == outgoing && r.message.is_object() &&
           r.message.value("method", "") == method;
  }));
}

bool RecordingApp::await(const std::function<bool()>& condition, milliseconds timeout) const {
  auto until = Clock::now() + timeout;
  for (;;) {
    std::uint64_t seen = 0;
    {
      std::lock_guard lock(mutex_);
      seen = version_;
    }
    if (condition()) return true;
    std::unique_lock lock(mutex_);
    if (Clock::now() >= until) {
      lock.unlock();
      return condition();
    }
    // Re-check at least every 20 ms: the condition may also depend on the host's state.
    changed_cv_.wait_until(lock, std::min(until, Clock::now() + milliseconds(20)),
                           [&] { return version_ != seen; });
  }
}

bool RecordingApp::await_lifecycle(const std::string& plugin, Kind kind, int times,
                                   milliseconds timeout) const {
  return await([&] { return count(plugin, kind) >= times; }, timeout);
}

bool RecordingApp::await_lifecycle(const std::string& plugin, Kind kind, StopCause cause, int times,
                                   milliseconds timeout) const {
  return await([&] { return count(plugin, kind, cause) >= times; }, timeout);
}

void RecordingApp::record_call(const rs::PluginContext& plugin, const std::string& method,
                               Json params) {
  CallHook hook;
  bool blocked = false;
  {
    std::lock_guard lock(mutex_);
    calls_.push_back({plugin.plugin_id, method, std::move(params)});
    hook = hook_;
    blocked = blocked_.count({plugin.plugin_id, method}) != 0;
    changed();
  }
  if (blocked) {
    std::unique_lock lock(mutex_);
    changed_cv_.wait_for(lock, milliseconds(20000), [&] { return released_; });
  }
  if (hook) hook(plugin.plugin_id, method, calls(plugin.plugin_id, method).back().params);
}

sn::GetFollowedLiveResult RecordingApp::get_followed_live(const rs::PluginContext& plugin,
                                                          const sn::GetFollowedLiveParams& p) {
  record_call(plugin, "get_followed_live", Json(p));
  return {{channel("101")}};
}

sn::SetUpstreamResult RecordingApp::set_upstream(const rs::PluginContext& plugin,
                                                 const sn::SetUpstreamParams& p) {
  record_call(plugin, "set_upstream", Json(p));
  return {};
}

sn::Credential RecordingApp::get_credential(const rs::PluginContext& plugin,
                                            const sn::GetCredentialParams& p) {
  record_call(plugin, "get_credential", Json(p));
  sn::Credential c;
  c.kind = p.kind;
  c.token = "test-token";
  c.client_id = nullptr;
  c.user_id = "1000";
  c.device_id = nullptr;
  c.expires_at = nullptr;
  return c;
}

sn::NotifyResult RecordingApp::notify(const rs::PluginContext& plugin, const sn::NotifyParams& p) {
  record_call(plugin, "notify", Json(p));
  return {};
}

void RecordingApp::log(const rs::PluginContext& plugin, const sn::LogParams& p) {
  record_call(plugin, "log", Json(p));
}

sn::RegisterPanelResult RecordingApp::register_panel(const rs::PluginContext& plugin,
                                                     const sn::RegisterPanelParams& p) {
  record_call(plugin, "register_panel", Json(p));
  return {};
}

sn::GetPanelValuesResult RecordingApp::get_panel_values(const rs::PluginContext& plugin,
                                                        const sn::GetPanelValuesParams& p) {
  record_call(plugin, "get_panel_values", Json(p));
  sn::PanelValues values;
  values["quiet"] = sn::PanelValue{true};
  return {values};
}

void RecordingApp::set_status(const rs::PluginContext& plugin, const sn::SetStatusParams& p) {
  record_call(plugin, "set_status", Json(p));
}

void RecordingApp::set_consent(Consent consent) {
  std::lock_guard lock(mutex_);
  consent_ = consent;
}

int RecordingApp::answer_consent(bool granted) {
  std::vector<ConsentAnswer> held;
  {
    std::lock_guard lock(mutex_);
    held.swap(held_answers_);
  }
  for (auto& answer : held) answer(granted);
  return static_cast<int>(held.size());
}

int RecordingApp::consent_prompts() const {
  std::lock_guard lock(mutex_);
  return consent_prompts_;
}

std::vector<std::string> RecordingApp::told(const std::string& plugin) const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [id, message] : told_) {
    if (id == plugin) out.push_back(message);
  }
  return out;
}

void RecordingApp::ask_consent(const rs::PluginContext&, const sn::CredentialKind&,
                               ConsentAnswer answer) {
  Consent consent;
  {
    std::lock_guard lock(mutex_);
    ++consent_prompts_;
    consent = consent_;
    if (consent == Consent::kHold) held_answers_.push_back(answer);
    changed();
  }
  if (consent != Consent::kHold) answer(consent == Consent::kGrant);
}

void RecordingApp::tell_user(std::string_view plugin_id, std::string_view message) {
  std::lock_guard lock(mutex_);
  told_.emplace_back(std::string(plugin_id), std::string(message));
  changed();
}

void RecordingApp::on_lifecycle(const rs::LifecycleEvent& event) {
  rs::Host* host = nullptr;
  {
    std::lock_guard lock(mutex_);
    lifecycle_.push_back(
        {event.plugin_id, event.kind, event.cause, event.detail, event.delay, Clock::now()});
    host = reentrant_host_;
    changed();
  }
  if (host != nullptr) {
    (void)host->state(event.plugin_id);
    (void)host->hooks(event.plugin_id);
  }
}

void RecordingApp::on_report(std::string_view plugin_id, std::string_view what) {
  rs::Host* host = nullptr;
  {
    std::lock_guard lock(mutex_);
    reports_.push_back({std::string(plugin_id), std::string(what)});
    host = reentrant_host_;
    changed();
  }
  if (host != nullptr) {
    std::string id(plugin_id);
    (void)host->state(id);
    (void)host->hooks(id);
    (void)host->granted(id);
  }
}

void RecordingApp::on_frame(std::string_view plugin_id, bool outgoing, std::string_view body) {
  // Parsed only when within the runtime's limits: a plugin's 30,000-deep frame must not
  // overflow this recorder's stack when a test copies or compares it. A frame over 1 MiB stays
  // text: this runs on the reading thread, and parsing a hostile plugin's 300,000 members into
  // a DOM here took a third of that thread's time, which the host's answers then waited for.
  Json message = std::string(body);
  try {
    if (body.size() <= kParsedFrameBytes) {
      rpckit::codec::validate_json(body);
      message = Json::parse(body, nullptr, false);
      if (message.is_discarded()) message = std::string(body);
    }
  } catch (const rpckit::codec::JsonError&) {
  }
  std::lock_guard lock(mutex_);
  frames_.push_back({std::string(plugin_id), outgoing, std::move(message), Clock::now()});
  changed();
}

// ---- plugin directories -------------------------------------------------------------------

namespace {

std::string toml_list(const std::vector<std::string>& values) {
  // TOML basic strings accept JSON's escapes for what these tests use.
  return Json(values).dump();
}

}  // namespace

fs::path make_plugin_dir(const fs::path& root, const PluginSpec& spec) {
  fs::path dir = root / "plugins" / spec.id;
  fs::create_directories(dir / "bin");
  std::ofstream toml(dir / "plugin.toml");
  toml << "id = " << Json(spec.id).dump() << "\n"
       << "name = \"Test plugin\"\n"
       << "version = \"1.0.0\"\n"
       << "author = \"host_e2e_test\"\n"
       << "tier = \"C\"\n"
       << "description = \"A misbehaving_plugin under test\"\n"
       << "host_min = \"" << spec.host_min << "\"\n\n"
       << "[runtime]\n"
       << "kind = \"" << spec.runtime_kind << "\"\n"
       << "entry = \"bin/plugin\"\n"
       << "args = " << toml_list(spec.args) << "\n\n"
       << "[capabilities]\n"
       << "events = " << toml_list(spec.events) << "\n"
       << "host_methods = " << toml_list(spec.host_methods) << "\n"
       << "credentials = " << toml_list(spec.credentials) << "\n"
       << "ui = " << toml_list(spec.ui) << "\n\n"
       << "[contributes]\n"
       << "actions = " << toml_list(spec.actions) << "\n"
       << "status = " << toml_list(spec.status) << "\n";
  toml.close();
  fs::path entry = dir / "bin" / "plugin";
  switch (spec.entry) {
    case PluginSpec::Entry::kSymlink:
      fs::create_symlink(spec.executable, entry);
      break;
    case PluginSpec::Entry::kCopy:
      fs::copy_file(spec.executable, entry);
      break;
    case PluginSpec::Entry::kMissing:
      break;
    case PluginSpec::Entry::kNotExecutable: {
      std::ofstream(entry) << "#!/bin/sh\nexit 0\n";
      fs::permissions(entry, fs::perms::owner_read | fs::perms::owner_write);
      break;
    }
  }
  return dir;
}

rs::LoadedManifest load(const fs::path& dir) {
  rs::ManifestResult result = rs::load_manifest(dir);
  for (const auto& issue : result.issues) ADD_FAILURE() << dir << ": " << issue.str();
  if (!result.ok()) throw std::runtime_error("invalid test manifest in " + dir.string());
  return *result.loaded;
}

sn::Granted grant(const std::vector<std::string>& events,
                  const std::vector<std::string>& host_methods,
                  const std::vector<std::string>& credentials, const std::vector<std::string>& ui) {
  sn::Granted g;
  for (const auto& e : events) g.events.push_back(sn::EventName::from_wire(e));
  for (const auto& m : host_methods) g.host_methods.push_back(sn::HostMethodName::from_wire(m));
  for (const auto& c : credentials) g.credentials.push_back(sn::CredentialKind::from_wire(c));
  for (const auto& u : ui) g.ui.push_back(sn::UiCapability::from_wire(u));
  return g;
}

sn::Granted grant_everything() {
  return grant(
      {"on_stream_start", "on_stream_stop", "on_channel_change", "on_watch_tick",
       "on_followed_live", "on_chat_message", "on_settings_change", "on_panel_change"},
      {"get_followed_live", "set_upstream", "notify", "log", "register_panel", "get_panel_values"},
      {"twitch.android"}, {"panel"});
}

Json to_json(const sn::Granted& granted) { return Json(granted); }

namespace {

// Our children: pid and state letter (R, S, Z, ...).
std::vector<std::pair<int, char>> children() {
  std::vector<std::pair<int, char>> out;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return out;
  int self = static_cast<int>(::getpid());
  while (dirent* entry = ::readdir(proc)) {
    int pid = std::atoi(entry->d_name);
    if (pid <= 0) continue;
    std::ifstream stat("/proc/" + std::string(entry->d_name) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // pid (comm) state ppid ...: comm may hold spaces, so parse after the last ')'.
    auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 1));
    std::string state;
    int ppid = 0;
    rest >> state >> ppid;
    if (ppid == self) out.emplace_back(pid, state.empty() ? '?' : state[0]);
  }
  ::closedir(proc);
  return out;
}

}  // namespace

std::vector<int> child_pids() {
  std::vector<int> out;
  for (auto [pid, state] : children()) out.push_back(pid);
  return out;
}

std::vector<int> zombie_pids() {
  std::vector<int> out;
  for (auto [pid, state] : children()) {
    if (state == 'Z') out.push_back(pid);
  }
  return out;
}

Watchdog::Watchdog(std::string what, milliseconds limit) {
  thread_ = std::thread([this, what = std::move(what), limit] {
    std::unique_lock lock(mutex_);
    if (!cv_.wait_for(lock, limit, [&] { return done_; })) {
      std::fprintf(stderr, "WATCHDOG: %s did not finish within %lld ms (deadlock?)\n", what.c_str(),
                   static_cast<long long>(limit.count()));
      std::abort();
    }
  });
}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
    cv_.notify_all();
  }
  thread_.join();
}

// ---- HostTest -----------------------------------------------------------------------------

rs::Host& HostTest::make_host(double time_scale, std::size_t max_queued_events,
                              std::optional<milliseconds> handshake_timeout) {
  rs::HostOptions options;
  options.handshake_timeout = handshake_timeout;
  options.data_root = dir_.path() / "data";
  options.log_root = dir_.path() / "logs";
  options.time_scale = time_scale;
  options.max_queued_events = max_queued_events;
  time_scale_ = time_scale;
  host_ = std::make_unique<rs::Host>(app_, options);
  return *host_;
}

void HostTest::add(const PluginSpec& spec, std::optional<sn::Granted> granted) {
  rs::LoadedManifest manifest = load(make_plugin_dir(dir_.path(), spec));
  sn::Granted g = granted ? *granted : rs::requested_capabilities(manifest.manifest);
  ASSERT_TRUE(host_->add_plugin(std::move(manifest), g));
}

void HostTest::destroy_host() {
  app_.release();
  host_.reset();  // callbacks may still call into the Host while it stops everything
  app_.set_reentrant_host(nullptr);
}

void HostTest::TearDown() {
  destroy_host();
  // Every plugin process has been reaped: none alive, no zombie.
  EXPECT_EQ(child_pids(), std::vector<int>{});
  siginfo_t info{};
  int rc = ::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT);
  EXPECT_TRUE(rc == -1 || info.si_pid == 0) << "an unreaped child: pid " << info.si_pid;
}

rpckit::Result<rpckit::JsonValue> HostTest::action(const std::string& plugin,
                                                   const std::string& name, Json args) {
  return host_->invoke_action(plugin, name, rpckit::JsonValue(std::move(args)));
}

Json HostTest::call_host(const std::string& plugin, const std::string& method,
                         std::optional<Json> params) {
  Json args = {{"method", method}};
  if (params) args["params"] = *params;
  auto result = action(plugin, "t.call", args);
  if (!result.ok()) {
    ADD_FAILURE() << "t.call " << method << ": " << result.error().describe();
    return nullptr;
  }
  return result->get().at("response");
}

void HostTest::send_host(const std::string& plugin, const std::string& method, Json params) {
  auto result = action(plugin, "t.send", {{"method", method}, {"params", std::move(params)}});
  if (!result.ok()) {
    ADD_FAILURE() << "t.send " << method << ": " << result.error().describe();
  }
}

Json HostTest::plugin_state(const std::string& plugin) {
  auto result = action(plugin, "t.state");
  if (!result.ok()) {
    ADD_FAILURE() << "t.state: " << result.error().describe();
    return Json::object();
  }
  return result->get();
}

bool HostTest::await_state(const std::string& plugin, State state, milliseconds timeout) {
  return eventually([&] { return host_->state(plugin) == state; }, timeout);
}

// ---- data ---------------------------------------------------------------------------------

sn::Channel channel(const std::string& id) {
  sn::Channel c;
  c.channel_id = id;
  c.login = "login" + id;
  c.display_name = "Channel " + id;
  c.game_id = nullptr;
  c.game_name = nullptr;
  c.started_at = nullptr;
  c.viewer_count = nullptr;
  return c;
}

sn::OnChatMessageParams chat(long seq, std::size_t text_size) {
  sn::ChatMessage m;
  m.id = std::to_string(seq);
  m.user_id = "u1";
  m.login = "viewer";
  m.display_name = "Viewer";
  m.color = nullptr;
  m.text = std::string(text_size, 'x');
  m.is_action = false;
  m.msg_type = nullptr;
  m.system_message = nullptr;
  m.bits = nullptr;
  m.ts = "2026-11-20T18:00:00Z";
  return {"somechannel", m};
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace host_test
