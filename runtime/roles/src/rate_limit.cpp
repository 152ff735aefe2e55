#include "rpckit/roles/rate_limit.hpp"

#include <algorithm>

namespace rpckit::roles {

// Credit is kept as time (one token = one refill), so every step is exact integer arithmetic.
RateLimit::RateLimit(std::int64_t burst, supervision::Duration refill)
    : refill_(std::chrono::duration_cast<std::chrono::nanoseconds>(refill)),
      capacity_(refill_ * std::max<std::int64_t>(burst, 1)),
      credit_(capacity_) {}

std::optional<std::int64_t> RateLimit::take(supervision::TimePoint now) {
  if (refill_.count() <= 0) return std::nullopt;  // a time scale of 0: never limited
  if (last_ && now > *last_) credit_ = std::min(capacity_, credit_ + (now - *last_));
  if (!last_ || now > *last_) last_ = now;
  if (credit_ >= refill_) {
    credit_ -= refill_;
    return std::nullopt;
  }
  auto wait = std::chrono::ceil<std::chrono::milliseconds>(refill_ - credit_);
  return std::max<std::int64_t>(wait.count(), 1);
}

}  // namespace rpckit::roles
