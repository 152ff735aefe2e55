#include "rpckit/mcp/prompt_set.hpp"

#include <utility>
#include <variant>

#include "rpckit/endpoint/rpc_error.hpp"

namespace rpckit::mcp {

m::PromptsListResult PromptSet::list(const m::PromptsListParams& params) const {
  m::PromptsListResult r;
  r.prompts = page(params.cursor, r.nextCursor);
  return r;
}

m::PromptsGetResult PromptSet::get(const m::PromptsGetParams& params) const {
  const auto prompt = find(params.name);
  if (!prompt) throw RpcError(jsonrpc_code::kInvalidParams, "Unknown prompt: " + params.name);
  if (prompt->item.arguments) {
    for (const m::PromptArgument& argument : *prompt->item.arguments) {
      if (!argument.required.value_or(false)) continue;
      if (!params.arguments || !params.arguments->contains(argument.name)) {
        throw RpcError(jsonrpc_code::kInvalidParams,
                       "Missing required argument of " + params.name + ": " + argument.name);
      }
    }
  }
  return prompt->handler.get(params);
}

bool PromptSet::add(m::Prompt prompt, Get get, Completers completers) {
  return Catalog::add(std::move(prompt),
                      detail::PromptEntry{std::move(get), std::move(completers)});
}

std::optional<m::CompletionCompleteResult> PromptSet::complete(
    const m::CompletionCompleteParams& params) const {
  const auto* ref = std::get_if<m::PromptReference>(&params.ref.value);
  if (ref == nullptr) return std::nullopt;
  const auto prompt = find(ref->name);
  if (!prompt) throw RpcError(jsonrpc_code::kInvalidParams, "Unknown prompt: " + ref->name);
  return complete_with(prompt->handler.completers, params);
}

}  // namespace rpckit::mcp
