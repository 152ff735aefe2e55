#include "rpckit/mcp/resource_template_set.hpp"

#include <utility>
#include <variant>

#include "rpckit/endpoint/rpc_error.hpp"
#include "rpckit/mcp/resource_set.hpp"

namespace rpckit::mcp {

bool ResourceTemplateSet::add(m::ResourceTemplate resource_template, Read read,
                              Completers completers) {
  UriTemplate pattern(resource_template.uriTemplate);
  return Catalog::add(
      std::move(resource_template),
      detail::TemplateReader{std::move(pattern), std::move(read), std::move(completers)});
}

std::optional<m::CompletionCompleteResult> ResourceTemplateSet::complete(
    const m::CompletionCompleteParams& params) const {
  const auto* ref = std::get_if<m::ResourceTemplateReference>(&params.ref.value);
  if (ref == nullptr) return std::nullopt;
  const auto entry = find(ref->uri);
  if (!entry)
    throw RpcError(jsonrpc_code::kInvalidParams, "Unknown resource template: " + ref->uri);
  return complete_with(entry->handler.completers, params);
}

m::ResourcesTemplatesListResult ResourceTemplateSet::list(
    const m::ResourcesTemplatesListParams& params) const {
  m::ResourcesTemplatesListResult r;
  r.resourceTemplates = page(params.cursor, r.nextCursor);
  return r;
}

bool ResourceTemplateSet::matches(std::string_view uri) const {
  for (const auto& entry : entries()) {
    if (entry->handler.pattern.match(uri)) return true;
  }
  return false;
}

std::optional<m::ResourcesReadResult> ResourceTemplateSet::try_read(
    const m::ResourcesReadParams& params) const {
  for (const auto& entry : entries()) {
    if (auto values = entry->handler.pattern.match(params.uri)) {
      return entry->handler.read(params, *values);
    }
  }
  return std::nullopt;
}

m::ResourcesReadResult ResourceTemplateSet::read(const m::ResourcesReadParams& params) const {
  if (auto contents = try_read(params)) return std::move(*contents);
  resource_not_found(params.uri);
}

}  // namespace rpckit::mcp
