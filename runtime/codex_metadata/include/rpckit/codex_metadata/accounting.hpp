#pragma once
// The counts a Codex host keeps per plugin (../shared/spec/codex-metadata-plugins-v1.md,
// sections 2 and 3), as small clocked state machines: the caller passes the time, so tests
// drive them with made-up time points. Not thread-safe: the Host serialises.
#include <cstdint>
#include <deque>
#include <optional>

#include "rpckit/supervision/supervisor.hpp"

namespace rpckit::codex_metadata {

using supervision::Duration;
using supervision::TimePoint;

// Section 2: three failed initializations within 3600 s disable the plugin until an admin
// re-enables it.
class InitializationFailures {
 public:
  InitializationFailures(int limit, Duration window);
  // Counts one at `now`; true when it makes `limit` within the window.
  bool record(TimePoint now);
  int within_window(TimePoint now) const;
  void clear() { failures_.clear(); }

 private:
  int limit_;
  Duration window_;
  std::deque<TimePoint> failures_;
};

// Section 2: failed metadata calls (error response, timeout or process loss) in a row on one
// running instance; `limit` of them disable it, a success resets the count.
class ConsecutiveFailures {
 public:
  explicit ConsecutiveFailures(int limit) : limit_(limit) {}
  // True when this failure makes `limit` in a row.
  bool failed() { return ++count_ >= limit_; }
  void succeeded() { count_ = 0; }
  int count() const { return count_; }

 private:
  int limit_;
  int count_ = 0;
};

// Section 3: after -32001 no metadata call goes out before the retry-after has elapsed.
class RetryAfter {
 public:
  // Holds calls until `now + delay` (a later hold never shortens an earlier one).
  void hold(TimePoint now, Duration delay);
  // How long calls are still held at `now`; nullopt when they may go.
  std::optional<Duration> remaining(TimePoint now) const;
  void clear() { until_.reset(); }

 private:
  std::optional<TimePoint> until_;
};

}  // namespace rpckit::codex_metadata
