#pragma once
// What an endpoint shares with the AsyncCall handles it gave out: how to take a call back,
// until the endpoint closes (then `take` is cleared, under the mutex, so no handle reaches
// an endpoint that is gone).
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string_view>
#include <utility>

#include "rpckit/endpoint/call_result.hpp"

namespace rpckit::detail {

struct CallCanceller {
  using Completion = std::function<void(CallResult)>;
  std::mutex mutex;
  // Takes call `id` out of the pending calls and tells the peer it was cancelled with
  // `reason`; returns its completion and the error to run it with, or nothing when the call
  // is over already.
  std::function<std::optional<std::pair<Completion, CallResult>>(std::int64_t id,
                                                                 std::string_view reason)>
      take;
};

}  // namespace rpckit::detail
