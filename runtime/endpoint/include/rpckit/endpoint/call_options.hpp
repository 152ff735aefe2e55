#pragma once
// CallOptions: how one call waits. Its deadline, and where the profile has a progress
// notification (WireRules::progress, MCP's notifications/progress) whether the call asks the
// peer for progress reports, who sees them, and whether each restarts the deadline:
//   client.tools_call(params, 30s);  // a deadline, as before
//   client.tools_call(params, rpckit::CallOptions(30s)
//                                 .on_progress(rpckit::progress_as<messages::NotificationsProgress>(
//                                     [](const NotificationsProgressParams& p) { ... }))
//                                 .reset_on_progress(std::chrono::minutes(10)));
// A duration, std::nullopt or an optional duration converts to CallOptions, so every call
// that took a deadline takes one still.
#include <chrono>
#include <functional>
#include <optional>
#include <utility>

namespace rpckit {

struct Incoming;

class CallOptions {
 public:
  // A progress report on the call, as a handler would see the notification.
  using ProgressObserver = std::function<void(const Incoming& notification)>;

  CallOptions() = default;
  CallOptions(std::nullopt_t) {}  // NOLINT(google-explicit-constructor)
  CallOptions(
      std::optional<std::chrono::milliseconds> deadline)  // NOLINT(google-explicit-constructor)
      : deadline_(deadline) {}
  template <class Rep, class Period>
  CallOptions(std::chrono::duration<Rep, Period> deadline)  // NOLINT(google-explicit-constructor)
      : deadline_(std::chrono::duration_cast<std::chrono::milliseconds>(deadline)) {}

  // The request carries a progress token (its own id, where the profile says: MCP's
  // _meta.progressToken, merged into any _meta it has), and each report the peer sends under
  // that token goes to `observer` rather than to the connection's handler: on the thread
  // running handlers, in arrival order with the other messages, while the call is pending. An
  // observer that throws is reported (Diagnostic::Kind::kObserverFailed); the call goes on.
  CallOptions& on_progress(ProgressObserver observer) & {
    on_progress_ = std::move(observer);
    return *this;
  }
  CallOptions&& on_progress(ProgressObserver observer) && {
    return std::move(on_progress(std::move(observer)));
  }
  // Each report restarts the deadline (the report is read on the reading thread, so a busy
  // handler does not delay it), but the call never waits more than `max_total` since it was
  // sent (MCP: timeouts MAY be reset on progress, a maximum SHOULD hold). Asks for progress
  // as on_progress() does; the reports then go to the handler unless an observer is given.
  CallOptions& reset_on_progress(std::chrono::milliseconds max_total) & {
    max_total_ = max_total;
    return *this;
  }
  CallOptions&& reset_on_progress(std::chrono::milliseconds max_total) && {
    return std::move(reset_on_progress(max_total));
  }
  // The deadline, unless one is set already (the typed layer's default: the message's).
  CallOptions& default_deadline(std::optional<std::chrono::milliseconds> deadline) & {
    if (!deadline_) deadline_ = deadline;
    return *this;
  }

  const std::optional<std::chrono::milliseconds>& deadline() const { return deadline_; }
  const ProgressObserver& progress_observer() const { return on_progress_; }
  const std::optional<std::chrono::milliseconds>& max_total() const { return max_total_; }
  bool wants_progress() const { return on_progress_ != nullptr || max_total_.has_value(); }

 private:
  std::optional<std::chrono::milliseconds> deadline_;
  ProgressObserver on_progress_;
  std::optional<std::chrono::milliseconds> max_total_;
};

}  // namespace rpckit
