#pragma once
// Evaluates a descriptor's capability gate (M::kGate) against a grant, protocol-agnostically:
// the grant and the declarations are JSON objects whose members are the lists the clauses
// name ("events", "host_methods", ... or dotted paths like "contributes.status"), or, for
// capability clauses, the capabilities the peer declared (MCP's ClientCapabilities, where
// "sampling.tools" is granted when present and neither null nor false).
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "rpckit/descriptors/message.hpp"
#include "rpckit/descriptors/profile.hpp"

namespace rpckit {

struct GateVerdict {
  bool allowed = true;
  std::string reason;  // why not: "host_methods does not grant \"notify\""
  // The clause needs a params field that is absent: the params are invalid, which is the
  // caller's error to report (invalid_params) rather than a denial.
  bool missing_param = false;
  // Refused for what a params field asks (a param clause, or the key of a keyed one), not for
  // the method itself.
  bool of_param = false;
};

// Whether a clause of the gate looks at the params (a granted- or declared-param clause): if
// none does, evaluate_gate needs no params, and a typed sender need not build their DOM.
constexpr bool gate_reads_params(std::span<const GateClause> gate) {
  for (const GateClause& clause : gate) {
    if (clause.kind != GateClause::Kind::kGrantedValue &&
        clause.kind != GateClause::Kind::kCapability &&
        clause.kind != GateClause::Kind::kSenderCapability) {
      return true;
    }
  }
  return false;
}

// `declared` is the declarations the protocol has: a plugin's manifest (declared-param
// clauses), or the capabilities the sender announced of itself in the handshake
// (sender-capability clauses; MCP: a server sends notifications/tools/list_changed only if it
// declared tools.listChanged). It may be null when the caller cannot know them (a plugin does
// not read its own manifest): those clauses then pass, and the other side enforces them.
GateVerdict evaluate_gate(std::span<const GateClause> gate, const nlohmann::json& granted,
                          const nlohmann::json* declared, const nlohmann::json* params);

// A receiver's verdict on a message it received (profile gate_on_receipt): only the clauses
// `rule` checks, against what the receiver declared of itself (`own`). `refuse_with` is the
// error code to answer with, and `reason` names what was not declared. A params field of the
// wrong shape is not refused here: the router's -32602 names its path.
struct ReceiptVerdict {
  std::optional<int> refuse_with;
  std::string reason;
};
ReceiptVerdict evaluate_on_receipt(std::span<const GateClause> gate, const GateOnReceipt& rule,
                                   const nlohmann::json& own, const nlohmann::json* params);

}  // namespace rpckit
