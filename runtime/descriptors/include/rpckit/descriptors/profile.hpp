#pragma once
// The vocabulary of generated protocol profiles (<module>/profile.hpp): the traits a generic
// role reads instead of code (framing, ids, lifecycle messages, leniency).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "rpckit/codec/json_reader.hpp"

namespace rpckit {

// Kinds of JSON-RPC ids, as a set.
enum class IdKind : std::uint8_t { kInteger = 1, kString = 2, kNull = 4 };
using IdKinds = IdKind;
constexpr IdKind operator|(IdKind a, IdKind b) {
  return static_cast<IdKind>(static_cast<std::uint8_t>(a) | static_cast<std::uint8_t>(b));
}
constexpr bool contains(IdKind set, IdKind kind) {
  return (static_cast<std::uint8_t>(set) & static_cast<std::uint8_t>(kind)) != 0;
}

// How a peer's error objects are read. Strict (JSON-RPC 2.0): one without an integer `code` is
// malformed, and the call fails with -32603 saying so. Lenient, for protocols whose peers omit
// `code`: such an object is read as `missing_code`, and a missing `message` as
// `missing_message`.
struct ErrorObjects {
  bool code_optional = false;
  int missing_code = 0;
  std::string_view missing_message;

  static constexpr ErrorObjects strict() { return {}; }
  static constexpr ErrorObjects lenient(int code, std::string_view message) {
    return {true, code, message};
  }
};

// A lifecycle slot the protocol leaves empty (no health check, no exit notification, ...).
struct NoMessage {};

inline constexpr std::size_t kDefaultMaxJsonDepth = codec::kMaxJsonDepth;

}  // namespace rpckit
