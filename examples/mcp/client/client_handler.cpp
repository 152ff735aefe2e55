#include "client_handler.hpp"

#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "example_values.hpp"
#include "rpckit/codec/value_codec.hpp"
#include "shown.hpp"

namespace mcp_client {

std::optional<Policy> Policy::parse(const std::string& sampling, const std::string& elicitation,
                                    const std::string& roots, std::string* error) {
  Policy p;
  if (sampling.rfind("reply:", 0) == 0) {
    p.sampling = Sampling::kReply;
    p.sampling_text = sampling.substr(6);
  } else if (sampling == "refuse") {
    p.sampling = Sampling::kRefuse;
  } else if (!sampling.empty()) {
    *error = "--sampling: expected reply:TEXT or refuse, got \"" + sampling + "\"";
    return std::nullopt;
  }
  if (elicitation == "accept") {
    p.elicitation = Elicitation::kAccept;
  } else if (elicitation == "decline") {
    p.elicitation = Elicitation::kDecline;
  } else if (elicitation == "cancel") {
    p.elicitation = Elicitation::kCancel;
  } else if (!elicitation.empty()) {
    *error = "--elicitation: expected accept, decline or cancel, got \"" + elicitation + "\"";
    return std::nullopt;
  }
  if (!roots.empty()) {
    p.roots.emplace();
    std::stringstream list(roots);
    for (std::string uri; std::getline(list, uri, ',');) {
      if (!uri.empty()) p.roots->push_back(uri);
    }
  }
  return p;
}

mcp::ClientCapabilities Policy::capabilities() const {
  mcp::ClientCapabilities c;
  if (sampling != Sampling::kNone) c.sampling.emplace();
  if (elicitation != Elicitation::kNone) {
    c.elicitation.emplace();
    c.elicitation->form.emplace();  // form mode only: the client opens no URLs
  }
  if (roots) c.roots = mcp::ClientRootsCapability{.listChanged = false};
  if (tasks && (c.sampling || c.elicitation)) {
    mcp::ClientTasksCapability t;
    t.list.emplace();
    t.cancel.emplace();
    mcp::ClientTaskRequests& requests = t.requests.emplace();
    if (c.sampling) requests.sampling.emplace().createMessage.emplace();
    if (c.elicitation) requests.elicitation.emplace().create.emplace();
    c.tasks = std::move(t);
  }
  return c;
}

void ClientHandler::count(const std::string& method) {
  std::lock_guard lock(mutex_);
  ++counts_[method];
}

std::map<std::string, std::size_t> ClientHandler::counts() const {
  std::lock_guard lock(mutex_);
  return counts_;
}

mcp::PingResult ClientHandler::ping(Peer&, const mcp::PingParams&) {
  count("ping");
  return {};
}

mcp::SamplingCreateMessageResult ClientHandler::sampling_createMessage(
    Peer&, const mcp::SamplingCreateMessageParams& p) {
  count("sampling/createMessage");
  transcript_.host("server asks for a sampling of " + std::to_string(p.messages.size()) +
                   " message(s), at most " + std::to_string(p.maxTokens) + " tokens");
  if (policy_.sampling == Policy::Sampling::kRefuse) {
    // The specification's example of a user refusing: code -1.
    throw rpckit::RpcError(-1, "User rejected sampling request");
  }
  mcp::SamplingCreateMessageResult result;
  result.role = mcp::ConversationRole::kAssistant;
  result.content.value = mcp::SamplingContentBlock{mcp::TextContent{.text = policy_.sampling_text}};
  result.model = "rpckit-sample-policy";
  result.stopReason = mcp::SamplingCreateMessageResultStopReason::kEndTurn;
  return result;
}

mcp::ElicitationCreateResult ClientHandler::elicitation_create(
    Peer&, const mcp::ElicitationCreateParams& p) {
  count("elicitation/create");
  transcript_.host("server asks the user: " + shortened(p.message));
  nlohmann::json result;
  switch (policy_.elicitation) {
    case Policy::Elicitation::kAccept: {
      result["action"] = "accept";
      // Only form mode is declared (URL mode is refused -32602 before this handler); a form
      // gets a small valid value for each required field.
      if (p.requestedSchema) result["content"] = example_value(nlohmann::json(*p.requestedSchema));
      break;
    }
    case Policy::Elicitation::kDecline:
      result["action"] = "decline";
      break;
    default:
      result["action"] = "cancel";
      break;
  }
  return result.get<mcp::ElicitationCreateResult>();
}

namespace {

// The work of a task that answers `request` with `answer(params)`: its result, or its error.
template <class Answer>
rpckit::mcp::TaskStore::Work task_of(Answer answer) {
  return [answer = std::move(answer)] {
    rpckit::mcp::TaskOutcome outcome;
    outcome.result = rpckit::codec::encode(answer());
    return outcome;
  };
}

}  // namespace

std::optional<mcp::CreateTaskResult> ClientHandler::sampling_createMessage_with_task(
    Peer&, const mcp::SamplingCreateMessageParams& p) {
  if (!policy_.tasks) return std::nullopt;  // not declared: answered at once, `task` ignored
  transcript_.host("server asks for a sampling as a task");
  return tasks_.start(*p.task, task_of([this, p] {
    Peer peer;
    return sampling_createMessage(peer, p);
  }));
}

std::optional<mcp::CreateTaskResult> ClientHandler::elicitation_create_with_task(
    Peer&, const mcp::ElicitationCreateParams& p) {
  if (!policy_.tasks) return std::nullopt;
  transcript_.host("server asks for an elicitation as a task");
  return tasks_.start(*p.task, task_of([this, p] {
    Peer peer;
    return elicitation_create(peer, p);
  }));
}

mcp::TasksGetResult ClientHandler::tasks_get(Peer&, const mcp::TasksGetParams& p) {
  count("tasks/get");
  return tasks_.get(p);
}

mcp::TasksResultResult ClientHandler::tasks_result(Peer&, const mcp::TasksResultParams& p) {
  count("tasks/result");
  return tasks_.result(p);  // a task still running: answered when it ends
}

mcp::TasksListResult ClientHandler::tasks_list(Peer&, const mcp::TasksListParams& p) {
  count("tasks/list");
  return tasks_.list(p);
}

mcp::TasksCancelResult ClientHandler::tasks_cancel(Peer&, const mcp::TasksCancelParams& p) {
  count("tasks/cancel");
  return tasks_.cancel(p);
}

mcp::RootsListResult ClientHandler::roots_list(Peer&, const mcp::RootsListParams&) {
  count("roots/list");
  mcp::RootsListResult r;
  if (!policy_.roots) return r;  // not declared: refused before this handler (gate_on_receipt)
  for (const std::string& uri : *policy_.roots) r.roots.push_back(mcp::Root{.uri = uri});
  return r;
}

void ClientHandler::notifications_message(Peer&, const mcp::NotificationsMessageParams& p) {
  count("notifications/message");
  const nlohmann::json& data = p.data.get();
  transcript_.host("server log [" + std::string(p.level.wire()) + "]" +
                   (p.logger ? " " + *p.logger : std::string()) + ": " +
                   shortened(data.is_string() ? data.get<std::string>() : json_text(data)));
}

void ClientHandler::notifications_progress(Peer&, const mcp::NotificationsProgressParams& p) {
  progress("", p);
}

void ClientHandler::progress(const std::string& of, const mcp::NotificationsProgressParams& p) {
  count("notifications/progress");
  std::string text =
      "progress " +
      (of.empty() ? "under token " + json_text(nlohmann::json(p.progressToken)) : "of " + of) +
      ": " + json_text(p.progress) + (p.total ? "/" + json_text(*p.total) : "");
  if (p.message) text += " " + shortened(*p.message);
  transcript_.host(text);
}

void ClientHandler::notifications_cancelled(Peer&, const mcp::NotificationsCancelledParams& p) {
  count("notifications/cancelled");
  transcript_.host("server cancels its request " +
                   (p.requestId ? json_text(nlohmann::json(*p.requestId)) : std::string("?")) +
                   (p.reason ? ": " + *p.reason : std::string()));
}

void ClientHandler::notifications_tools_list_changed(
    Peer&, const mcp::NotificationsToolsListChangedParams&) {
  count("notifications/tools/list_changed");
  transcript_.host("server: the tool list changed");
}

void ClientHandler::notifications_prompts_list_changed(
    Peer&, const mcp::NotificationsPromptsListChangedParams&) {
  count("notifications/prompts/list_changed");
  transcript_.host("server: the prompt list changed");
}

void ClientHandler::notifications_resources_list_changed(
    Peer&, const mcp::NotificationsResourcesListChangedParams&) {
  count("notifications/resources/list_changed");
  transcript_.host("server: the resource list changed");
}

void ClientHandler::notifications_resources_updated(
    Peer&, const mcp::NotificationsResourcesUpdatedParams& p) {
  count("notifications/resources/updated");
  transcript_.host("server: resource updated: " + p.uri);
}

}  // namespace mcp_client
