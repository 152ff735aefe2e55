#include "rpckit/codex_metadata/accounting.hpp"

#include <algorithm>
#include <chrono>

namespace rpckit::codex_metadata {

InitializationFailures::InitializationFailures(int limit, Duration window)
    : limit_(std::max(limit, 1)), window_(window) {}

bool InitializationFailures::record(TimePoint now) {
  while (!failures_.empty() && now - failures_.front() >= window_) failures_.pop_front();
  failures_.push_back(now);
  return static_cast<int>(failures_.size()) >= limit_;
}

int InitializationFailures::within_window(TimePoint now) const {
  return static_cast<int>(std::count_if(failures_.begin(), failures_.end(),
                                        [&](TimePoint t) { return now - t < window_; }));
}

void RetryAfter::hold(TimePoint now, Duration delay) {
  TimePoint until = now + delay;
  if (!until_ || until > *until_) until_ = until;
}

std::optional<Duration> RetryAfter::remaining(TimePoint now) const {
  if (!until_ || now >= *until_) return std::nullopt;
  return std::max(std::chrono::ceil<Duration>(*until_ - now), Duration{1});
}

}  // namespace rpckit::codex_metadata
