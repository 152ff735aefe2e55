#pragma once
// AsyncCall: what Endpoint::call_async() returns, the call's id and the way to give it up
// before its answer or its deadline (a user pressed Stop; the result is no longer wanted).
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>

namespace rpckit {

namespace detail {
struct CallCanceller;
}  // namespace detail

class AsyncCall {
 public:
  AsyncCall() = default;  // no call: cancel() does nothing
  AsyncCall(std::shared_ptr<detail::CallCanceller> canceller, std::int64_t id)
      : canceller_(std::move(canceller)), id_(id) {}

  // The request's id (0 for a call that was never sent).
  std::int64_t id() const { return id_; }

  // Gives the call up: the peer is sent the protocol's cancel notification with `reason`
  // where it has one (WireRules::cancel; none for the handshake request), then the call's
  // completion runs here, on this thread, with CallError::Kind::kCancelled (an exception it
  // throws reaches this caller). A late answer is dropped, and reported as one past a
  // deadline is (Diagnostic::Kind::kUnknownResponseId). Returns false, and does nothing,
  // when the call is over already (answered, past its deadline, disconnected) or its
  // endpoint has closed. Safe from any thread, and after the endpoint is gone.
  bool cancel(std::string_view reason = "cancelled by the caller") const;

 private:
  std::shared_ptr<detail::CallCanceller> canceller_;
  std::int64_t id_ = 0;
};

}  // namespace rpckit
