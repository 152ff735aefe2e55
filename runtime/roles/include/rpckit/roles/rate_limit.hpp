#pragma once
// RateLimit: a token bucket for a host method a protocol rate-limits ("burst 3, then 1 per
// 10 s"): `burst` calls pass at once, then one more per `refill`. A refused call learns how
// long until the next one would pass. Not thread-safe: the caller serialises (one per plugin).
#include <chrono>
#include <cstdint>
#include <optional>

#include "rpckit/supervision/supervisor.hpp"

namespace rpckit::roles {

class RateLimit {
 public:
  RateLimit(std::int64_t burst, supervision::Duration refill);

  // Takes a token at `now`: nullopt when the call may pass, else the whole milliseconds (at
  // least 1) until one would.
  std::optional<std::int64_t> take(supervision::TimePoint now);

 private:
  std::chrono::nanoseconds refill_;
  std::chrono::nanoseconds capacity_;
  std::chrono::nanoseconds credit_;
  std::optional<supervision::TimePoint> last_;
};

}  // namespace rpckit::roles
