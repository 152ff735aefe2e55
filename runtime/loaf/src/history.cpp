#include "rpckit/loaf/history.hpp"

#include <string>

namespace rpckit::loaf {

namespace lv1 = ::loaf::v1;

Result<std::vector<lv1::ChatSessionSummary>> list_history(const lv1::ServerClient& server,
                                                          const HistoryPaging& paging) {
  std::vector<lv1::ChatSessionSummary> sessions;
  std::int64_t cursor = 0;
  for (std::size_t page = 0; page < paging.max_pages; ++page) {
    lv1::HistoryListParams params;
    params.limit = static_cast<double>(paging.page_size);
    params.cursor = static_cast<double>(cursor);
    Result<lv1::HistoryListResult> got = server.history_list(params, paging.deadline);
    if (!got.ok()) return got.error();
    const std::size_t n = got->sessions.size();
    // The page size the server used (it floors and bounds it), else the one asked for.
    const std::int64_t limit = got->limit > 0 ? got->limit : paging.page_size;
    for (auto& s : got->sessions) sessions.push_back(std::move(s));
    // A short page is the last; next_cursor is not trusted (decision 8.10).
    if (n == 0 || static_cast<std::int64_t>(n) < limit) return sessions;
    cursor += static_cast<std::int64_t>(n);
  }
  return CallError{CallError::Kind::kLocal,
                   RpcError(jsonrpc_code::kInternalError,
                            "history.list: still full pages after " +
                                std::to_string(paging.max_pages) + " pages")};
}

}  // namespace rpckit::loaf
