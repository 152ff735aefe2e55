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
  kOptionalOmit,       // may be absent or null; senders omit params
};

// One clause of a capability gate; a message is allowed when every clause holds.
struct GateClause {
  enum class Kind : std::uint8_t {
    kGrantedValue,  // grant list `list` contains `value`
    kGrantedParam,  // grant list `list` contains the value of params field `param`
    kDeclaredParam  // manifest list `list` (dotted path) contains params field `param`
  };
  Kind kind;
  std::string_view list;
  std::string_view value;
  std::string_view param;
};

// A compile-time list of message descriptors (one direction of a protocol).
template <class... Messages>
struct MessageList {
  static constexpr std::size_t kSize = sizeof...(Messages);
};

}  // namespace rpckit
