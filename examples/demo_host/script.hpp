#pragma once
// The demo's scripted session: what a user's evening in StreamNook looks like to a plugin.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <vector>

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
  std::vector<std::string> plugin_ids;
  // The [contributes].actions each plugin declares: the script invokes each of them (args
  // {"text": "Test alert"}).
  std::map<std::string, std::vector<std::string>> actions;
  std::chrono::milliseconds step{2000};  // pause between scripted events (scaled)
  std::chrono::milliseconds start_timeout{15000};
};

// Starts the plugins and runs the session against those that come up; returns when done or
// stopped.
void run_script(rpckit::streamnook::Host& host, DemoApplication& app, Transcript& transcript,
                const ScriptOptions& options, StopFlag& stop);

// Keeps the plugins running until stopped, sending what the real host sends on its own:
// on_watch_tick every `watch_tick` and on_followed_live (the whole live set) every second
// tick, so a plugin author can develop against the demo.
void serve(rpckit::streamnook::Host& host, DemoApplication& app, Transcript& transcript,
           std::chrono::milliseconds watch_tick, StopFlag& stop);

}  // namespace demo
