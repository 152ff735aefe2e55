#pragma once
// Reply: a request answered later, from any thread. A handler that cannot answer at once
// (it waits on a user, on another process, on a slow disk) calls Incoming::defer(), returns,
// and the endpoint goes on serving the peer (pings included) meanwhile.
//
// Exactly one answer: the first result() or error() goes out, later ones return false; a
// Reply destroyed unanswered answers -32603 ("... was abandoned"); once the connection has
// ended (or the endpoint is gone), or the peer has cancelled the request (cancellation()),
// answering does nothing and returns false.
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "rpckit/endpoint/cancellation.hpp"
#include "rpckit/endpoint/rpc_error.hpp"
#include "rpckit/values/json_value.hpp"

namespace rpckit {

namespace detail {
struct ReplyOutbox;  // shared between an endpoint and its replies
}  // namespace detail

class Reply {
 public:
  Reply() = default;
  Reply(Reply&& other) noexcept = default;
  Reply& operator=(Reply&& other) noexcept;
  ~Reply();
  Reply(const Reply&) = delete;
  Reply& operator=(const Reply&) = delete;

  bool result(JsonValue value);
  bool error(const RpcError& error);
  // Gives up answering: the peer gets no response at all (a spawned side that ignores input
  // after answering shutdown). Not for requests a protocol says must be answered.
  void withdraw();
  // Still to be answered.
  bool pending() const { return outbox_ != nullptr; }
  const std::string& method() const { return method_; }
  // Marked when the peer cancels the request (null when the protocol cannot): what the work
  // answering it later looks at.
  std::shared_ptr<const Cancellation> cancellation() const { return cancellation_; }

 private:
  friend class Endpoint;
  Reply(std::shared_ptr<detail::ReplyOutbox> outbox, JsonValue id, std::string method,
        std::shared_ptr<Cancellation> cancellation)
      : outbox_(std::move(outbox)),
        id_(std::move(id)),
        method_(std::move(method)),
        cancellation_(std::move(cancellation)) {}
  bool answer(const nlohmann::json* result, const RpcError* error);
  // The request is over: no longer cancellable; whether the peer had cancelled it.
  bool finish_cancellable(const detail::ReplyOutbox& outbox);

  std::shared_ptr<detail::ReplyOutbox> outbox_;
  JsonValue id_;
  std::string method_;
  std::shared_ptr<Cancellation> cancellation_;
};

namespace this_request {

// Incoming::defer() for a typed handler, which has no Incoming: takes over the answer to the
// request whose handler runs on this thread; what the handler then returns is not sent. A
// Reply that answers nothing outside a request's handler, or on a second call.
Reply defer();

}  // namespace this_request

}  // namespace rpckit
