#pragma once
// One step of a one-shot exchange (a generated `Exchange`'s kSteps, protocol.json
// "x-exchange"): what the generic one-shot roles (rpckit/roles/one_shot.hpp) know of it.
#include <chrono>
#include <string_view>

namespace rpckit {

struct ExchangeStep {
  bool from_spawner = true;
  std::string_view tag;     // the value of the discriminator member in this step's message
  bool correlated = false;  // the message carries the correlation member
  int answers = -1;         // the step it answers (its correlation member must match), or -1
  // How long the step may take to arrive once the one before it is sent; zero: bounded only
  // by the invoke deadline.
  std::chrono::milliseconds within{0};
};

}  // namespace rpckit
