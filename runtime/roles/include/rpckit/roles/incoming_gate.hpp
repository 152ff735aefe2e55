#pragma once
// The capability gate of a message the peer sent, checked by its receiver before the handler
// runs. Two forms:
// - incoming_gate: the receiver gave the sender a grant (StreamNook's host: what it granted the
//   plugin, and what the plugin declared in its manifest); the caller decides the answer.
// - refuse_undeclared: the receiver's own handshake declarations (MCP's capabilities), as the
//   profile's gate_on_receipt says, answered with the error it names.
// The params' DOM is built only for a gate that reads them.
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "rpckit/codec/lazy_json.hpp"
#include "rpckit/descriptors/profile.hpp"
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

// Throws the RpcError `rule` names when a clause it checks is not among what this side
// declared of itself (`own`): "elicitation/create: elicitation.url is not granted". A method
// the direction does not have is left to the router.
template <class Direction>
void refuse_undeclared(const GateOnReceipt& rule, std::string_view method, const LazyJson& params,
                       const nlohmann::json& own) {
  Direction::visit(method, [&]<class M>() {
    ReceiptVerdict verdict = evaluate_on_receipt(
        M::kGate, rule, own, gate_reads_params(M::kGate) ? params.get() : nullptr);
    if (verdict.refuse_with) {
      throw RpcError(*verdict.refuse_with, std::string(M::kMethod) + ": " + verdict.reason);
    }
  });
}

}  // namespace rpckit::roles
