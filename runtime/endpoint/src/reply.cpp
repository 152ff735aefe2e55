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
  }
  return *this;
}

Reply::~Reply() {
  if (pending()) answer(nullptr, nullptr);
}

bool Reply::result(JsonValue value) { return answer(&value.get(), nullptr); }

bool Reply::error(const RpcError& error) { return answer(nullptr, &error); }

bool Reply::answer(const nlohmann::json* result, const RpcError* error) {
  std::shared_ptr<detail::ReplyOutbox> outbox = std::move(outbox_);
  if (!outbox) return false;
  std::lock_guard lock(outbox->mutex);
  if (outbox->send == nullptr) return false;  // the connection has ended
  if (result == nullptr && error == nullptr) {
    RpcError abandoned(jsonrpc_code::kInternalError,
                       "Internal error in " + method_ + ": the request was abandoned");
    return outbox->send(id_.get(), method_, nullptr, &abandoned);
  }
  return outbox->send(id_.get(), method_, result, error);
}

}  // namespace rpckit
