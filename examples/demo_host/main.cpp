// streamnook-demo-host: a command-line StreamNook host. Give it one or more plugin
// directories; it checks each manifest, shows what each plugin requests and what it is
// granted, runs them together through a scripted session with demo data, and prints the
// conversation and the lifecycle.
//
//   streamnook-demo-host build/dev/examples/live_alerts/plugin --time-scale 0.1
//   streamnook-demo-host <dir> [<dir>...] --host-methods log,notify --transcript out.jsonl
//   streamnook-demo-host --plain [--call M[=JSON]]... <dir>   any plugin: its lifecycle and
//       the calls given, a verdict on the plugin (exit 0/1/2, see plain_session.hpp)
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <system_error>
#include <thread>

#include "demo_app.hpp"
#include "plain_session.hpp"
#include "rpckit/streamnook/host.hpp"
#include "rpckit/streamnook/manifest.hpp"
#include "script.hpp"
#include "streamnook_v1/constants.hpp"
#include "transcript.hpp"

namespace {

namespace sn = ::streamnook::v1;

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty() && item != "none") out.push_back(item);
  }
  return out;
}

template <class E>
std::vector<E> parse_list(const std::optional<std::string>& flag, const std::vector<E>& all) {
  if (!flag) return all;
  std::vector<E> out;
  for (const std::string& s : split(*flag)) out.push_back(E::from_wire(s));
  return out;
}

template <class E>
std::string join(const std::vector<E>& values) {
  std::string out;
  for (const E& v : values) out += (out.empty() ? "" : ", ") + std::string(v.wire());
  return out.empty() ? "-" : out;
}

// The state folder the demo made for itself goes when the demo ends; one given with
// --state-dir is the user's and stays.
class TemporaryFolder {
 public:
  TemporaryFolder() = default;
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  ~TemporaryFolder() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  // Returns the new folder's path, or an empty string when none could be made.
  std::string make(const char* prefix) {
    std::string pattern = (std::filesystem::temp_directory_path() / prefix).string() + "XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) return {};
    path_ = pattern;
    return path_;
  }
  bool owns(const std::string& path) const { return !path_.empty() && path == path_; }

