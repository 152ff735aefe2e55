// bench-plugin: the plugin side of rpckit_host_bench. Counts on_chat_message events, and on
// invoke_action "bench.rtt" times `count` get_followed_live calls to the host (host-method
// round trips through the host's capability gate; not notify, which the host rate-limits),
// answering the median and p99 in microseconds.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <vector>

#include <nlohmann/json.hpp>

#include "rpckit//streamnook/plugin.hpp"

namespace sn = ::streamnook::v1;

int main() {
  rpckit::streamnook::Plugin plugin("1.0.0");
  std::atomic<long> events{0};
  plugin.on<sn::messages::OnChatMessage>([&](const sn::OnChatMessageParams&) { ++events; });
  plugin.on_action("bench.count", [&](const rpckit::JsonValue&) {
    return nlohmann::json{{"events", events.load()}};
  });
  plugin.on_action("bench.rtt", [&](const rpckit::JsonValue& args) {
    int count = args.get().value("count", 1000);
    std::vector<double> us;
    for (int i = 0; i < count; ++i) {
      auto start = std::chrono::steady_clock::now();
      auto r = plugin.host().get_followed_live();
      auto end = std::chrono::steady_clock::now();
      if (!r.ok()) return nlohmann::json{{"error", r.error().describe()}};
      us.push_back(std::chrono::duration<double, std::micro>(end - start).count());
    }
    std::sort(us.begin(), us.end());
    return nlohmann::json{{"p50_us", us[us.size() / 2]}, {"p99_us", us[us.size() * 99 / 100]}};
  });
  return plugin.run();
}
