#pragma once
// The cursors rpckit::mcp's lists hand out (Catalog's pages, TaskStore's tasks/list): the
// order of the last item sent, as decimal text, so that items removed meanwhile do not shift
// the pages. Opaque to the peer (pagination spec); one this list did not give is -32602.
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <system_error>

#include "rpckit/endpoint/rpc_error.hpp"

namespace rpckit::mcp {

// The order the page starts after: 0 without a cursor; -32602 for a cursor that is not one of
// ours (not a number, 0, or at or past `next_order`, the order the next item would get).
inline std::uint64_t cursor_after(const std::optional<std::string>& cursor,
                                  std::uint64_t next_order) {
  std::uint64_t after = 0;
  if (!cursor) return after;
  auto [end, error] = std::from_chars(cursor->data(), cursor->data() + cursor->size(), after);
  if (error != std::errc() || end != cursor->data() + cursor->size() || after == 0 ||
      after >= next_order) {
    throw RpcError(jsonrpc_code::kInvalidParams, "Invalid cursor: " + *cursor);
  }
  return after;
}

}  // namespace rpckit::mcp
