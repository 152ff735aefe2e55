#pragma once
// One step of a one-shot exchange (a generated `Exchange`'s kSteps, protocol.json
// "x-exchange"): what the generic one-shot roles (rpckit/roles/one_shot.hpp) know of it.
#include <chrono>
#include <cstddef>
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

// The step that step `i` answers: the last earlier one from the other side (one with the
// correlation member, when step i has it); -1 when there is none. `same_sender(j, i)` and
// `correlated(j)` describe the steps; the generator and the transcript validator both ask.
template <class SameSender, class Correlated>
int answered_step(std::size_t i, SameSender same_sender, Correlated correlated) {
  for (std::size_t j = i; j-- > 0;) {
    if (same_sender(j, i)) continue;
    if (!correlated(i) || correlated(j)) return static_cast<int>(j);
  }
  return -1;
}

}  // namespace rpckit
