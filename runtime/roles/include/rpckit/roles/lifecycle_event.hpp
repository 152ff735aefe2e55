#pragma once
// Something that happened in a supervised plugin's life, as the host role reports it.
#include <string>
#include <string_view>

#include "rpckit/supervision/supervisor.hpp"

namespace rpckit::roles {

struct LifecycleEvent {
  enum class Kind {
    kStarting,          // launching a process (first start or restart)
    kRunning,           // handshake complete; events flow
    kStopped,           // `cause` says why, `detail` says more (exit status, ...)
    kRestartScheduled,  // after `delay`
    kDisabled,          // no more restarts (crash loop, a permanent handshake failure)
  };
  std::string plugin_id;
  Kind kind = Kind::kStarting;
  supervision::StopCause cause = supervision::StopCause::kRequested;
  std::string detail;
  supervision::Duration delay{0};
};

std::string_view to_string(LifecycleEvent::Kind kind);

}  // namespace rpckit::roles
