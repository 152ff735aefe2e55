#pragma once
// StreamNook's errors: the generated ones (streamnook_v1/errors.hpp: make_error, error_code,
// error_data) plus the spec's rule that error.data names its code: {name, retry_after_ms}.
#include <cstdint>
#include <optional>
#include <string>

#include "rpckit/endpoint/rpc_error.hpp"
#include "streamnook_v1/errors.hpp"

namespace rpckit::streamnook {

namespace sn = ::streamnook::v1;

// An error as the spec writes them (section 4): data {name: "<code name>", retry_after_ms};
// the name of a code this version does not know is "unknown". retry_after_ms (whole
// milliseconds, for rate_limited) is sent as an integer. (sn::make_error is the generated
// form without the name rule.)
RpcError spec_error(sn::ErrorCode code, std::string message,
                    std::optional<std::int64_t> retry_after_ms = std::nullopt);

// The code of an error, and its data as ErrorData (the generated helpers).
using sn::error_code;
using sn::error_data;

// The capability_denied error a gate produces, before anything is sent.
CallError capability_denied(std::string reason);
RpcError capability_denied_error(std::string reason);

}  // namespace rpckit::streamnook
