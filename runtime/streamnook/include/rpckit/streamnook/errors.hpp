#pragma once
// StreamNook's typed errors on top of rpckit::RpcError: a code from the generated ErrorCode
// enum and error.data = ErrorData {name, retry_after_ms}.
#include <cstdint>
#include <optional>
#include <string>

#include "rpckit/endpoint/rpc_error.hpp"
#include "streamnook_v1/types.hpp"

namespace rpckit::streamnook {

namespace sn = ::streamnook::v1;

// An error with data {name: "<code name>", retry_after_ms}; the name of a code this version
// does not know is "unknown". retry_after_ms (whole milliseconds, for rate_limited) is sent
// as an integer.
RpcError make_error(sn::ErrorCode code, std::string message,
                    std::optional<std::int64_t> retry_after_ms = std::nullopt);

// The code of an error (any int: codes a newer peer sends stay representable).
inline sn::ErrorCode error_code(const RpcError& error) {
  return static_cast<sn::ErrorCode>(error.code());
}
// error.data decoded as ErrorData, or nullopt when absent or of another shape.
std::optional<sn::ErrorData> error_data(const RpcError& error);

// The capability_denied error a gate produces, before anything is sent.
CallError capability_denied(std::string reason);
RpcError capability_denied_error(std::string reason);

}  // namespace rpckit::streamnook
