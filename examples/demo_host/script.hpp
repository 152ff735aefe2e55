#pragma once
// The demo's scripted session: what a user's evening in StreamNook looks like to a plugin.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>

#include "demo_app.hpp"
#include "rpckit/streamnook/host.hpp"

namespace demo {

// A stop request (signal, stdin EOF) that interrupts the demo's waits.
class StopFlag {
 public:
  void request();
  bool requested() const;
  // Sleeps for `d` unless stopped first; false when stopped.
  bool sleep_for(std::chrono::milliseconds d);

 private:
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  bool stopped_ = false;
};

struct ScriptOptions {
  std::string plugin_id;
  std::chrono::milliseconds step{2000};  // pause between scripted events (scaled)
  std::chrono::milliseconds start_timeout{15000};
};

// Runs the session against a started plugin; returns when done or stopped.
void run_script(rpckit::streamnook::Host& host, DemoApplication& app, Transcript& transcript,
                const ScriptOptions& options, StopFlag& stop);

}  // namespace demo
