#pragma once
// The Endpoint's table of calls it has sent and not yet seen answered: the ids it hands out,
// the text they are sent as, which answer names which call (the profile's id rules), and the
// deadlines of the calls no thread waits for. Not thread-safe: the Endpoint holds its mutex
// around every use. An implementation detail of rpckit::Endpoint.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rpckit/descriptors/profile.hpp"
#include "rpckit/endpoint/call_options.hpp"
#include "rpckit/endpoint/call_result.hpp"
#include "rpckit/endpoint/envelope.hpp"

namespace rpckit {
class Cancellation;
}  // namespace rpckit

namespace rpckit::detail {

using TimePoint = std::chrono::steady_clock::time_point;

// A frame and what scan_envelope() found in it (spans index into `frame`).
struct ReceivedFrame {
  std::string frame;
  Envelope envelope;
  // A request the peer may cancel (WireRules::cancel): marked from the moment it is read.
  std::shared_ptr<Cancellation> cancellation;
  // A progress report on a call that has an observer for it: handled by that, not the handler.
  std::shared_ptr<const CallOptions::ProgressObserver> progress_observer;
};

struct PendingCall {
  std::int64_t id = 0;
  std::optional<ReceivedFrame> response;
  std::optional<std::string> unreadable;  // why the response for this call could not be used
  bool disconnected = false;
  // call_async() only: whom to tell.
  std::function<void(CallResult)> done;
  // When to give up (every call), and on what.
  std::string method;
  std::chrono::milliseconds timeout{0};
  TimePoint until;
  // A call that asked for progress (CallOptions): who sees the reports, and whether each
  // moves `until` to a full timeout from then, never past `latest`.
  std::shared_ptr<const CallOptions::ProgressObserver> progress_observer;
  bool resets_on_progress = false;
  TimePoint latest;

  bool settled() const { return response || unreadable; }
};

class PendingCalls {
 public:
  using Completion = std::function<void(CallResult)>;
  // A call_async() whose end has come, and the error it ends with (its answer is handled
  // where it arrives).
  using Expired = std::vector<std::pair<Completion, CallError>>;

  PendingCalls(IdKind sent_ids, IdMatch match) : sent_ids_(sent_ids), match_(match) {}
  // Whether `id` matches only by IdMatch::kStringForm: the other kind than we send ids as.
  bool in_other_form(const nlohmann::json& id) const;

  bool empty() const { return calls_.empty(); }
  bool has_async() const;  // a call_async() call among them
  // A new call's id: a synchronous one waits in its slot, an asynchronous one is completed
  // by whoever settles it.
  std::int64_t open(std::string method, std::chrono::milliseconds timeout, TimePoint until);
  std::int64_t open_async(Completion done, std::string method, std::chrono::milliseconds timeout,
                          TimePoint until);
  // A progress report on call `id` at `now`: the call's observer (null when it has none), its
  // deadline restarted when the call asked for that. Nothing for a call that asked for no
  // progress, or is over.
  std::shared_ptr<const CallOptions::ProgressObserver> progressed(std::int64_t id, TimePoint now);
  PendingCall* find(std::int64_t id);
  void erase(std::int64_t id);
  // The id as the request carries it (a number, or its decimal text), as JSON text.
  std::string id_text(std::int64_t id) const;
  // The call a response's id names, when it can name one of ours: by kind and value, or by
  // string form when the profile says so ("7" answers 7).
  std::optional<std::int64_t> own_id(const nlohmann::json& id) const;

  // The asynchronous calls that are over, taken out: every one (the connection ended) or the
  // overdue ones; they get `disconnected` or a timeout built by the caller of these.
  Expired take_all_async(const std::function<CallError(const PendingCall&)>& why);
  Expired take_overdue_async(TimePoint now,
                             const std::function<CallError(const PendingCall&)>& why);
  std::optional<TimePoint> next_async_deadline() const;
  // Every waiting synchronous call learns that the connection has ended.
  void disconnect_all();

 private:
  Expired take_async(bool all, TimePoint now,
                     const std::function<CallError(const PendingCall&)>& why);

  IdKind sent_ids_;
  IdMatch match_;
  std::map<std::int64_t, PendingCall> calls_;
  std::int64_t next_id_ = 1;
};

}  // namespace rpckit::detail
