#include "sample_server.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp_2025_11_25/constants.hpp"
#include "mcp_2025_11_25/errors.hpp"
#include "rpckit/codec/codec.hpp"
#include "rpckit/endpoint/cancellation.hpp"
#include "sample_support.hpp"

namespace mcp_sample {

namespace {

// A JSON Schema object as the generated map of its keywords.
std::map<std::string, rpckit::JsonValue> schema_of(const nlohmann::json& schema) {
  std::map<std::string, rpckit::JsonValue> out;
  for (const auto& [keyword, value] : schema.items()) out[keyword] = value;
  return out;
}

// {"type": "object", "properties": ..., "required": ...}: a tool's input or output schema.
template <class Schema>
Schema object_schema(const nlohmann::json& properties, const std::vector<std::string>& required) {
  Schema s;
  s.properties.emplace();
  for (const auto& [name, schema] : properties.items()) (*s.properties)[name] = schema_of(schema);
  s.required = required;
  return s;
}

const nlohmann::json* argument(const mcp::ToolsCallParams& p, const std::string& name) {
  if (!p.arguments) return nullptr;
  auto it = p.arguments->find(name);
  return it == p.arguments->end() ? nullptr : &it->second.get();
}

}  // namespace

mcp::InitializeResult SampleServer::initialize(Peer&, const mcp::InitializeParams& p) {
  {
    // What the client offers decides what this server may ask of it (summarize: sampling).
    std::lock_guard<std::mutex> lock(mutex_);
    client_samples_ = p.capabilities.sampling.has_value();
  }
  mcp::InitializeResult r;
  // The client's version when this server speaks it, else the one it does speak (lifecycle,
  // "Version Negotiation"): this server speaks only its schema's revision.
  r.protocolVersion = std::string(mcp::kProtocolVersion);
  r.capabilities.tools.emplace();
  r.capabilities.resources = mcp::ServerResourcesCapability{.subscribe = true};
  r.capabilities.prompts.emplace();
  r.capabilities.logging.emplace();
  r.serverInfo.name = "rpckit-mcp-sample";
  r.serverInfo.version = "0.1.0";
  r.instructions =
      "Tools add, echo, count, ping_client, summarize and note; resource sample://readme "
      "(subscribe to hear of notes) and template sample://echo/{text}; prompt greet.";
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
  mcp::Tool count;
  count.name = "count";
  count.description =
      "Counts to `to` (at most 100), pausing `delay_ms` before each step (default 0), one "
      "notifications/progress per step when the call carries a progress token, and logs the "
      "total. Cancelled (notifications/cancelled), it stops at the step it is on and logs "
      "where.";
  count.inputSchema = object_schema<mcp::ToolInputSchema>(
      {{"to", {{"type", "integer"}, {"minimum", 1}, {"maximum", 100}}},
       {"delay_ms", {{"type", "integer"}, {"minimum", 0}, {"maximum", 1000}}}},
      {"to"});
  mcp::Tool ping;
  ping.name = "ping_client";
  ping.description = "Pings the client (a request from the server) and says how it went.";
  ping.inputSchema = object_schema<mcp::ToolInputSchema>(nlohmann::json::object(), {});
  mcp::Tool summarize;
  summarize.name = "summarize";
  summarize.description =
      "Asks the client's model for a summary of `text` (sampling/createMessage; needs the "
      "client's sampling capability) and returns it.";
  summarize.inputSchema =
      object_schema<mcp::ToolInputSchema>({{"text", {{"type", "string"}}}}, {"text"});
  mcp::Tool note;
  note.name = "note";
  note.description = "Adds a note to the resource sample://readme (its subscribers hear of it).";
  note.inputSchema =
      object_schema<mcp::ToolInputSchema>({{"text", {{"type", "string"}}}}, {"text"});
  r.tools = {add, echo, count, ping, summarize, note};
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
    // The output schema promises a number: an overflow is the tool's failure, not a null sum.
    if (!std::isfinite(sum)) return tool_error("the sum of a and b is not a finite number");
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
  if (p.name == "count") return count(p);
  if (p.name == "ping_client") return ping_client();
  if (p.name == "note") return note(p);
  if (p.name == "summarize") return summarize(p);
  // An unknown tool is a protocol error (tools spec, "Error Handling").
  throw mcp::make_error(mcp::ErrorCode::kInvalidParams, "unknown tool: " + p.name);
}

mcp::ToolsCallResult SampleServer::count(const mcp::ToolsCallParams& p) {
  const nlohmann::json* to = argument(p, "to");
  if (to == nullptr || !to->is_number_integer() || *to < 1 || *to > 100) {
    return tool_error("count needs an integer to in [1, 100]");
  }
  const auto n = to->get<std::int64_t>();
  const nlohmann::json* delay = argument(p, "delay_ms");
  if (delay != nullptr && (!delay->is_number_integer() || *delay < 0 || *delay > 1000)) {
    return tool_error("count's delay_ms is an integer in [0, 1000]");
  }
  const std::chrono::milliseconds pause(delay != nullptr ? delay->get<std::int64_t>() : 0);
  // The caller asks for progress with _meta.progressToken (utilities/progress).
  std::optional<mcp::ProgressToken> token;
  if (p._meta) {
    if (auto it = p._meta->find("progressToken"); it != p._meta->end()) {
      mcp::ProgressToken t;
      rpckit::codec::decode_from(it->second.get(), t, "params._meta.progressToken");
      token = t;
    }
  }
  for (std::int64_t i = 1; i <= n; ++i) {
    // The client's notifications/cancelled is read while this runs, and wakes the pause.
    if (rpckit::this_request::wait_cancelled_for(pause)) {
      const std::string reason = rpckit::this_request::cancellation()->reason();
      log(mcp::LoggingLevel::kInfo, "count cancelled before step " + std::to_string(i) + " of " +
                                        std::to_string(n) + (reason.empty() ? "" : ": " + reason));
      return tool_error("cancelled");  // not sent: the client no longer waits for it
    }
    if (!token) continue;
    mcp::NotificationsProgressParams progress;
    progress.progressToken = *token;
    progress.progress = static_cast<double>(i);
    progress.total = static_cast<double>(n);
    client_.notifications_progress(progress);
  }
  log(mcp::LoggingLevel::kInfo, "counted to " + std::to_string(n));
  mcp::ToolsCallResult r;
  r.content.push_back(text_block(std::to_string(n)));
  return r;
}

mcp::ToolsCallResult SampleServer::ping_client() {
  // A request to the client while this call waits for it: the role keeps reading, so the
  // client's answer (and anything else it sends meanwhile) is served.
  auto pong = client_.ping({}, std::chrono::seconds(10));
  if (!pong.ok()) return tool_error("the client did not answer ping: " + pong.error().describe());
  mcp::ToolsCallResult r;
  r.content.push_back(text_block("pong"));
  return r;
}

mcp::ToolsCallResult SampleServer::summarize(const mcp::ToolsCallParams& p) {
  const nlohmann::json* text = argument(p, "text");
  if (text == nullptr || !text->is_string()) return tool_error("summarize needs a string text");
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!client_samples_) return tool_error("the client offers no sampling");
  }
  // A request to the client while this call waits, as ping_client: ten seconds, not the
  // protocol's sixty, so a client that never answers costs the caller little.
  nlohmann::json request = {
      {"messages",
       {{{"role", "user"},
         {"content", {{"type", "text"}, {"text", "Summarize: " + text->get<std::string>()}}}}}},
      {"maxTokens", 100}};
  auto sampled = client_.sampling_createMessage(request.get<mcp::SamplingCreateMessageParams>(),
                                                std::chrono::seconds(10));
  if (!sampled.ok()) return tool_error("sampling failed: " + sampled.error().describe());
  const nlohmann::json content = nlohmann::json(sampled->content);
  if (!content.is_object() || content.value("type", "") != "text") {
    return tool_error("the client's model answered no text");
  }
  mcp::ToolsCallResult r;
  r.content.push_back(text_block("summary: " + content.value("text", "")));
  return r;
}

// notifications/message at `level`, when the client's logging/setLevel lets it through.
void SampleServer::log(const mcp::LoggingLevel& level, const std::string& text) {
  const mcp::LoggingLevel threshold = mcp::LoggingLevel::from_wire(log_level());
  if (level.value() < threshold.value()) return;
  mcp::NotificationsMessageParams message;
  message.level = level;
  message.logger = "mcp-sample-server";
  message.data = nlohmann::json(text);
  client_.notifications_message(message);
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
