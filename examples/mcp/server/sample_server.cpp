#include "sample_server.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "mcp_2025_11_25/constants.hpp"
#include "mcp_2025_11_25/errors.hpp"
#include "rpckit/endpoint/cancellation.hpp"
#include "rpckit/endpoint/rpc_error.hpp"
#include "rpckit/mcp/progress.hpp"
#include "sample_support.hpp"

namespace mcp_sample {

using rpckit::mcp::text_block;
using rpckit::mcp::text_result;
using rpckit::mcp::tool_error;

SampleServer::SampleServer(const mcp::ClientClient& client, bool offer_tasks)
    : client_(client), offer_tasks_(offer_tasks) {
  tools_.declare_tasks(offer_tasks);
  add_tools();
  add_prompts();
  add_resources();
  // From now on a change of the tools is the client's to hear of (tools.listChanged); before
  // initialize there is no client yet, and nothing is sent.
  tools_.on_change([this] { client_.notifications_tools_list_changed(); });
  // A task that ends or is cancelled: the client hears of it (MAY; it polls tasks/get anyway).
  tasks_.on_status([this](const mcp::NotificationsTasksStatusParams& status) {
    client_.notifications_tasks_status(status);
  });
}

mcp::InitializeResult SampleServer::initialize(Peer&, const mcp::InitializeParams&) {
  mcp::InitializeResult r;
  // The client's version when this server speaks it, else the one it does speak (lifecycle,
  // "Version Negotiation"): this server speaks only its schema's revision.
  r.protocolVersion = std::string(mcp::kProtocolVersion);
  r.capabilities.tools = mcp::ServerToolsCapability{.listChanged = true};
  r.capabilities.resources = mcp::ServerResourcesCapability{.subscribe = true};
  r.capabilities.prompts.emplace();
  r.capabilities.logging.emplace();
  r.capabilities.completions.emplace();
  if (offer_tasks_) {
    // tools/call as a task (for the tools whose execution.taskSupport allows it), tasks/list
    // and tasks/cancel.
    mcp::ServerTasksCapability tasks;
    tasks.list.emplace();
    tasks.cancel.emplace();
    tasks.requests.emplace().tools.emplace().call.emplace();
    r.capabilities.tasks = std::move(tasks);
  }
  r.serverInfo.name = "rpckit-mcp-sample";
  r.serverInfo.version = "0.1.0";
  r.instructions =
      "Tools add, echo, count, ping_client, summarize, note and toggle_shout (which adds or "
      "removes the tool shout); resource sample://readme "
      "(subscribe to hear of notes) and template sample://echo/{text}; prompt greet.";
  return r;
}

mcp::PingResult SampleServer::ping(Peer&, const mcp::PingParams&) { return {}; }

mcp::ToolsListResult SampleServer::tools_list(Peer&, const mcp::ToolsListParams& p) {
  return tools_.list(p);
}

mcp::ToolsCallResult SampleServer::tools_call(Peer&, const mcp::ToolsCallParams& p) {
  return tools_.call(p);  // an unknown tool is -32602 (tools spec, "Error Handling")
}

std::optional<mcp::CreateTaskResult> SampleServer::tools_call_with_task(
    Peer&, const mcp::ToolsCallParams& p) {
  if (!offer_tasks_) return std::nullopt;  // served by tools_call, `task` ignored
  return tools_.call_as_task(p, tasks_);   // -32601 for a tool whose taskSupport forbids it
}

mcp::TasksGetResult SampleServer::tasks_get(Peer&, const mcp::TasksGetParams& p) {
  return tasks_.get(p);
}

mcp::TasksResultResult SampleServer::tasks_result(Peer&, const mcp::TasksResultParams& p) {
  return tasks_.result(p);  // a task still running: answered when it ends
}

mcp::TasksListResult SampleServer::tasks_list(Peer&, const mcp::TasksListParams& p) {
  return tasks_.list(p);
}

mcp::TasksCancelResult SampleServer::tasks_cancel(Peer&, const mcp::TasksCancelParams& p) {
  return tasks_.cancel(p);
}

// Each tool's input and output schema is its argument and result type's (tool_types/).
void SampleServer::add_tools() {
  tools_.add<tools::AddArgs>("add", "Adds two numbers.", [](const tools::AddArgs& args) {
    const double sum = args.a + args.b;
    // The output schema promises a number: an overflow is the tool's failure, not a null sum.
    if (!std::isfinite(sum)) throw std::range_error("the sum of a and b is not a finite number");
    return tools::Sum{.sum = sum};
  });
  tools_.add<tools::TextArgs>("echo", "Returns its text.",
                              [](const tools::TextArgs& args) { return text_result(args.text); });
  mcp::Tool count_tool;
  count_tool.name = "count";
  count_tool.description =
      "Counts to `to` (at most 100), pausing `delay_ms` before each step (default 0), one "
      "notifications/progress per step when the call carries a progress token, and logs the "
      "total. Cancelled (notifications/cancelled, or tasks/cancel when it runs as a task), it "
      "stops at the step it is on and logs where.";
  count_tool.execution =
      mcp::ToolExecution{.taskSupport = mcp::ToolExecutionTaskSupport::kOptional};
  tools_.add<tools::CountArgs>(std::move(count_tool),
                               [this](const tools::CountArgs& args, const mcp::ToolsCallParams& p) {
                                 return count(args, p);
                               });
  tools_.add<tools::NoArgs>("ping_client",
                            "Pings the client (a request from the server) and says how it went.",
                            [this](const tools::NoArgs&) { return ping_client(); });
  tools_.add<tools::TextArgs>(
      "summarize",
      "Asks the client's model for a summary of `text` (sampling/createMessage; needs the "
      "client's sampling capability) and returns it.",
      [this](const tools::TextArgs& args) { return summarize(args); });
  tools_.add<tools::TextArgs>(
      "note", "Adds a note to the resource sample://readme (its subscribers hear of it).",
      [this](const tools::TextArgs& args) { return note(args); });
  tools_.add<tools::NoArgs>(
      "toggle_shout",
      "Adds the tool shout (upper-cases its text), or removes it when it is there; the client "
      "hears of either (notifications/tools/list_changed).",
      [this](const tools::NoArgs&) { return toggle_shout(); });
}

mcp::ToolsCallResult SampleServer::toggle_shout() {
  if (tools_.remove("shout")) return text_result("shout removed");
  tools_.add<tools::TextArgs>("shout", "Returns its text in capitals.",
                              [](const tools::TextArgs& args) {
                                std::string loud = args.text;
                                for (char& c : loud) {
                                  if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
                                }
                                return text_result(loud);
                              });
  return text_result("shout added");
}

mcp::ToolsCallResult SampleServer::count(const tools::CountArgs& args,
                                         const mcp::ToolsCallParams& p) {
  const std::int64_t n = args.to;  // 1 to 100, as CountArgs's schema says and its decoder checks
  const std::chrono::milliseconds pause(args.delay_ms.value_or(0));
  // Sent only if the caller asked for progress (_meta.progressToken, utilities/progress).
  rpckit::mcp::Progress progress(p._meta, [this](const mcp::NotificationsProgressParams& report) {
    return client_.notifications_progress(report);
  });
  for (std::int64_t i = 1; i <= n; ++i) {
    // The client's notifications/cancelled is read while this runs, and wakes the pause.
    if (rpckit::this_request::wait_cancelled_for(pause)) {
      const std::string reason = rpckit::this_request::cancellation()->reason();
      log(mcp::LoggingLevel::kInfo, "count cancelled before step " + std::to_string(i) + " of " +
                                        std::to_string(n) + (reason.empty() ? "" : ": " + reason));
      return tool_error("cancelled");  // not sent: the client no longer waits for it
    }
    progress.report(static_cast<double>(i), static_cast<double>(n));
  }
  log(mcp::LoggingLevel::kInfo, "counted to " + std::to_string(n));
  return text_result(std::to_string(n));
}

mcp::ToolsCallResult SampleServer::ping_client() {
  // A request to the client while this call waits for it: the role keeps reading, so the
  // client's answer (and anything else it sends meanwhile) is served.
  auto pong = client_.ping({}, std::chrono::seconds(10));
  if (!pong.ok()) return tool_error("the client did not answer ping: " + pong.error().describe());
  return text_result("pong");
}

mcp::ToolsCallResult SampleServer::summarize(const tools::TextArgs& args) {
  // Sent only if the client declared sampling (its x-gate, checked against the capabilities
  // of its initialize): otherwise the call fails here, "sampling is not granted".
  // A request to the client while this call waits, as ping_client: ten seconds, not the
  // protocol's sixty, so a client that never answers costs the caller little.
  nlohmann::json request = {
      {"messages",
       {{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Summarize: " + args.text}}}}}},
      {"maxTokens", 100}};
  auto sampled = client_.sampling_createMessage(request.get<mcp::SamplingCreateMessageParams>(),
                                                std::chrono::seconds(10));
  if (!sampled.ok()) return tool_error("sampling failed: " + sampled.error().describe());
  // One block or an array of them: the first text block is the summary.
  std::span<const mcp::SamplingContentBlock> blocks;
  if (const auto* one = std::get_if<mcp::SamplingContentBlock>(&sampled->content.value)) {
    blocks = {one, 1};
  } else if (const auto* many =
                 std::get_if<std::vector<mcp::SamplingContentBlock>>(&sampled->content.value)) {
    blocks = *many;
  }
  for (const mcp::SamplingContentBlock& block : blocks) {
    if (const auto* text = std::get_if<mcp::TextContent>(&block.value)) {
      return text_result("summary: " + text->text);
    }
  }
  return tool_error("the client's model answered no text");
}

// notifications/message at `level`, when the client's logging/setLevel lets it through.
void SampleServer::log(const mcp::LoggingLevel& level, const std::string& text) {
  const mcp::LoggingLevel threshold = mcp::LoggingLevel::from_wire(log_level());
  if (level.value() < threshold.value()) return;
  mcp::NotificationsMessageParams message;
  message.level = level;
  message.logger = "mcp-sample-server";
  message.data = nlohmann::json(text);
  rpckit::mcp::this_task::relate(message._meta);  // sent from a task's work: names the task
  client_.notifications_message(message);
}

mcp::PromptsListResult SampleServer::prompts_list(Peer&, const mcp::PromptsListParams& p) {
  return prompts_.list(p);
}

mcp::PromptsGetResult SampleServer::prompts_get(Peer&, const mcp::PromptsGetParams& p) {
  return prompts_.get(p);  // an unknown prompt, or one without its required argument: -32602
}

void SampleServer::add_prompts() {
  mcp::Prompt greet;
  greet.name = "greet";
  greet.description = "Greets someone by name.";
  greet.arguments = std::vector<mcp::PromptArgument>{{.name = "name", .required = true}};
  prompts_.add(greet,
               [](const mcp::PromptsGetParams& p) {
                 mcp::PromptsGetResult r;
                 r.description = "A greeting";
                 mcp::PromptMessage m;
                 m.role = mcp::ConversationRole::kUser;
                 m.content = text_block("Please greet " + p.arguments->at("name") + " warmly.");
                 r.messages = {m};
                 return r;
               },
               {{"name", rpckit::mcp::starts_with({"Ada", "Alan", "Barbara", "Grace"})}});
}

// Either set answers for its kind of reference; a reference of neither kind is -32602.
mcp::CompletionCompleteResult SampleServer::completion_complete(
    Peer&, const mcp::CompletionCompleteParams& p) {
  if (auto r = prompts_.complete(p)) return std::move(*r);
  if (auto r = resource_templates_.complete(p)) return std::move(*r);
  throw rpckit::RpcError(rpckit::jsonrpc_code::kInvalidParams, "Unknown reference type");
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
