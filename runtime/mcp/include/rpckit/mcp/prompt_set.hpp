#pragma once
// rpckit::mcp::PromptSet: the prompts an MCP server offers, added, replaced and removed while it
// runs, and the answers to prompts/list (paged) and prompts/get made from them. A prompt is a
// function of the get's params to its messages; the arguments the prompt declares required are
// checked before it runs (prompts spec, "Error Handling": missing required arguments are
// -32602), as is its name (an unknown prompt, -32602). on_change() is where a server sends
// notifications/prompts/list_changed. Thread-safe, as Catalog is.
//
//   prompts.add(greet, [](const mcp::PromptsGetParams& p) { ... return result; });
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "mcp_2025_11_25/types.hpp"
#include "rpckit/mcp/catalog.hpp"

namespace rpckit::mcp {

namespace m = ::mcp::v2025_11_25;

class PromptSet
    : private Catalog<m::Prompt, std::function<m::PromptsGetResult(const m::PromptsGetParams&)>,
                      &m::Prompt::name> {
 public:
  using Get = Catalog::Handler;

  // add(prompt, get) adds `prompt`, or replaces the prompt of that name; whether the name is new.
  using Catalog::add;
  using Catalog::contains;
  using Catalog::on_change;
  using Catalog::remove;
  using Catalog::set_page_size;
  using Catalog::size;

  m::PromptsListResult list(const m::PromptsListParams& params) const;
  m::PromptsGetResult get(const m::PromptsGetParams& params) const;
};

}  // namespace rpckit::mcp
