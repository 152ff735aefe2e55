#include "rpckit/endpoint/reply.hpp"

#include <nlohmann/json.hpp>

#include "reply_outbox.hpp"

namespace rpckit {

Reply& Reply::operator=(Reply&& other) noexcept {
  if (this != &other) {
    if (pending()) {
      answer(nullptr, nullptr);
    }
    outbox_ = std::move(other.outbox_);
    id_ = std::move(other.id_);
    method_ = std::move(other.method_);
    cancellation_ = std::move(other.cancellation_);
  }
  return *this;
}

Reply::~Reply() {
  if (pending()) answer(nullptr, nullptr);
}

bool Reply::result(JsonValue value) { return answer(&value.get(), nullptr); }

bool Reply::error(const RpcError& error) { return answer(nullptr, &error); }

void Reply::withdraw() {
  if (outbox_) finish_cancellable(*outbox_);
  outbox_.reset();
}

bool Reply::finish_cancellable(const detail::ReplyOutbox& outbox) {
  if (!cancellation_) return false;
  if (outbox.in_flight) outbox.in_flight->close(id_.get().dump(), cancellation_.get());
  return cancellation_->requested();
}

bool Reply::answer(const nlohmann::json* result, const RpcError* error) {
  std::shared_ptr<detail::ReplyOutbox> outbox = std::move(outbox_);
  if (!outbox) return false;
  // The peer no longer waits for an answer it cancelled (WireRules::cancel).
  if (finish_cancellable(*outbox)) return false;
  std::lock_guard lock(outbox->mutex);
  if (outbox->send == nullptr) return false;  // the connection has ended
  if (result == nullptr && error == nullptr) {
    RpcError abandoned(jsonrpc_code::kInternalError,
                       "Internal error in " + method_ + ": the request was abandoned");
    return outbox->send(id_.get(), method_, nullptr, &abandoned);
  }
  return outbox->send(id_.get(), method_, result, error);
}

namespace this_request {

Reply defer() {
  const std::function<Reply()>* deferrer = detail::current_deferrer();
  return deferrer != nullptr && *deferrer ? (*deferrer)() : Reply();
}

}  // namespace this_request

}  // namespace rpckit
