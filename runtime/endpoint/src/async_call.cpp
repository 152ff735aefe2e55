#include "rpckit/endpoint/async_call.hpp"

#include "call_canceller.hpp"

namespace rpckit {

bool AsyncCall::cancel(std::string_view reason) const {
  if (!canceller_) return false;
  std::optional<std::pair<detail::CallCanceller::Completion, CallResult>> taken;
  {
    std::lock_guard lock(canceller_->mutex);  // the endpoint cannot close meanwhile
    if (!canceller_->take) return false;
    taken = canceller_->take(id_, reason);
  }
  if (!taken) return false;
  // Run without the lock: the completion may cancel other calls or close the endpoint.
  taken->first(std::move(taken->second));
  return true;
}

}  // namespace rpckit
