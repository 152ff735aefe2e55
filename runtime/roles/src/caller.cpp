#include "rpckit/roles/caller.hpp"

namespace rpckit::roles {

void Caller::attach(Endpoint* endpoint) {
  std::unique_lock lock(mutex_);
  endpoint_ = endpoint;
  if (endpoint == nullptr) idle_.wait(lock, [this] { return in_use_ == 0; });
}

void Caller::set_grant(std::optional<JsonValue> granted, std::optional<JsonValue> declared) {
  std::lock_guard lock(mutex_);
  granted_ = std::move(granted);
  declared_ = std::move(declared);
}

void Caller::limit_early(EarlyMessages early, std::string until) {
  std::lock_guard lock(mutex_);
  early_ = early;
  early_until_ = std::move(until);
}

void Caller::lift_early() {
  std::lock_guard lock(mutex_);
  early_ = {};
}

bool Caller::attached() const {
  std::lock_guard lock(mutex_);
  return endpoint_ != nullptr;
}

void Caller::release() const {
  std::lock_guard lock(mutex_);
  if (--in_use_ == 0) idle_.notify_all();
}

CallError Caller::denied(std::string reason) const {
  return CallError{CallError::Kind::kLocal, denial_(std::move(reason))};
}

RpcError Caller::default_denial(std::string reason) {
  return RpcError(jsonrpc_code::kInvalidRequest, std::move(reason));
}

}  // namespace rpckit::roles
