#pragma once
// What the sample desktop host does for a plugin (spec sections 4 and 5): answers host/ping,
// answers host/request_approval as a user who approves the permissions it knows (an unknown
// one is {approved: false}, decision 9.12), and shows codex/event notifications.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>

#include "desktop_v1/roles.hpp"
#include "transcript.hpp"

namespace desktop_sample {

struct PluginContext {
  std::string id;  // the id the host installed the plugin under
};

// How many of each host message arrived.
struct HostCounts {
  int pings = 0;
  int approvals = 0;
  int approved = 0;
  int events = 0;
};

class HostApp : public desktop::v1::HostHandler<PluginContext> {
 public:
  explicit HostApp(rpckit_examples::Transcript& transcript) : transcript_(transcript) {}

  desktop::v1::PingResult host_ping(PluginContext& plugin,
                                    const desktop::v1::HostPingParams& params) override;
  desktop::v1::ApprovalResult host_request_approval(
      PluginContext& plugin, const desktop::v1::ApprovalRequest& params) override;
  void codex_event(PluginContext& plugin, const desktop::v1::CodexEvent& params) override;

  HostCounts counts() const;
  // Waits until `done(counts)` holds, at most `limit`.
  template <class Predicate>
  bool wait_for(Predicate done, std::chrono::milliseconds limit) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, limit, [&] { return done(counts_); });
  }

 private:
  rpckit_examples::Transcript& transcript_;
  const std::set<std::string, std::less<>> known_permissions_{"workspace.read"};
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  HostCounts counts_;
};

}  // namespace desktop_sample
