#pragma once
// The values an MCP server suggests while a user types a prompt's argument or a resource
// template's variable (server/utilities/completion, completion/complete). A function per
// argument gives them; PromptSet and ResourceTemplateSet keep the functions next to what they
// complete and answer for their kind of reference (ref/prompt, ref/resource).
//
//   prompts.add(greet, get, {{"name", rpckit::mcp::starts_with({"Ada", "Alan", "Grace"})}});
//   if (auto r = prompts.complete(p)) return *r;
//   if (auto r = templates.complete(p)) return *r;
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "mcp_2025_11_25/types.hpp"

namespace rpckit::mcp {

namespace m = ::mcp::v2025_11_25;

// The spec's limit on the values of one answer ("MUST NOT exceed 100 items").
inline constexpr std::size_t kMaxCompletionValues = 100;

// The values that complete `typed` (what the user has typed of the argument so far), given the
// arguments already resolved (the request's context.arguments; empty when it has none).
using Complete = std::function<std::vector<std::string>(
    std::string_view typed, const std::map<std::string, std::string>& resolved)>;
// A function per argument (or variable) name.
using Completers = std::map<std::string, Complete, std::less<>>;

// The candidates that start with what was typed, in their order.
Complete starts_with(std::vector<std::string> candidates);

// The answer for the argument `params` names: its function's values, the first 100 of them,
// with `total` and `hasMore` when there were more; no values for an argument without one.
m::CompletionCompleteResult complete_with(const Completers& completers,
                                          const m::CompletionCompleteParams& params);

}  // namespace rpckit::mcp
