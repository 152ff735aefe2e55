#pragma once
// The capability gate of a message a plugin sent: its direction's descriptor names the gate
// (x-gate), checked against the grant the plugin was given and what it declared, before the
// host's handler runs. The params' DOM is built only for a gate that reads them.
#include <optional>

#include <nlohmann/json_fwd.hpp>

#include "rpckit/dispatch/gate.hpp"
#include "rpckit/endpoint/endpoint.hpp"

namespace rpckit::roles {

// nullopt: the direction has no such method (the router answers -32601).
template <class Direction>
std::optional<GateVerdict> incoming_gate(const Incoming& incoming, const nlohmann::json& granted,
                                         const nlohmann::json* declared) {
  std::optional<GateVerdict> verdict;
  Direction::visit(incoming.method, [&]<class M>() {
    verdict = evaluate_gate(M::kGate, granted, declared,
                            gate_reads_params(M::kGate) ? incoming.params.get() : nullptr);
  });
  return verdict;
}

}  // namespace rpckit::roles
