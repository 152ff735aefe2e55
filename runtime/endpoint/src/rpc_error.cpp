#include "rpckit/endpoint/rpc_error.hpp"

#include "rpckit/codec/codec.hpp"

namespace rpckit {

nlohmann::json RpcError::to_json() const {
  nlohmann::json j = {{"code", code_}, {"message", message_}};
  if (data_) j["data"] = data_->get();
  return j;
}

RpcError RpcError::from_json(const nlohmann::json& error, const ErrorObjects& policy) {
  auto malformed = [&] {
    return RpcError(jsonrpc_code::kInternalError, "malformed error object: " + codec::snippet(error));
  };
  if (!error.is_object()) return malformed();
  auto code_member = error.find("code");
  bool code_missing = code_member == error.end();
  if (code_missing ? !policy.code_optional : !code_member->is_number_integer()) return malformed();
  std::string message = policy.code_optional ? std::string(policy.missing_message) : "";
  if (auto it = error.find("message"); it != error.end() && it->is_string()) {
    message = it->get<std::string>();
  }
  std::optional<JsonValue> data;
  if (auto it = error.find("data"); it != error.end()) data = JsonValue(*it);
  if (code_missing) return RpcError(policy.missing_code, std::move(message), std::move(data));
  auto code = code_member->get<std::int64_t>();
  if (code < INT32_MIN || code > INT32_MAX) {
    return RpcError(jsonrpc_code::kInternalError, "error code out of range: " + codec::snippet(error));
  }
  return RpcError(static_cast<int>(code), std::move(message), std::move(data));
}

std::string CallError::describe() const {
  const char* kind_name = "";
  switch (kind) {
    case Kind::kRemote: kind_name = "remote error"; break;
    case Kind::kTimeout: kind_name = "timeout"; break;
    case Kind::kDisconnected: kind_name = "disconnected"; break;
    case Kind::kSendFailed: kind_name = "send failed"; break;
    case Kind::kLocal: kind_name = "refused locally"; break;
    case Kind::kCancelled:
      kind_name = "cancelled";
      break;
    case Kind::kInvalidResult:
      kind_name = "invalid result";
      break;
  }
  std::string out = std::string(kind_name) + ": ";
  if (kind == Kind::kRemote || kind == Kind::kLocal) out += std::to_string(error.code()) + " ";
  return out + error.message();
}

std::string_view kind_name(CallError::Kind kind) {
  switch (kind) {
    case CallError::Kind::kRemote:
      return "remote";
    case CallError::Kind::kTimeout:
      return "timeout";
    case CallError::Kind::kDisconnected:
      return "disconnected";
    case CallError::Kind::kSendFailed:
      return "send_failed";
    case CallError::Kind::kLocal:
      return "local";
    case CallError::Kind::kCancelled:
      return "cancelled";
    case CallError::Kind::kInvalidResult:
      return "invalid_result";
  }
  return "?";
}

}  // namespace rpckit
