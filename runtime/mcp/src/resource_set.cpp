#include "rpckit/mcp/resource_set.hpp"

#include <nlohmann/json.hpp>

#include "mcp_2025_11_25/errors.hpp"

namespace rpckit::mcp {

void resource_not_found(const std::string& uri) {
  throw m::make_error(m::ErrorCode::kResourceNotFound, "Resource not found",
                      nlohmann::json{{"uri", uri}});
}

m::ResourcesListResult ResourceSet::list(const m::ResourcesListParams& params) const {
  m::ResourcesListResult r;
  r.resources = page(params.cursor, r.nextCursor);
  return r;
}

std::optional<m::ResourcesReadResult> ResourceSet::try_read(
    const m::ResourcesReadParams& params) const {
  const auto resource = find(params.uri);
  if (!resource) return std::nullopt;
  return resource->handler(params);
}

m::ResourcesReadResult ResourceSet::read(const m::ResourcesReadParams& params) const {
  if (auto contents = try_read(params)) return std::move(*contents);
  resource_not_found(params.uri);
}

}  // namespace rpckit::mcp
