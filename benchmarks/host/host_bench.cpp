// rpckit_host_bench: host-side figures of the StreamNook host role, over real processes.
//   spawn-to-initialized time, events/s to one plugin and to ten, host-method round trip
//   through the capability gate, and the memory the host holds per idle plugin.
// Prints medians; run it with benchmarks/host/run.sh (release build). With --json FILE it also
// writes every figure and its samples to FILE (benchmarks/compare/rounds.py reads it).
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "rpckit//streamnook/host.hpp"
#include "rpckit/streamnook/manifest.hpp"

namespace sn = ::streamnook::v1;
using rpckit::streamnook::LifecycleEvent;
using rpckit::streamnook::PluginContext;
using Clock = std::chrono::steady_clock;

namespace {

class BenchApp : public rpckit::streamnook::HostApplication {
 public:
  sn::GetFollowedLiveResult get_followed_live(const PluginContext&,
                                              const sn::GetFollowedLiveParams&) override {
    return {};
  }
  sn::SetUpstreamResult set_upstream(const PluginContext&, const sn::SetUpstreamParams&) override {
    return {};
  }
  sn::Credential get_credential(const PluginContext&, const sn::GetCredentialParams&) override {
    return {};
  }
  sn::NotifyResult notify(const PluginContext&, const sn::NotifyParams&) override { return {}; }
  void log(const PluginContext&, const sn::LogParams&) override {}
  sn::RegisterPanelResult register_panel(const PluginContext&,
                                         const sn::RegisterPanelParams&) override {
    return {};
  }
  sn::GetPanelValuesResult get_panel_values(const PluginContext&,
                                            const sn::GetPanelValuesParams&) override {
    return {};
  }
  void set_status(const PluginContext&, const sn::SetStatusParams&) override {}

