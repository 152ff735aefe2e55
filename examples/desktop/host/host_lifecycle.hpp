#pragma once
// The host's lifecycle policy for desktop plugins (spec sections 2 and 9): healthy when
// plugin/health answers ok: true or status: "ok" (a different plugin_id is only a warning);
// any success answer to plugin/shutdown acknowledges it; exit code 0 afterwards. What went
// wrong is kept as a failure class, named after the spec's words:
//   launch_failed     the entrypoint could not be spawned ("failed to start")
//   health_timeout    plugin/health unanswered within health_timeout_ms ("failed to start")
//   unhealthy         plugin/health answered with an error or without ok/status "ok"
//   crashed           the process ended without a shutdown, or with a non-zero exit after it
//   shutdown_timeout  plugin/shutdown unanswered within shutdown_timeout_ms
//   exit_timeout      still alive exit_grace_ms after the shutdown answer: killed
//   malformed_frame / oversized_line   the stream itself broke (runtime's verdict)
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>

#include "rpckit/roles/lifecycle_event.hpp"
#include "rpckit/roles/plugin_process.hpp"
#include "transcript.hpp"

namespace desktop_sample {

struct Failure {
  std::string kind;
  std::string detail;
};

// What the lifecycle saw, shared by the PluginProcess's threads and the script.
class LifecycleLog {
 public:
  void record(const rpckit::roles::LifecycleEvent& event);
  void fail(std::string kind, std::string detail);  // keeps the first
  // Waits until the plugin runs or is down; true when it runs.
  bool wait_running(std::chrono::milliseconds limit);
  std::optional<Failure> failure() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool running_ = false;
  bool down_ = false;
  std::optional<Failure> failure_;
};

// The failure class of a lifecycle event, if it is one.
std::optional<Failure> failure_of(const rpckit::roles::LifecycleEvent& event);

// host_lifecycle<Protocol> with this protocol's health verdict and a shutdown that records
// whether it was answered.
rpckit::roles::PluginProcess::Lifecycle desktop_lifecycle(std::string installed_id,
                                                          rpckit_examples::Transcript& transcript,
                                                          LifecycleLog& log);

}  // namespace desktop_sample
