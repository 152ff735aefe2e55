// additive-probe: what an additive schema change gives a host and a plugin, end to end over a
// real pipe. The same executable is both: run without arguments it is the host, which writes
// a plugin directory whose entry is itself with "--plugin". The plugin hooks the new event
// on_test_event and, handling it, calls the new host method get_test_value, then notifies
// the host of the value it got; the host serves get_test_value with the handler the
// regenerated HostHandler gained. Exit 0 when the value made the round trip.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "rpckit/streamnook/host.hpp"
#include "rpckit/streamnook/manifest.hpp"
#include "rpckit/streamnook/plugin.hpp"

namespace rs = rpckit::streamnook;
namespace sn = streamnook::v1;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

constexpr const char* kPluginId = "dev.rpckit.additive-probe";

// The other additions are there too (compile-time proof; no wire traffic needed).
static_assert(sn::UiCapability::kOverlay != sn::UiCapability::kUnknown);
static_assert(requires(sn::Channel channel) { channel.is_favorite = true; });
static_assert(static_cast<int>(sn::ErrorCode::kQuotaExceeded) == -32099);

int run_plugin() {
  rs::Plugin plugin("1.0.0");
  plugin.on<sn::messages::OnTestEvent>([&](const sn::OnTestEventParams& event) {
    rpckit::Result<sn::GetTestValueResult> got =
        plugin.host().client().get_test_value({.key = event.channel_id});
    plugin.host().notify(got ? "value: " + got->value : "error: " + got.error().describe());
  });
  return plugin.run();
}

class ProbeApp : public rs::HostApplication {
 public:
  sn::GetTestValueResult get_test_value(const rs::PluginContext& plugin,
                                        const sn::GetTestValueParams& params) override {
    return {.value = params.key + " from the host, for " + plugin.plugin_id};
  }
  sn::NotifyResult notify(const rs::PluginContext&, const sn::NotifyParams& params) override {
    std::lock_guard lock(mutex_);
    notified_ = params.message;
    changed_.notify_all();
    return {};
  }
  void tell_user(std::string_view plugin_id, std::string_view message) override {
    std::cerr << "additive-probe: " << plugin_id << " " << message << "\n";
  }

  std::optional<std::string> wait_notified(std::chrono::seconds limit) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, limit, [&] { return notified_.has_value(); });
    return notified_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<std::string> notified_;
};

// <dir>/plugin.toml and <dir>/bin/additive-probe (a link to this executable).
void write_plugin_dir(const fs::path& dir, const fs::path& self) {
  fs::create_directories(dir / "bin");
  fs::create_symlink(self, dir / "bin" / "additive-probe");
  std::ofstream(dir / "plugin.toml") << "id = \"" << kPluginId << "\"\n"
      << R"(name = "Additive probe"
version = "1.0.0"
author = "rpckit"
tier = "C"
description = "Uses what the additive change added."
host_min = "1.0.0"

[runtime]
kind = "process"
entry = "bin/additive-probe"
args = ["--plugin"]

[capabilities]
events = ["on_test_event"]
host_methods = ["get_test_value", "notify"]
)";
}

// Hooks are known once initialize is answered, but events are taken only from kRunning on
// (after initialized is sent): waiting for the hooks alone raced the emit under load.
bool ready(const rs::Host& host) {
  std::vector<std::string> hooks = host.hooks(kPluginId);
  return host.state(kPluginId) == rpckit::supervision::State::kRunning &&
         std::find(hooks.begin(), hooks.end(), "on_test_event") != hooks.end();
}

int run_host() {
  fs::path dir = fs::temp_directory_path() / ("rpckit-additive-probe-" + std::to_string(getpid()));
  fs::remove_all(dir);
  write_plugin_dir(dir / "plugin", fs::read_symlink("/proc/self/exe"));
  int status = 1;
  {
    ProbeApp app;
    rs::HostOptions options;
    options.data_root = dir / "data";
    options.log_root = dir / "logs";
    rs::Host host(app, options);
    rs::ManifestResult manifest = rs::load_manifest(dir / "plugin");
    for (const rs::ManifestIssue& issue : manifest.issues) {
      std::cerr << "additive-probe: plugin.toml: " << issue.str() << "\n";
    }
    if (manifest.ok() &&
        host.add_plugin(*manifest.loaded, rs::requested_capabilities(manifest.loaded->manifest))) {
      host.start(kPluginId);
      auto deadline = std::chrono::steady_clock::now() + 30s;
      while (!ready(host) && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(10ms);
      }
      std::size_t sent = host.emit<sn::messages::OnTestEvent>({.channel_id = "c1"});
      std::optional<std::string> notified = sent == 1 ? app.wait_notified(30s) : std::nullopt;
      const std::string expected = "value: c1 from the host, for " + std::string(kPluginId);
      std::cout << "additive-probe: on_test_event sent to " << sent << " plugin(s); notified: "
                << notified.value_or("(nothing)") << "\n";
      status = notified == expected ? 0 : 1;
    }
  }
  fs::remove_all(dir);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--plugin") return run_plugin();
  return run_host();
}
