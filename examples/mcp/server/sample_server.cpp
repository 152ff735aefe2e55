#include "sample_server.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "mcp_2025_11_25/constants.hpp"
#include "mcp_2025_11_25/errors.hpp"

namespace mcp_sample {

namespace {

constexpr std::string_view kReadmeUri = "sample://readme";
constexpr std::string_view kReadmeText =
    "This server is the rpckit MCP sample: tools add and echo, this resource, the greet "
    "prompt.\n";

mcp::ContentBlock text_block(std::string text) {
  mcp::TextContent t;
  t.text = std::move(text);
  return {t};
}

// A JSON Schema object as the generated map of its keywords.
std::map<std::string, rpckit::JsonValue> schema_of(const nlohmann::json& schema) {
  std::map<std::string, rpckit::JsonValue> out;
  for (const auto& [keyword, value] : schema.items()) out[keyword] = value;
  return out;
}

// {"type": "object", "properties": ..., "required": ...}: a tool's input or output schema.
template <class Schema>
Schema object_schema(const nlohmann::json& properties, std::vector<std::string> required) {
  Schema s;
  s.properties.emplace();
  for (const auto& [name, schema] : properties.items()) (*s.properties)[name] = schema_of(schema);
  s.required = std::move(required);
  return s;
}

// A tool's failure is a result the model reads (isError), not a JSON-RPC error (tools spec,
// "Error Handling").
mcp::ToolsCallResult tool_error(std::string text) {
  mcp::ToolsCallResult r;
  r.content.push_back(text_block(std::move(text)));
  r.isError = true;
  return r;
}

const nlohmann::json* argument(const mcp::ToolsCallParams& p, const std::string& name) {
  if (!p.arguments) return nullptr;
  auto it = p.arguments->find(name);
  return it == p.arguments->end() ? nullptr : &it->second.get();
}

}  // namespace

mcp::InitializeResult SampleServer::initialize(Peer&, const mcp::InitializeParams&) {
  mcp::InitializeResult r;
  // The client's version when this server speaks it, else the one it does speak (lifecycle,
  // "Version Negotiation"): this server speaks only its schema's revision.
  r.protocolVersion = std::string(mcp::kProtocolVersion);
  r.capabilities.tools.emplace();
  r.capabilities.resources.emplace();
  r.capabilities.prompts.emplace();
  r.capabilities.logging.emplace();
  r.serverInfo.name = "rpckit-mcp-sample";
  r.serverInfo.version = "0.1.0";
  r.instructions = "Tools add and echo; resource sample://readme; prompt greet.";
  return r;
}

mcp::PingResult SampleServer::ping(Peer&, const mcp::PingParams&) { return {}; }

mcp::ToolsListResult SampleServer::tools_list(Peer&, const mcp::ToolsListParams&) {
  mcp::ToolsListResult r;
  mcp::Tool add;
  add.name = "add";
  add.description = "Adds two numbers.";
  add.inputSchema = object_schema<mcp::ToolInputSchema>(
      {{"a", {{"type", "number"}}}, {"b", {{"type", "number"}}}}, {"a", "b"});
  add.outputSchema = object_schema<mcp::ToolOutputSchema>({{"sum", {{"type", "number"}}}}, {"sum"});
  mcp::Tool echo;
  echo.name = "echo";
  echo.description = "Returns its text.";
  echo.inputSchema =
      object_schema<mcp::ToolInputSchema>({{"text", {{"type", "string"}}}}, {"text"});
  r.tools = {add, echo};
  return r;
}

mcp::ToolsCallResult SampleServer::tools_call(Peer&, const mcp::ToolsCallParams& p) {
  if (p.name == "add") {
    const nlohmann::json* a = argument(p, "a");
    const nlohmann::json* b = argument(p, "b");
    if (a == nullptr || b == nullptr || !a->is_number() || !b->is_number()) {
      return tool_error("add needs numbers a and b");
    }
    const double sum = a->get<double>() + b->get<double>();
    mcp::ToolsCallResult r;
    r.content.push_back(text_block(nlohmann::json(sum).dump()));
    r.structuredContent.emplace();
    (*r.structuredContent)["sum"] = nlohmann::json(sum);
    return r;
  }
  if (p.name == "echo") {
    const nlohmann::json* text = argument(p, "text");
    if (text == nullptr || !text->is_string()) return tool_error("echo needs a string text");
    mcp::ToolsCallResult r;
    r.content.push_back(text_block(text->get<std::string>()));
    return r;
  }
  // An unknown tool is a protocol error (tools spec, "Error Handling").
  throw mcp::make_error(mcp::ErrorCode::kInvalidParams, "unknown tool: " + p.name);
}

mcp::ResourcesListResult SampleServer::resources_list(Peer&, const mcp::ResourcesListParams&) {
  mcp::ResourcesListResult r;
  mcp::Resource readme;
  readme.uri = std::string(kReadmeUri);
  readme.name = "readme";
  readme.mimeType = "text/plain";
  r.resources = {readme};
  return r;
}

mcp::ResourcesReadResult SampleServer::resources_read(Peer&, const mcp::ResourcesReadParams& p) {
  if (p.uri != kReadmeUri) {
    throw mcp::make_error(mcp::ErrorCode::kResourceNotFound, "Resource not found",
                          nlohmann::json{{"uri", p.uri}});
  }
  mcp::ResourcesReadResult r;
  mcp::ResourceContents c;
  c.uri = p.uri;
  c.mimeType = "text/plain";
  c.text = std::string(kReadmeText);
  r.contents = {c};
  return r;
}

mcp::PromptsListResult SampleServer::prompts_list(Peer&, const mcp::PromptsListParams&) {
  mcp::PromptsListResult r;
  mcp::Prompt greet;
  greet.name = "greet";
  greet.description = "Greets someone by name.";
  mcp::PromptArgument name;
  name.name = "name";
  name.required = true;
  greet.arguments = std::vector<mcp::PromptArgument>{name};
  r.prompts = {greet};
  return r;
}

mcp::PromptsGetResult SampleServer::prompts_get(Peer&, const mcp::PromptsGetParams& p) {
  if (p.name != "greet") {
    throw mcp::make_error(mcp::ErrorCode::kInvalidParams, "unknown prompt: " + p.name);
  }
  if (!p.arguments || !p.arguments->contains("name")) {
    throw mcp::make_error(mcp::ErrorCode::kInvalidParams, "greet needs the argument name");
  }
  mcp::PromptsGetResult r;
  r.description = "A greeting";
  mcp::PromptMessage m;
  m.role = mcp::ConversationRole::kUser;
  m.content = text_block("Please greet " + p.arguments->at("name") + " warmly.");
  r.messages = {m};
  return r;
}

mcp::LoggingSetLevelResult SampleServer::logging_setLevel(Peer&,
                                                          const mcp::LoggingSetLevelParams& p) {
  std::lock_guard<std::mutex> lock(mutex_);
  log_level_ = std::string(p.level.wire());
  return {};
}

std::string SampleServer::log_level() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return log_level_;
}

}  // namespace mcp_sample
