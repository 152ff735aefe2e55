#pragma once
// Progress on a request whose caller asked for it (basic/utilities/progress): the request's
// _meta.progressToken names the request in every notifications/progress about it. A Progress
// made from the request's _meta sends those notifications with the caller's token and keeps
// the spec's rule that progress increases with each one; a request without a token gets a
// Progress that sends nothing, so a tool reports the same way either way. Sent from a task's
// work, a report carries the task in its _meta (this_task::relate).
//
//   rpckit::mcp::Progress progress(params._meta, [&](const auto& n) {
//     return client.notifications_progress(n);
//   });
//   for (int i = 1; i <= n; ++i) progress.report(i, n);
#include <functional>
#include <optional>
#include <string>

#include "mcp_2025_11_25/types.hpp"

namespace rpckit::mcp {

namespace m = ::mcp::v2025_11_25;

class Progress {
 public:
  // Sends one notification; true when it was sent (a typed client's notify).
  using Send = std::function<bool(const m::NotificationsProgressParams&)>;

  Progress(const std::optional<m::Meta>& meta, Send send);

  // Whether the caller asked for progress (its request carried a token).
  bool asked() const { return token_.has_value(); }

  // Sends `progress` (of `total`, when known, with a message for people), and says whether it
  // was sent: not when nobody asked, when `progress` is not above the last one sent (MCP: "the
  // progress value MUST increase with each notification"), or when the send failed.
  bool report(double progress, std::optional<double> total = std::nullopt,
              std::optional<std::string> message = std::nullopt);

 private:
  std::optional<m::ProgressToken> token_;
  Send send_;
  std::optional<double> last_;
};

}  // namespace rpckit::mcp
