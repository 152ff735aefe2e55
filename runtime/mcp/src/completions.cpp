#include "rpckit/mcp/completions.hpp"

#include <cstdint>
#include <utility>

namespace rpckit::mcp {

Complete starts_with(std::vector<std::string> candidates) {
  return [candidates = std::move(candidates)](std::string_view typed,
                                              const std::map<std::string, std::string>&) {
    std::vector<std::string> out;
    for (const std::string& c : candidates) {
      if (std::string_view(c).starts_with(typed)) out.push_back(c);
    }
    return out;
  };
}

m::CompletionCompleteResult complete_with(const Completers& completers,
                                          const m::CompletionCompleteParams& params) {
  m::CompletionCompleteResult r;
  const auto it = completers.find(params.argument.name);
  if (it == completers.end() || !it->second) return r;
  static const std::map<std::string, std::string> kNone;
  const auto& resolved =
      params.context && params.context->arguments ? *params.context->arguments : kNone;
  std::vector<std::string> values = it->second(params.argument.value, resolved);
  if (values.size() > kMaxCompletionValues) {
    r.completion.total = static_cast<std::int64_t>(values.size());
    r.completion.hasMore = true;
    values.resize(kMaxCompletionValues);
  }
  r.completion.values = std::move(values);
  return r;
}

}  // namespace rpckit::mcp
