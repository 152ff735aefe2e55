#pragma once
// SessionOutcome: what a host learned about a plugin's session, in the protocol's words: the
// first failure (the verdict; later ones are consequences), and every protocol violation the
// peer committed (kept in order, bounded), so a host can say whether its peer conformed.
// Thread-safe; waiters learn when a failure is recorded.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace rpckit::roles {

class SessionOutcome {
 public:
  struct Failure {
    std::string kind;    // the protocol's name for it ("health_timeout", "crashed")
    std::string detail;  // what happened ("exit code 3", "cannot execute ...")
    std::string describe() const { return kind + (detail.empty() ? "" : ": " + detail); }
  };
  static constexpr std::size_t kMaxViolations = 256;

  // Records a failure; only the first is the verdict. True when this one was the first.
  bool fail(std::string kind, std::string detail);
  // Records a violation of the protocol by the peer (past kMaxViolations, only counted).
  void violation(std::string what);

  std::optional<Failure> failure() const;
  std::vector<std::string> violations() const;
  std::size_t violation_count() const;
  // Neither a failure nor a violation.
  bool conformed() const;

 private:
  mutable std::mutex mutex_;
  std::optional<Failure> failure_;
  std::vector<std::string> violations_;
  std::size_t violation_count_ = 0;
};

}  // namespace rpckit::roles
