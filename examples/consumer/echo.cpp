// consumer-echo: both sides of the consumer's own echo protocol (echo_schema/), generated at
// build time by rpckit_generate() from the installed package.
//   consumer-echo             the host: spawns itself as the worker, says hello, asks for two
//                             echoes, prints them and the worker's log lines, stops it; exit 0
//                             when every answer is the expected one
//   consumer-echo --worker    the worker, on stdin/stdout
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "consumer_echo/roles.hpp"
#include "rpckit/roles/plugin_role.hpp"
#include "rpckit/roles/spawned_plugin.hpp"
#include "rpckit/version.hpp"

namespace echo = consumer::echo;

namespace {

struct Session {};

class Worker : public echo::WorkerHandler<Session> {
 public:
  explicit Worker(const echo::HostClient& host) : host_(host) {}

  echo::HelloResult hello(Session&, const echo::HelloParams& p) override {
    if (p.protocol_version != echo::kProtocolVersion) {
      throw rpckit::RpcError(rpckit::jsonrpc_code::kInvalidRequest, "unsupported protocol_version");
    }
    return {.worker = "echo worker for " + p.host};
  }

  echo::EchoResult echo(Session&, const echo::EchoParams& p) override {
    echo::EchoResult result;
    for (std::uint32_t i = 0; i < p.times_or_default(); ++i) result.text += p.text;
    host_.log({.text = "echoed " + std::to_string(result.text.size()) + " bytes"});
    return result;
  }

 private:
  const echo::HostClient& host_;
};

int run_worker() {
  rpckit::roles::PluginRole<echo::Protocol> role;
  Session session;
  Worker worker(role.client());
  role.bind(worker, session);
  return role.run();
}

// The host's side: keeps the worker's log lines.
class Host : public echo::HostHandler<Session> {
 public:
  void log(Session&, const echo::LogParams& p) override {
    std::lock_guard lock(mutex_);
    lines_.push_back(p.text);
    changed_.notify_all();
  }
  std::vector<std::string> wait_for_lines(std::size_t n) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, std::chrono::seconds(20), [&] { return lines_.size() >= n; });
    return lines_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> lines_;
};

int run_host(const char* self) {
  std::printf("rpckit %s\n", RPCKIT_VERSION_STRING);
  Host host;
  Session session;
  rpckit::roles::SpawnedPlugin<echo::Protocol> worker({
      .id = "echo",
      .command = {self, "--worker"},
      .handshake_params = [] {
        return echo::HelloParams{.protocol_version = echo::kProtocolVersion, .host = "consumer-echo"};
      },
  });
  worker.bind(host, session);
  if (!worker.start()) {
    auto why = worker.stop_reason();
    std::printf("FAIL the worker is not running: %s\n", why ? why->detail.c_str() : "no answer");
    return 1;
  }
  std::printf("hello: %s\n", worker.handshake_result()->worker.c_str());
  int failures = 0;
  auto once = worker.client().echo({.text = "hi"});
  auto thrice = worker.client().echo({.text = "ab", .times = 3});
  std::printf("echo: %s\n", once ? once->text.c_str() : once.error().describe().c_str());
  std::printf("echo x3: %s\n", thrice ? thrice->text.c_str() : thrice.error().describe().c_str());
  failures += !(once && once->text == "hi");
  failures += !(thrice && thrice->text == "ababab");
  // Outside the schema's bounds (times <= 8): the worker answers -32602, naming the path.
  auto refused = worker.client().echo({.text = "x", .times = 9});
  std::printf("echo x9: %s\n", refused ? "accepted" : refused.error().describe().c_str());
  failures += refused.ok() || refused.error().error.code() != rpckit::jsonrpc_code::kInvalidParams;
  for (const std::string& line : host.wait_for_lines(2)) std::printf("log: %s\n", line.c_str());
  worker.stop();
  std::printf("%s\n", failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "--worker") return run_worker();
  return run_host(std::filesystem::read_symlink("/proc/self/exe").c_str());
}
