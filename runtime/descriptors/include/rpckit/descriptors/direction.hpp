#pragma once
// One direction of a protocol: the messages one role sends another, with a method-name lookup
// that hands the typed descriptor to a visitor, so a role routes an envelope to its typed
// handler in one step. Generated dispatch.hpp names each direction:
//
//   struct HostToPlugin : rpckit::Direction<Role, Role::kHost, Role::kPlugin, rpckit::MessageList<
//       messages::Initialize,
//       ...>> {};
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "rpckit/descriptors/message.hpp"

namespace rpckit {

template <class RoleT, RoleT From, RoleT To, class List>
struct Direction;

template <class RoleT, RoleT From, RoleT To, class... Ms>
struct Direction<RoleT, From, To, MessageList<Ms...>> {
  static constexpr RoleT kFrom = From;
  static constexpr RoleT kTo = To;
  using Messages = MessageList<Ms...>;
  static constexpr std::array<std::string_view, sizeof...(Ms)> kMethods = {Ms::kMethod...};

  /// Position of `method` in Messages, or nullopt when this direction has no such method.
  static constexpr std::optional<std::size_t> find(std::string_view method) noexcept {
    for (std::size_t i = 0; i < kMethods.size(); ++i) {
      if (kMethods[i] == method) return i;
    }
    return std::nullopt;
  }

  /// Calls `fn.template operator()<M>()` with the descriptor of `method` and returns true,
  /// or returns false when the method is unknown in this direction.
  template <class Fn>
  static constexpr bool visit(std::string_view method, Fn&& fn) {
    const std::size_t index = find(method).value_or(sizeof...(Ms));
    std::size_t i = 0;
    return ((i++ == index ? (fn.template operator()<Ms>(), true) : false) || ...);
  }
};

}  // namespace rpckit
