#pragma once
// rpckit::mcp::ResourceTemplateSet: the resource templates an MCP server offers (RFC 6570 URI
// templates, read backwards by UriTemplate), added, replaced and removed while it runs, and the
// answers to resources/templates/list (paged) and to resources/read of a URI one of them
// matches. A template is a function of the read's params and its variables' values (percent-
// decoded) to the contents; the first template added that matches a URI reads it. on_change()
// is where a server sends notifications/resources/list_changed. Thread-safe, as Catalog is.
//
//   templates.add(echo,  // echo.uriTemplate = "sample://echo/{text}"
//                 [](const mcp::ResourcesReadParams& p, const rpckit::mcp::UriTemplate::Values& v)
//                 { ... v.at("text") ... });
//   if (auto contents = resources.try_read(p)) return *contents;
//   return templates.read(p);  // -32002 for a URI neither has
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "mcp_2025_11_25/types.hpp"
#include "rpckit/mcp/catalog.hpp"
#include "rpckit/mcp/completions.hpp"
#include "rpckit/mcp/uri_template.hpp"

namespace rpckit::mcp {

namespace m = ::mcp::v2025_11_25;

namespace detail {
using ReadTemplate = std::function<m::ResourcesReadResult(const m::ResourcesReadParams&,
                                                          const UriTemplate::Values&)>;
// A template read once when it is added, its function, and the functions that complete its
// variables.
struct TemplateReader {
  UriTemplate pattern;
  ReadTemplate read;
  Completers completers;
};
}  // namespace detail

class ResourceTemplateSet : private Catalog<m::ResourceTemplate, detail::TemplateReader,
                                            &m::ResourceTemplate::uriTemplate> {
 public:
  using Read = detail::ReadTemplate;

  // Adds the template under its uriTemplate, or replaces the one there; whether it is new.
  // `completers` suggest values of its variables (completion/complete with a ref/resource).
  // Throws std::invalid_argument for a template UriTemplate does not take.
  bool add(m::ResourceTemplate resource_template, Read read, Completers completers = {});
  using Catalog::contains;
  using Catalog::on_change;
  using Catalog::remove;
  using Catalog::set_page_size;
  using Catalog::size;

  m::ResourcesTemplatesListResult list(const m::ResourcesTemplatesListParams& params) const;
  // Whether a template here matches `uri` (a server checks subscriptions with it).
  bool matches(std::string_view uri) const;
  // The contents of a URI a template here matches; -32002 "Resource not found" otherwise.
  m::ResourcesReadResult read(const m::ResourcesReadParams& params) const;
  // The same, or nothing for a URI no template here matches.
  std::optional<m::ResourcesReadResult> try_read(const m::ResourcesReadParams& params) const;
  // The answer to completion/complete for a ref/resource naming a template here by its
  // uriTemplate (another: -32602); nothing for another kind of reference.
  std::optional<m::CompletionCompleteResult> complete(
      const m::CompletionCompleteParams& params) const;
};

}  // namespace rpckit::mcp
