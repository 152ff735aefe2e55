#pragma once
// rpckit::mcp::ResourceSet: the resources an MCP server offers under fixed URIs, added,
// replaced and removed while it runs, and the answers to resources/list (paged) and
// resources/read made from them. A resource is a function of the read's params to its
// contents; a URI this set does not have is -32002 (resources spec, "Error Handling").
// on_change() is where a server sends notifications/resources/list_changed. Templates
// (resources/templates/list) and what their URIs read are a ResourceTemplateSet's. Thread-safe,
// as Catalog is.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "mcp_2025_11_25/types.hpp"
#include "rpckit/mcp/catalog.hpp"

namespace rpckit::mcp {

namespace m = ::mcp::v2025_11_25;

// -32002 "Resource not found" with the URI as its data (resources spec, "Error Handling").
[[noreturn]] void resource_not_found(const std::string& uri);

class ResourceSet
    : private Catalog<m::Resource,
                      std::function<m::ResourcesReadResult(const m::ResourcesReadParams&)>,
                      &m::Resource::uri> {
 public:
  using Read = Catalog::Handler;

  // add(resource, read) adds `resource` under its URI, or replaces the one there; whether the
  // URI is new.
  using Catalog::add;
  using Catalog::contains;
  using Catalog::on_change;
  using Catalog::remove;
  using Catalog::set_page_size;
  using Catalog::size;

  m::ResourcesListResult list(const m::ResourcesListParams& params) const;
  // The resource's contents; a URI not here is -32002 "Resource not found".
  m::ResourcesReadResult read(const m::ResourcesReadParams& params) const;
  // The same, or nothing for a URI not here (a server with templates reads those next).
  std::optional<m::ResourcesReadResult> try_read(const m::ResourcesReadParams& params) const;
};

}  // namespace rpckit::mcp
