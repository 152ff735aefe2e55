#include "rpckit/mcp/tool_results.hpp"

#include <nlohmann/json.hpp>
#include <utility>

namespace rpckit::mcp {

m::ContentBlock text_block(std::string text) {
  m::TextContent t;
  t.text = std::move(text);
  return {t};
}

m::ToolsCallResult text_result(std::string text) {
  m::ToolsCallResult r;
  r.content.push_back(text_block(std::move(text)));
  return r;
}

m::ToolsCallResult tool_error(std::string text) {
  m::ToolsCallResult r = text_result(std::move(text));
  r.isError = true;
  return r;
}

m::ToolsCallResult structured_result(const nlohmann::json& structured) {
  // Invalid UTF-8 from a tool is replaced, as the endpoint replaces it in any result.
  m::ToolsCallResult r =
      text_result(structured.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  if (structured.is_object()) {
    r.structuredContent.emplace();
    for (const auto& [key, value] : structured.items()) (*r.structuredContent)[key] = value;
  }
  return r;
}

}  // namespace rpckit::mcp
