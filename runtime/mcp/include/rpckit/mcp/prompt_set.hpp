#pragma once
// rpckit::mcp::PromptSet: the prompts an MCP server offers, added, replaced and removed while it
// runs, and the answers to prompts/list (paged) and prompts/get made from them. A prompt is a
// function of the get's params to its messages; the arguments the prompt declares required are
// checked before it runs (prompts spec, "Error Handling": missing required arguments are
// -32602), as is its name (an unknown prompt, -32602). on_change() is where a server sends
// notifications/prompts/list_changed. Thread-safe, as Catalog is.
//
//   prompts.add(greet, [](const mcp::PromptsGetParams& p) { ... return result; },
//               {{"name", rpckit::mcp::starts_with({"Ada", "Grace"})}});  // completions
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "mcp_2025_11_25/types.hpp"
#include "rpckit/mcp/catalog.hpp"
#include "rpckit/mcp/completions.hpp"

namespace rpckit::mcp {

namespace m = ::mcp::v2025_11_25;

namespace detail {
using GetPrompt = std::function<m::PromptsGetResult(const m::PromptsGetParams&)>;
// A prompt's function, and the functions that complete its arguments.
struct PromptEntry {
  GetPrompt get;
  Completers completers;
};
}  // namespace detail

class PromptSet : private Catalog<m::Prompt, detail::PromptEntry, &m::Prompt::name> {
 public:
  using Get = detail::GetPrompt;

  // Adds `prompt`, or replaces the prompt of that name; whether the name is new. `completers`
  // suggest values of its arguments (completion/complete with a ref/prompt).
  bool add(m::Prompt prompt, Get get, Completers completers = {});
  using Catalog::contains;
  using Catalog::on_change;
  using Catalog::remove;
  using Catalog::set_page_size;
  using Catalog::size;

  m::PromptsListResult list(const m::PromptsListParams& params) const;
  m::PromptsGetResult get(const m::PromptsGetParams& params) const;
  // The answer to completion/complete for a ref/prompt (an unknown prompt: -32602, as prompts/get
  // says); nothing for another kind of reference.
  std::optional<m::CompletionCompleteResult> complete(
      const m::CompletionCompleteParams& params) const;
};

}  // namespace rpckit::mcp
