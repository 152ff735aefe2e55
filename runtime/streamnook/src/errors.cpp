#include "rpckit/streamnook/errors.hpp"

#include <nlohmann/json.hpp>

namespace rpckit::streamnook {

RpcError spec_error(sn::ErrorCode code, std::string message,
                    std::optional<std::int64_t> retry_after_ms) {
  sn::ErrorData data;
  std::string_view name = sn::to_string(code);
  data.name = name.empty() ? "unknown" : std::string(name);
  nlohmann::json encoded = data;
  // The schema's type is number; whole milliseconds go on the wire as an integer.
  if (retry_after_ms) encoded["retry_after_ms"] = *retry_after_ms;
  return sn::make_error(code, std::move(message), JsonValue(std::move(encoded)));
}

RpcError capability_denied_error(std::string reason) {
  return spec_error(sn::ErrorCode::kCapabilityDenied, "capability_denied: " + std::move(reason));
}

CallError capability_denied(std::string reason) {
  return CallError{CallError::Kind::kLocal, capability_denied_error(std::move(reason))};
}

}  // namespace rpckit::streamnook