  void on_lifecycle(const LifecycleEvent& e) override {
    std::lock_guard lock(mutex_);
    if (e.kind == LifecycleEvent::Kind::kRunning) ++running_[e.plugin_id];
    changed_.notify_all();
  }
  // Waits until `id` has reached running `n` times.
  bool wait_running(const std::string& id, int n) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(20), [&] { return running_[id] >= n; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, int> running_;
};

long rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return 0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// A figure for --json: its median and every sample it is the median of.
nlohmann::json figure(const std::vector<double>& samples) {
  return {{"median", median(samples)}, {"samples", samples}};
}

int fail(const std::string& what) {
  std::fprintf(stderr, "rpckit_host_bench: %s\n", what.c_str());
  return 1;
}

// A plugin directory for bench-plugin with its own id.
rpckit::streamnook::LoadedManifest make_plugin(const std::filesystem::path& root, int n) {
  std::string id = "dev.rpckit.bench" + std::to_string(n);
  std::filesystem::path dir = root / id;
  std::filesystem::create_directories(dir / "bin");
  std::filesystem::copy_file(BENCH_PLUGIN_EXE, dir / "bin" / "bench-plugin",
                             std::filesystem::copy_options::overwrite_existing);
  std::ofstream(dir / "plugin.toml") << "id = \"" << id << "\"\n"
      << "name = \"bench\"\nversion = \"1.0.0\"\nauthor = \"rpckit\"\ntier = \"C\"\n"
      << "description = \"benchmark\"\nhost_min = \"1.0.0\"\n"
      << "[runtime]\nkind = \"process\"\nentry = \"bin/bench-plugin\"\n"
      << "[capabilities]\nevents = [\"on_chat_message\"]\nhost_methods = [\"get_followed_live\"]\n"
      << "[contributes]\nactions = [\"bench.count\", \"bench.rtt\"]\n";
  auto result = rpckit::streamnook::load_manifest(dir);
  if (!result.ok()) {
    std::fprintf(stderr, "manifest: %s\n", result.issues.front().str().c_str());
    std::exit(1);
  }
  return *result.loaded;
}

sn::OnChatMessageParams chat_event() {
  sn::ChatMessage m;
  m.id = "m";
  m.user_id = "1";
  m.login = "viewer";
  m.display_name = "Viewer";
  m.color = "#FF0000";
  m.badges = {sn::Badge{"subscriber", "12"}};
  m.text = "a chat line of ordinary length, with an emote Kappa";
  m.is_action = false;
  m.msg_type = nullptr;
  m.system_message = nullptr;
  m.bits = nullptr;
  m.ts = "2026-11-21T01:00:00Z";
  return {"channel", m};
}

long count_events(rpckit::streamnook::Host& host, const std::string& id) {
  auto r = host.invoke_action(id, "bench.count", rpckit::JsonValue(nlohmann::json::object()));
  return r.ok() ? r->get().value("events", -1L) : -1;
}

// Emits `n` events and returns events/s once every plugin has counted them all.
double event_rate(rpckit::streamnook::Host& host, const std::vector<std::string>& ids, long n) {
  std::vector<long> before;
  for (const auto& id : ids) before.push_back(count_events(host, id));
  sn::OnChatMessageParams event = chat_event();
  auto start = Clock::now();
  for (long i = 0; i < n; ++i) host.emit<sn::messages::OnChatMessage>(event);
  for (std::size_t k = 0; k < ids.size(); ++k) {
    while (count_events(host, ids[k]) < before[k] + n) std::this_thread::yield();
  }
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return static_cast<double>(n) * static_cast<double>(ids.size()) / seconds;
}

}  // namespace

int main(int argc, char** argv) {
  std::string json_path;
  if (argc == 3 && std::string(argv[1]) == "--json") {
    json_path = argv[2];
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: rpckit_host_bench [--json FILE]\n");
    return 2;
  }
  nlohmann::json report;
  std::filesystem::path root = std::filesystem::temp_directory_path() / "rpckit-host-bench";
  std::filesystem::remove_all(root);
  BenchApp app;
  rpckit::streamnook::HostOptions options;
  options.data_root = root / "data";
  options.log_root = root / "logs";
  options.max_queued_events = 1 << 20;  // measure throughput, not the drop policy
  sn::Granted grant;
  grant.events = {sn::EventName::kOnChatMessage};
  grant.host_methods = {sn::HostMethodName::kGetFollowedLive};

  std::vector<double> ten_rates;
  {
    rpckit::streamnook::Host host(app, options);
    // A first plugin, granted no events, runs before the baseline is taken: what any host pays
    // once (the code paths a session runs, paged in; the allocator's first arenas) is not a
    // cost per plugin. Before: 10 plugins against an empty host, which put about 100 KiB of
    // that one-time cost on each.
    const std::string warm_id = "dev.rpckit.bench0";
    host.add_plugin(make_plugin(root / "plugins", 0), sn::Granted{});
    host.start(warm_id);
    if (!app.wait_running(warm_id, 1)) return fail(warm_id + " did not reach running");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    long rss_one = rss_kib();
    std::vector<std::string> ids;
    for (int n = 1; n <= 10; ++n) {
      host.add_plugin(make_plugin(root / "plugins", n), grant);
      ids.push_back("dev.rpckit.bench" + std::to_string(n));
      host.start(ids.back());
    }
    for (const auto& id : ids) {
      if (!app.wait_running(id, 1)) return fail(id + " did not reach running");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    long rss_eleven = rss_kib();
    std::printf(
        "host memory per idle plugin: %.0f KiB (host RSS %ld KiB with 1 plugin, %ld KiB with 11 "
        "idle plugins)\n",
        static_cast<double>(rss_eleven - rss_one) / 10.0, rss_one, rss_eleven);
    report["memory_per_idle_plugin_kib"] = static_cast<double>(rss_eleven - rss_one) / 10.0;
    report["rss_with_1_plugin_kib"] = rss_one;
    report["rss_with_11_idle_kib"] = rss_eleven;
    for (int r = 0; r < 3; ++r) ten_rates.push_back(event_rate(host, ids, 5000));
    host.stop_all();
  }
  std::printf("events/s to 10 plugins (each event to all 10, counted per delivery, 3 x 5000): median %.0f\n",
              median(ten_rates));
  report["events_per_s_10_plugins"] = figure(ten_rates);

  {
    rpckit::streamnook::Host host(app, options);
    host.add_plugin(make_plugin(root / "plugins", 0), grant);
    const std::string id0 = "dev.rpckit.bench0";

    // 1. spawn -> initialized, over repeated start/stop cycles.
    std::vector<double> spawn_ms;
    for (int i = 1; i <= 15; ++i) {
      auto start = Clock::now();
      host.start(id0);
      if (!app.wait_running(id0, i)) return fail(id0 + " did not reach running");
      spawn_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      if (i < 15) host.stop(id0);
    }
    std::printf("spawn to running (initialize answered, initialized sent): median %.2f ms over %zu starts\n",
                median(spawn_ms), spawn_ms.size());
    report["spawn_to_running_ms"] = figure(spawn_ms);

    // 2. events/s to one plugin.
    std::vector<double> rates;
    for (int r = 0; r < 5; ++r) rates.push_back(event_rate(host, {id0}, 20000));
    std::printf("events/s to 1 plugin (on_chat_message, %d x 20000): median %.0f\n", 5, median(rates));
    report["events_per_s_1_plugin"] = figure(rates);

    // 3. host-method round trip through the gate (get_followed_live, answered at once by the
    //    app; notify would hit the host's rate limit).
    std::vector<double> p50, p99;
    for (int r = 0; r < 5; ++r) {
      auto res = host.invoke_action(id0, "bench.rtt", rpckit::JsonValue(nlohmann::json{{"count", 2000}}));
      if (!res.ok()) return fail("bench.rtt: " + res.error().describe());
      if (!res->get().contains("p50_us")) return fail("bench.rtt answered " + res->get().dump());
      p50.push_back(res->get()["p50_us"].get<double>());
      p99.push_back(res->get()["p99_us"].get<double>());
    }
    std::printf("host-method round trip (get_followed_live via the gate), median of 5 x 2000 calls: p50 %.1f us, p99 %.1f us\n",
                median(p50), median(p99));
    report["host_method_rtt_p50_us"] = figure(p50);
    report["host_method_rtt_p99_us"] = figure(p99);
    host.stop_all();
  }

  std::filesystem::remove_all(root);
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    out << report.dump(2) << "\n";
    if (!out) return fail("cannot write " + json_path);
  }
  return 0;
}
