#include "rpckit/roles/session_outcome.hpp"

#include <utility>

namespace rpckit::roles {

bool SessionOutcome::fail(std::string kind, std::string detail) {
  std::lock_guard lock(mutex_);
  if (failure_) return false;
  failure_ = Failure{std::move(kind), std::move(detail)};
  return true;
}

void SessionOutcome::violation(std::string what) {
  std::lock_guard lock(mutex_);
  ++violation_count_;
  if (violations_.size() < kMaxViolations) violations_.push_back(std::move(what));
}

std::optional<SessionOutcome::Failure> SessionOutcome::failure() const {
  std::lock_guard lock(mutex_);
  return failure_;
}

std::vector<std::string> SessionOutcome::violations() const {
  std::lock_guard lock(mutex_);
  return violations_;
}

std::size_t SessionOutcome::violation_count() const {
  std::lock_guard lock(mutex_);
  return violation_count_;
}

bool SessionOutcome::conformed() const {
  std::lock_guard lock(mutex_);
  return !failure_ && violation_count_ == 0;
}

}  // namespace rpckit::roles
