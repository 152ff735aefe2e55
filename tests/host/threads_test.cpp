// The threads a host holds per plugin, counted by the kernel (/proc/self/status). Health
// checks, handshakes and shutdowns are non-blocking calls: none parks a thread while it waits.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include "host_test_support.hpp"

namespace host_test {
namespace {

using namespace std::chrono_literals;

int thread_count() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  }
  return -1;
}

class HostThreads : public HostTest {};

TEST_F(HostThreads, EachPluginHoldsFiveThreadsAndPingsAddNone) {
  constexpr int kPlugins = 4;
  // Pings every 6 s; a 2 s handshake deadline holds for four sanitizer-built plugins
  // starting at once on a loaded machine.
  make_host(0.2);
  // A sanitizer runtime starts its own background thread with the first thread: let it,
  // before counting.
  std::thread([] {}).join();
  const int idle = thread_count();
  for (int i = 0; i < kPlugins; ++i) {
    std::string id = "test.threads-" + std::to_string(i);
    add(PluginSpec(id, {"well-behaved"}));
    host().start(id);
  }
  for (int i = 0; i < kPlugins; ++i) {
    std::string id = "test.threads-" + std::to_string(i);
    ASSERT_TRUE(app_.await_lifecycle(id, Kind::kRunning, 1, 60s));
  }
  // Sample while pings come and go (at least one per plugin).
  int most = 0;
  auto until = Clock::now() + 7s;
  while (Clock::now() < until) {
    most = std::max(most, thread_count());
    std::this_thread::sleep_for(5ms);
  }
  for (int i = 0; i < kPlugins; ++i) {
    EXPECT_GE(app_.count_frames("test.threads-" + std::to_string(i), true, "ping"), 1);
  }
  int per_plugin = (most - idle) / kPlugins;
  std::cout << "threads: host idle " << idle << ", most with " << kPlugins << " plugins " << most
            << " (" << per_plugin << " per plugin)\n";
  // A plugin's control, sender and process-watcher threads and its endpoint's reader and
  // dispatcher: nothing per outstanding call.
  EXPECT_LE(most - idle, 5 * kPlugins);
}

}  // namespace
}  // namespace host_test
