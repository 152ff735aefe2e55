#include "in_flight.hpp"

#include <utility>

namespace rpckit::detail {

std::shared_ptr<Cancellation> InFlightRequests::open(const std::string& id_text) {
  auto cancellation = std::make_shared<Cancellation>();
  std::lock_guard lock(mutex_);
  requests_[id_text] = cancellation;
  return cancellation;
}

bool InFlightRequests::cancel(const std::string& id_text, std::string reason) {
  std::shared_ptr<Cancellation> found;
  {
    std::lock_guard lock(mutex_);
    auto it = requests_.find(id_text);
    if (it == requests_.end()) return false;
    found = it->second;
  }
  found->request(std::move(reason));
  return true;
}

void InFlightRequests::close(const std::string& id_text, const Cancellation* which) {
  std::lock_guard lock(mutex_);
  auto it = requests_.find(id_text);
  if (it != requests_.end() && it->second.get() == which) requests_.erase(it);
}

}  // namespace rpckit::detail
