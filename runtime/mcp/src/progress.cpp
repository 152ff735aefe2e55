#include "rpckit/mcp/progress.hpp"

#include <utility>

#include "rpckit/codec/value_codec.hpp"
#include "rpckit/mcp/task_store.hpp"

namespace rpckit::mcp {

Progress::Progress(const std::optional<m::Meta>& meta, Send send) : send_(std::move(send)) {
  if (!meta) return;
  auto it = meta->find("progressToken");
  if (it == meta->end() || it->second.get().is_null()) return;
  // Any shape decodes: the token is the caller's, and goes back to it as it came.
  m::ProgressToken token;
  codec::decode_from(it->second.get(), token, "params._meta.progressToken");
  token_ = std::move(token);
}

bool Progress::report(double progress, std::optional<double> total,
                      std::optional<std::string> message) {
  if (!token_ || (last_ && !(progress > *last_))) return false;
  m::NotificationsProgressParams p;
  p.progressToken = *token_;
  p.progress = progress;
  p.total = total;
  p.message = std::move(message);
  this_task::relate(p._meta);  // a task's progress names the task (basic/utilities/tasks)
  if (!send_ || !send_(p)) return false;
  last_ = progress;
  return true;
}

}  // namespace rpckit::mcp
