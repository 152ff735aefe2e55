#pragma once
// Typed calls over an Endpoint, driven by a generated message descriptor M:
//   Result<GetFollowedLiveResult> r = rpckit::call<messages::GetFollowedLive>(endpoint, {});
//   rpckit::call_async<messages::Ping>(endpoint, {}, [](Result<PingResult> r) { ... });
//   rpckit::FutureResult<PingResult> f = rpckit::call_future<messages::Ping>(endpoint, {});
// Params are encoded as M says (omitted, {} or the object) by the generated direct encoder
// (JSON text, no DOM), the deadline defaults to M's (CallOptions: a deadline, or progress
// reports too), and the result is decoded into M::Result (a result that does not decode is an
// error too).
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "rpckit/codec/decode_error.hpp"
#include "rpckit/codec/text_decoder.hpp"
#include "rpckit/codec/value_codec.hpp"
#include "rpckit/dispatch/router.hpp"
#include "rpckit/endpoint/endpoint.hpp"

namespace rpckit {

// A typed result or the reason there is none.
template <class T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}        // NOLINT(google-explicit-constructor)
  Result(CallError error) : value_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return value_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(value_); }
  const T& value() const { return std::get<0>(value_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const CallError& error() const { return std::get<1>(value_); }

 private:
  std::variant<T, CallError> value_;
};

// M answered with R instead of M::Result: a request whose result is what another request would
// have returned, which only the caller knows (MCP's tasks/result gives the result of the
// request that created the task, as the TypeScript SDK's getTaskResult(taskId, schema) takes it):
//   rpckit::call<rpckit::ResultAs<messages::TasksResult, ToolsCallResult>>(endpoint, {"t1"});
template <class M, class R>
struct ResultAs : M {
  using Result = R;
};

template <class M>
constexpr std::optional<std::chrono::milliseconds> descriptor_deadline() {
  if constexpr (requires { M::kDeadline; }) {
    return M::kDeadline;
  } else {
    return std::nullopt;
  }
}

// M's result from a raw call result: decoded into M::Result (one that does not decode is
// CallError::Kind::kInvalidResult: the peer answered, outside the schema).
template <class M>
Result<typename M::Result> decode_result(const CallResult& raw) {
  if (!raw.ok()) return raw.error();
  typename M::Result out{};
  try {
    if (std::optional<std::string_view> text = raw.result_text()) {
      codec::decode_text(*text, out, "result");  // no DOM
    } else {
      codec::decode_from(raw.result(), out, "result");
    }
  } catch (const codec::DecodeError& e) {
    return CallError{CallError::Kind::kInvalidResult,
                     RpcError(jsonrpc_code::kInternalError,
                              std::string(M::kMethod) + ": invalid result: " + e.what())};
  }
  return out;
}

// Params that M's Result does not answer (x-result-when: MCP's tools/call whose params carry
// `task` is answered with a CreateTaskResult): refused before sending, naming the descriptor
// whose Result does (messages::ToolsCallWithTask).
template <class M>
std::optional<CallError> unanswerable(const typename M::Params& params) {
  if constexpr (requires { M::answered_by(params); }) {
    if (const std::string_view other = M::answered_by(params); !other.empty()) {
      return CallError{CallError::Kind::kLocal,
                       RpcError(jsonrpc_code::kInvalidParams,
                                std::string(M::kMethod) + ": these params are answered with " +
                                    "another result: call it as messages::" + std::string(other))};
    }
  }
  return std::nullopt;
}

template <class M>
Result<typename M::Result> call(Endpoint& endpoint, const typename M::Params& params,
                                CallOptions options = {}) {
  static_assert(M::kKind == MessageKind::kRequest, "call<M> needs a request; use notify<M>");
  if (std::optional<CallError> refused = unanswerable<M>(params)) return std::move(*refused);
  options.default_deadline(descriptor_deadline<M>());
  return decode_result<M>(
      endpoint.call_encoded(M::kMethod, encode_params_text<M>(params), options));
}

// The non-blocking call<M>: `done(Result<M::Result>)` runs once, as Endpoint::call_async says
// (it must not block); the handle cancels the call.
template <class M, class Done>
AsyncCall call_async(Endpoint& endpoint, const typename M::Params& params, Done&& done,
                     CallOptions options = {}) {
  static_assert(M::kKind == MessageKind::kRequest, "call_async<M> needs a request");
  static_assert(std::is_invocable_v<Done&, Result<typename M::Result>>,
                "done takes Result<M::Result>");
  if (std::optional<CallError> refused = unanswerable<M>(params)) {
    done(Result<typename M::Result>(std::move(*refused)));  // at once, as a refused call_async
    return {};
  }
  options.default_deadline(descriptor_deadline<M>());
  return endpoint.call_async_encoded(
      M::kMethod, encode_params_text<M>(params),
      [done = std::forward<Done>(done)](CallResult raw) mutable { done(decode_result<M>(raw)); },
      options);
}

// A typed call under way, as a future: wait for its Result, or give the call up. Waiting on
// it inside a handler of the same connection serves no nested request meanwhile (call() does):
// use call_async's completion there.
template <class T>
class FutureResult {
 public:
  FutureResult(std::future<Result<T>> future, AsyncCall call)
      : future_(std::move(future)), call_(std::move(call)) {}

  // Waits for the result (or the error: timeout, cancelled, disconnected...); once only.
  Result<T> get() { return future_.get(); }
  // Whether it has come within `timeout`.
  template <class Rep, class Period>
  bool wait_for(std::chrono::duration<Rep, Period> timeout) const {
    return future_.wait_for(timeout) == std::future_status::ready;
  }
  // AsyncCall::cancel(): get() then returns CallError::Kind::kCancelled.
  bool cancel(std::string_view reason = "cancelled by the caller") const {
    return call_.cancel(reason);
  }
  std::int64_t id() const { return call_.id(); }

 private:
  std::future<Result<T>> future_;
  AsyncCall call_;
};

// Wraps a call_async()-style sender as a future: `send(done)` starts the call.
template <class T, class Send>
FutureResult<T> future_of(Send&& send) {
  auto promise = std::make_shared<std::promise<Result<T>>>();
  std::future<Result<T>> future = promise->get_future();
  AsyncCall call = send([promise](Result<T> r) { promise->set_value(std::move(r)); });
  return {std::move(future), std::move(call)};
}

// The non-blocking call<M>, as a future.
template <class M>
FutureResult<typename M::Result> call_future(Endpoint& endpoint, const typename M::Params& params,
                                             CallOptions options = {}) {
  return future_of<typename M::Result>([&](auto done) {
    return call_async<M>(endpoint, params, std::move(done), std::move(options));
  });
}

// A progress observer (CallOptions::on_progress) that reads each report as notification N's
// params: `observer(const N::Params&)`. A report that does not decode is reported as the
// observer failing (Diagnostic::Kind::kObserverFailed) and skipped.
template <class N, class Observer>
CallOptions::ProgressObserver progress_as(Observer observer) {
  static_assert(N::kKind == MessageKind::kNotification, "progress_as<N> needs a notification");
  static_assert(std::is_invocable_v<Observer&, const typename N::Params&>,
                "the observer takes const N::Params&");
  return [observer = std::move(observer)](const Incoming& notification) mutable {
    typename N::Params params{};
    codec::decode_text(notification.params_text, params, "params");
    observer(std::as_const(params));
  };
}

template <class M>
bool notify(Endpoint& endpoint, const typename M::Params& params) {
  static_assert(M::kKind == MessageKind::kNotification, "notify<M> needs a notification");
  return endpoint.notify_encoded(M::kMethod, encode_params_text<M>(params));
}

}  // namespace rpckit
