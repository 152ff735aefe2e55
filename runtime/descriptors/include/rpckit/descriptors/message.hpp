#pragma once
// The vocabulary of generated message descriptors. Protocol-agnostic: a descriptor names its
// method, kind, params policy, capability gate and deadline; the roles interpret them.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace rpckit {

enum class MessageKind : std::uint8_t { kRequest, kNotification };

// How params travel. Receivers of kOptional* accept absent, null or an object.
enum class ParamsPresence : std::uint8_t {
  kRequired,           // always sent as an object
  kOptionalSendEmpty,  // may be absent or null; senders send {}
  kOptionalOmit,       // may be absent or null; senders omit params that say nothing
};

// One clause of a capability gate; a message is allowed when every clause holds.
struct GateClause {
  enum class Kind : std::uint8_t {
    kGrantedValue,      // grant list `list` contains `value`
    kGrantedParam,      // grant list `list` contains the value of params field `param`
    kDeclaredParam,     // manifest list `list` (dotted path) contains params field `param`
    kCapability,        // the grant has `list` (a dotted path), neither null nor false
    kParamCapability,   // params field `param` absent (or null), or the grant has `list`
    kSenderCapability,  // the sender declared `list` of itself, neither null nor false
    // The grant has `list` and, in it, the member named by params field `param` (`value` when
    // the param is absent); a `list` with no members declares `value` only (MCP's elicitation
    // modes: an empty `elicitation` means form mode).
    kKeyedCapability,
  };
  Kind kind;
  std::string_view list;
  std::string_view value;
  std::string_view param;
};

// One way a message goes. A descriptor's kRoutes lists every way (two for a message both sides
// send, such as MCP's ping); a descriptor with a single route also names it as kFrom and kTo.
template <class RoleT>
struct Route {
  RoleT from;
  RoleT to;
};

// True when role `from` sends message M to role `to`.
template <class M, class RoleT>
constexpr bool goes(RoleT from, RoleT to) noexcept {
  for (const Route<RoleT>& r : M::kRoutes) {
    if (r.from == from && r.to == to) return true;
  }
  return false;
}

// A compile-time list of message descriptors (one direction of a protocol).
template <class... Messages>
struct MessageList {
  static constexpr std::size_t kSize = sizeof...(Messages);
};

}  // namespace rpckit