 private:
  std::string path_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"streamnook-demo-host: run a StreamNook plugin through a scripted session"};
  std::vector<std::string> plugin_dirs;
  double time_scale = 1.0;
  std::string transcript_path;
  std::string state_dir;
  bool frames = true;
  std::optional<std::string> events, host_methods, credentials, ui;
  cli.add_option("plugin_dirs", plugin_dirs,
                 "Plugin directories (each holds a plugin.toml); they run side by side")
      ->required()
      ->check(CLI::ExistingDirectory);
  cli.add_option("--time-scale", time_scale,
                 "Multiplies every protocol timer and the demo's pacing (0.1 = ten times faster)")
      ->check(CLI::Range(0.001, 100.0))
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  cli.add_option("--transcript", transcript_path,
                 "Also write a JSON-lines transcript (one line per frame and lifecycle event)");
  cli.add_option("--state-dir", state_dir,
                 "Where plugins' data_dir and log_dir go, kept after the run (default: a new "
                 "temporary folder, removed when the demo ends)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  cli.add_option("--events", events, "Grant only these events (comma list, 'none' for none)");
  cli.add_option("--host-methods", host_methods, "Grant only these host methods");
  cli.add_option("--credentials", credentials, "Grant only these credential kinds");
  cli.add_option("--ui", ui, "Grant only these ui capabilities");
  cli.add_flag("!--no-frames", frames, "Do not print every frame, only the lifecycle");
  bool serve = false;
  bool script_session = true;
  cli.add_flag("--serve", serve,
               "After the session, keep running (periodic on_watch_tick and on_followed_live) "
               "until SIGINT, SIGTERM or stdin EOF");
  cli.add_flag("!--no-script", script_session,
               "Skip the scripted session (with --serve: start the plugins and serve)");
  bool stdin_stops = true;
  cli.add_flag("!--ignore-stdin", stdin_stops,
               "Do not stop when stdin closes (for runs with stdin at /dev/null)");
  bool plain = false;
  std::vector<std::string> call_args;
  cli.add_flag("--plain", plain,
               "Run one plugin through its lifecycle and the --call messages only, and judge it "
               "(exit 0 conformed, 1 violated the spec, 2 usage or launch error)");
  cli.add_option("--call", call_args,
                 "With --plain: invoke_action=PARAMS_JSON or an event METHOD=PARAMS_JSON, in order");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e) == 0 ? 0 : 2;
  }
  auto parsed = rpckit_examples::parse_plain_calls(call_args);
  if (!parsed) return 2;
  std::vector<rpckit_examples::PlainCall> calls = std::move(*parsed);
  if (plain && plugin_dirs.size() != 1) {
    std::fprintf(stderr, "--plain judges one plugin: give one plugin directory\n");
    return 2;
  }
  if (!plain && !calls.empty()) {
    std::fprintf(stderr, "--call is for --plain\n");
    return 2;
  }

  // Signals are handled by one thread (sigwait), so block them before any thread starts.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  rpckit::streamnook::HostOptions options;
  std::vector<rpckit::streamnook::LoadedManifest> manifests;
  for (const std::string& plugin_dir : plugin_dirs) {
    rpckit::streamnook::ManifestResult manifest = rpckit::streamnook::load_manifest(plugin_dir);
    if (!manifest.ok()) {
      std::fprintf(stderr, "%s/plugin.toml is not a valid manifest:\n", plugin_dir.c_str());
      for (const auto& issue : manifest.issues) {
        std::fprintf(stderr, "  %s\n", issue.located(plugin_dir + "/plugin.toml").c_str());
      }
      return 2;
    }
    // Allowed by the spec, refused or ignored by the real StreamNook host: said, not fatal.
    for (const auto& warning : manifest.warnings) {
      std::fprintf(stderr, "%s\n", warning.located(plugin_dir + "/plugin.toml").c_str());
    }
    manifests.push_back(std::move(*manifest.loaded));
  }

  TemporaryFolder temporary_state;
  if (state_dir.empty()) {
    state_dir = temporary_state.make("streamnook-demo-");
    if (state_dir.empty()) {
      std::perror("cannot make a temporary state folder (give one with --state-dir)");
      return 2;
    }
  }
  options.data_root = std::filesystem::path(state_dir) / "data";
  options.log_root = std::filesystem::path(state_dir) / "logs";
  options.time_scale = time_scale;

  // In plain mode stdout carries the calls' lines only: the readable account goes to stderr.
  rpckit_examples::Transcript transcript(frames && !plain, "host", "plugin",
                                         plain ? stderr : stdout);
  if (!transcript_path.empty()) {
    std::string error;
    if (!transcript.open_jsonl(transcript_path, &error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 2;
    }
  }
  if (plain) {
    demo::PlainSession session{manifests.front(), {}, std::move(calls), options};
    sn::Granted requested = rpckit::streamnook::requested_capabilities(manifests.front().manifest);
    session.offered.events = parse_list(events, requested.events);
    session.offered.host_methods = parse_list(host_methods, requested.host_methods);
    session.offered.credentials = parse_list(credentials, requested.credentials);
    session.offered.ui = parse_list(ui, requested.ui);
    session.start_timeout =
        std::chrono::milliseconds(static_cast<std::int64_t>(20000 * time_scale) + 2000);
    pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);  // no signal thread: a signal ends us
    return demo::run_plain(session, transcript);
  }
  for (const auto& loaded : manifests) {
    const sn::Manifest& m = loaded.manifest;
    sn::Granted requested = rpckit::streamnook::requested_capabilities(m);
    std::printf("plugin   %s %s (%s) by %s\n", m.id.c_str(), m.version.c_str(), m.name.c_str(),
                m.author.c_str());
    std::printf("requests events: %s | host methods: %s | credentials: %s | ui: %s\n",
                join(requested.events).c_str(), join(requested.host_methods).c_str(),
                join(requested.credentials).c_str(), join(requested.ui).c_str());
  }

  demo::DemoApplication app(transcript);
  demo::StopFlag stop;
  std::thread signal_thread([&] {
    int sig = 0;
    sigwait(&signals, &sig);
    if (sig != SIGUSR1) transcript.host(sig == SIGINT ? "SIGINT: stopping" : "SIGTERM: stopping");
    stop.request();
  });
  // stdin EOF also stops the demo (a parent closing our stdin means "we are done").
  if (stdin_stops) std::thread([&stop, &transcript] {
    char buffer[256];
    while (::read(STDIN_FILENO, buffer, sizeof buffer) > 0) {
    }
    if (!stop.requested()) transcript.host("stdin closed: stopping");
    stop.request();
  }).detach();

  int exit_code = 0;
  {
    rpckit::streamnook::Host host(app, options);
    demo::ScriptOptions script;
    for (const auto& loaded : manifests) {
      const sn::Manifest& m = loaded.manifest;
      // The flags narrow the grant; the host intersects it with each plugin's request.
      sn::Granted requested = rpckit::streamnook::requested_capabilities(m);
      sn::Granted offered;
      offered.events = parse_list(events, requested.events);
      offered.host_methods = parse_list(host_methods, requested.host_methods);
      offered.credentials = parse_list(credentials, requested.credentials);
      offered.ui = parse_list(ui, requested.ui);
      // The host refuses (and says why in the transcript) a plugin for a newer host or of a
      // kind with no process; the demo cannot run what it was asked to.
      if (!host.add_plugin(loaded, offered)) {
        exit_code = 2;
        continue;
      }
      sn::Granted granted = *host.granted(m.id);
      std::printf("granted  %s events: %s | host methods: %s | credentials: %s | ui: %s\n",
                  m.id.c_str(), join(granted.events).c_str(), join(granted.host_methods).c_str(),
                  join(granted.credentials).c_str(), join(granted.ui).c_str());
      script.plugin_ids.push_back(m.id);
      if (m.contributes) script.actions[m.id] = m.contributes->actions_or_default();
    }
    std::printf("state    %s (data_dir and log_dir of each plugin%s)\n\n", state_dir.c_str(),
                temporary_state.owns(state_dir) ? "; removed when the demo ends" : "");
    std::fflush(stdout);

    if (exit_code != 0) {
      std::fprintf(stderr, "a plugin cannot be run by this host (see above)\n");
      script_session = false;
      serve = false;
    }
    script.step = std::chrono::milliseconds(static_cast<std::int64_t>(5000 * time_scale));
    script.start_timeout =
        std::chrono::milliseconds(static_cast<std::int64_t>(20000 * time_scale) + 2000);
    if (script_session) {
      demo::run_script(host, app, transcript, script, stop);
    } else if (exit_code == 0) {
      host.start_all();
    }
    if (serve && !stop.requested()) {
      auto tick = std::chrono::milliseconds(static_cast<std::int64_t>(
          static_cast<double>(sn::kWatchTickIntervalMs.count()) * time_scale));
      demo::serve(host, app, transcript, std::max(tick, std::chrono::milliseconds(1)), stop);
    }

    transcript.host(script.plugin_ids.size() == 1 ? "stopping the plugin" : "stopping the plugins");
    host.stop_all();
    std::string states;
    for (const std::string& id : script.plugin_ids) {
      auto state = host.state(id);
      if (state == rpckit::supervision::State::kDisabled) exit_code = 1;
      states += (states.empty() ? "" : ", ") + id + " " +
                std::string(rpckit::supervision::to_string(*state));
    }
    transcript.host(std::to_string(app.notifications()) + " notifications shown; " + states);
  }
  pthread_kill(signal_thread.native_handle(), SIGUSR1);
  signal_thread.join();
  return exit_code;
}
