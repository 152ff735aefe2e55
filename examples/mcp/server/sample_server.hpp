#pragma once
// The sample MCP server's handlers over the generated ServerHandler: tools (add, echo; count,
// which reports progress, logs and stops when the client cancels it, and may run as a task:
// tasks/get, tasks/result, tasks/list and tasks/cancel from an rpckit::mcp::TaskStore; ping_client
// and summarize, which ask the client (ping, sampling); note, which changes a resource;
// toggle_shout, which adds or removes the tool shout while the server runs), a text resource,
// a resource template and subscriptions, one prompt and the log level. The tools are typed
// functions in an rpckit::mcp::ToolSet, their arguments and results structs generated from
// tool_types/ with their JSON Schemas; the prompt is in an rpckit::mcp::PromptSet, the resource
// and the template in a ResourceSet and a ResourceTemplateSet. Everything
// on the wire (framing, ids, errors, the lifecycle, cancellation) is the generic plugin role's,
// driven by MCP's profile; what the server sends the client goes through the generated
// ClientClient.
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "mcp_2025_11_25/roles.hpp"
#include "mcp_sample_tools/types.hpp"
#include "rpckit/mcp/prompt_set.hpp"
#include "rpckit/mcp/resource_set.hpp"
#include "rpckit/mcp/resource_template_set.hpp"
#include "rpckit/mcp/task_store.hpp"
#include "rpckit/mcp/tool_set.hpp"

namespace mcp_sample {

namespace mcp = ::mcp::v2025_11_25;

struct Peer {};  // one client per server process: nothing to tell apart

class SampleServer : public mcp::ServerHandler<Peer> {
 public:
  // `offer_tasks`: whether it declares tasks (and runs count as one when asked); without,
  // it serves a task-augmented call plainly, as a server that did not declare tasks MUST.
  SampleServer(const mcp::ClientClient& client, bool offer_tasks);

  mcp::InitializeResult initialize(Peer&, const mcp::InitializeParams& p) override;
  mcp::PingResult ping(Peer&, const mcp::PingParams&) override;
  mcp::ToolsListResult tools_list(Peer&, const mcp::ToolsListParams&) override;
  mcp::ToolsCallResult tools_call(Peer&, const mcp::ToolsCallParams& p) override;
  // Tasks (basic/utilities/tasks): tools/call with `task` for a tool that allows it (count).
  std::optional<mcp::CreateTaskResult> tools_call_with_task(Peer&,
                                                            const mcp::ToolsCallParams& p) override;
  mcp::TasksGetResult tasks_get(Peer&, const mcp::TasksGetParams& p) override;
  mcp::TasksResultResult tasks_result(Peer&, const mcp::TasksResultParams& p) override;
  mcp::TasksListResult tasks_list(Peer&, const mcp::TasksListParams& p) override;
  mcp::TasksCancelResult tasks_cancel(Peer&, const mcp::TasksCancelParams& p) override;
  // Resources (sample_resources.cpp): the readme (with the notes the tool `note` adds), the
  // template sample://echo/{text}, and subscriptions to either.
  mcp::ResourcesListResult resources_list(Peer&, const mcp::ResourcesListParams& p) override;
  mcp::ResourcesTemplatesListResult resources_templates_list(
      Peer&, const mcp::ResourcesTemplatesListParams& p) override;
  mcp::ResourcesReadResult resources_read(Peer&, const mcp::ResourcesReadParams& p) override;
  mcp::ResourcesSubscribeResult resources_subscribe(
      Peer&, const mcp::ResourcesSubscribeParams& p) override;
  mcp::ResourcesUnsubscribeResult resources_unsubscribe(
      Peer&, const mcp::ResourcesUnsubscribeParams& p) override;
  mcp::PromptsListResult prompts_list(Peer&, const mcp::PromptsListParams&) override;
  mcp::PromptsGetResult prompts_get(Peer&, const mcp::PromptsGetParams& p) override;
  mcp::CompletionCompleteResult completion_complete(
      Peer&, const mcp::CompletionCompleteParams& p) override;
  mcp::LoggingSetLevelResult logging_setLevel(Peer&, const mcp::LoggingSetLevelParams& p) override;

  std::string log_level() const;

 private:
  void add_tools();
  void add_prompts();
  void add_resources();  // sample_resources.cpp
  mcp::ToolsCallResult count(const tools::CountArgs& args, const mcp::ToolsCallParams& p);
  mcp::ToolsCallResult ping_client();
  // Asks the client's model for a summary (sampling/createMessage).
  mcp::ToolsCallResult summarize(const tools::TextArgs& args);
  // Adds a note to the readme: notifications/resources/updated when the client subscribed it.
  mcp::ToolsCallResult note(const tools::TextArgs& args);
  // Adds the tool shout, or removes it: notifications/tools/list_changed either way.
  mcp::ToolsCallResult toggle_shout();
  std::string readme() const;
  void log(const mcp::LoggingLevel& level, const std::string& text);

  const mcp::ClientClient& client_;
  const bool offer_tasks_;
  rpckit::mcp::ToolSet tools_;
  rpckit::mcp::PromptSet prompts_;
  rpckit::mcp::ResourceSet resources_;
  rpckit::mcp::ResourceTemplateSet resource_templates_;
  mutable std::mutex mutex_;
  std::string log_level_ = "info";
  std::vector<std::string> notes_;
  std::set<std::string> subscribed_;
  // Last: destroyed first, so a task still running (which uses the members above) is cancelled
  // and waited for before they go.
  rpckit::mcp::TaskStore tasks_;
};

}  // namespace mcp_sample
