#pragma once
// Caller: how a role sends typed messages to its peer. It holds the connection the role is
// attached to and the grant the handshake settled, and checks every message against the
// message's capability gate before anything is written: a request outside the grant returns
// a local capability error and sends nothing; a notification outside it is not sent. Until
// the lifecycle allows more (a profile's before_handshake_done), only the early messages are
// sent, refused the same way.
// Generated clients (`<Role>Client` in <module>/roles.hpp) are thin typed fronts over it.
//
// Thread safety: every member may be called from any thread. Detaching (attach(nullptr))
// waits until no thread is still inside a call on the old endpoint.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>

#include "rpckit/codec/value_codec.hpp"
#include "rpckit/descriptors/profile.hpp"
#include "rpckit/dispatch/gate.hpp"
#include "rpckit/endpoint/typed.hpp"
#include "rpckit/values/json_value.hpp"

namespace rpckit::roles {

class Caller {
 public:
  // Makes the error a refused request reports (a protocol's capability_denied, with its
  // data); by default (nullptr) JSON-RPC's invalid request.
  using Denial = RpcError (*)(std::string reason);
  explicit Caller(Denial denial = nullptr)
      : denial_(denial != nullptr ? denial : &default_denial) {}

  template <class M>
  Result<typename M::Result> call(const typename M::Params& params, CallOptions options = {}) {
    Endpoint* endpoint = nullptr;
    if (GateVerdict verdict = check<M>(params, &endpoint); !verdict.allowed) {
      return denied(std::string(M::kMethod) + ": " + verdict.reason);
    }
    InUse in_use{this};
    return rpckit::call<M>(*endpoint, params, std::move(options));
  }

  // call<M> without waiting (rpckit::call_async): a request outside the grant completes at
  // once with the local error, and nothing is sent.
  template <class M, class Done>
  AsyncCall call_async(const typename M::Params& params, Done&& done, CallOptions options = {}) {
    Endpoint* endpoint = nullptr;
    if (GateVerdict verdict = check<M>(params, &endpoint); !verdict.allowed) {
      done(Result<typename M::Result>(denied(std::string(M::kMethod) + ": " + verdict.reason)));
      return {};
    }
    InUse in_use{this};  // while it is sent: the completion may outlive the attachment
    return rpckit::call_async<M>(*endpoint, params, std::forward<Done>(done), std::move(options));
  }

  // call<M> as a future (rpckit::call_future).
  template <class M>
  FutureResult<typename M::Result> call_future(const typename M::Params& params,
                                               CallOptions options = {}) {
    return future_of<typename M::Result>(
        [&](auto done) { return call_async<M>(params, std::move(done), std::move(options)); });
  }

  template <class M>
  bool notify(const typename M::Params& params) {
    Endpoint* endpoint = nullptr;
    if (!check<M>(params, &endpoint).allowed) return false;
    InUse in_use{this};
    return rpckit::notify<M>(*endpoint, params);
  }

  // Whether the grant allows message M with these params, and why not.
  template <class M>
  GateVerdict allowed(const typename M::Params& params) const {
    std::lock_guard lock(mutex_);
    if (!early_.allows(M::kMethod)) return {false, "not sent before " + early_until_};
    if (M::kGate.empty()) return {};
    if (!granted_) return {false, "the handshake has not happened yet"};
    const nlohmann::json* declared = declared_ ? &declared_->get() : nullptr;
    if (!gate_reads_params(M::kGate)) {
      return evaluate_gate(M::kGate, granted_->get(), declared, nullptr);
    }
    JsonValue encoded = codec::encode(params);  // only for a gate that reads the params
    return evaluate_gate(M::kGate, granted_->get(), declared, &encoded.get());
  }

  // The connection to send on; nullptr detaches (see the thread-safety note above).
  void attach(Endpoint* endpoint);
  // The grant gated messages are checked against (nullopt: nothing gated is allowed), and
  // the sender's declarations when it knows them (a plugin does not read its manifest:
  // declared-list clauses are then the receiver's to enforce).
  void set_grant(std::optional<JsonValue> granted,
                 std::optional<JsonValue> declared = std::nullopt);
  bool attached() const;
  // Until lift_early(), only what `early` allows is sent; `until` names the message that
  // lifts the limit (for the reason a refusal gives).
  void limit_early(EarlyMessages early, std::string until);
  void lift_early();

 private:
  struct InUse {
    explicit InUse(const Caller* owner) : caller(owner) {}
    ~InUse() { caller->release(); }
    const Caller* caller;
    InUse(const InUse&) = delete;
    InUse& operator=(const InUse&) = delete;
  };
  void release() const;
  CallError denied(std::string reason) const;
  static RpcError default_denial(std::string reason);

  // On success also counts one use of *endpoint, ended by an InUse.
  template <class M>
  GateVerdict check(const typename M::Params& params, Endpoint** endpoint) const {
    GateVerdict verdict = allowed<M>(params);
    std::lock_guard lock(mutex_);
    if (endpoint_ == nullptr) return {false, "not connected"};
    *endpoint = endpoint_;
    if (verdict.allowed) ++in_use_;
    return verdict;
  }

  Denial denial_;
  mutable std::mutex mutex_;
  mutable std::condition_variable idle_;  // in_use_ dropped to 0
  mutable int in_use_ = 0;
  Endpoint* endpoint_ = nullptr;
  std::optional<JsonValue> granted_;
  std::optional<JsonValue> declared_;
  EarlyMessages early_;  // not limited: anything the gates allow
  std::string early_until_;
};

}  // namespace rpckit::roles
