#pragma once
// history.list paging as decision 8.10 says: upstream computes `total` from at most
// cursor + limit sessions, so its next_cursor is always null; a client pages until a page
// comes back shorter than its limit instead of trusting next_cursor.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "loaf_v1/roles.hpp"

namespace rpckit::loaf {

struct HistoryPaging {
  std::int64_t page_size = ::loaf::v1::kHistoryListDefaultLimit;
  std::optional<std::chrono::milliseconds> deadline{};  // per page (the spec sets none, 8.9)
  // A server that keeps sending full pages is stopped here (an error, not a short list).
  std::size_t max_pages = 10000;
};

// Every saved session, newest first (as the server orders them), from cursor 0.
Result<std::vector<::loaf::v1::ChatSessionSummary>> list_history(
    const ::loaf::v1::ServerClient& server, const HistoryPaging& paging = {});

}  // namespace rpckit::loaf
