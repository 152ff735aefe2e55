#pragma once
// What the sample client answers and shows of what a server sends it: the requests a server
// makes of its client (ping, sampling/createMessage, elicitation/create, roots/list), answered
// as the command line's policy says, and the notifications (log messages, progress, list
// changes, resource updates) told in the transcript. A server that asks for what the client
// did not declare (sampling without the capability, URL-mode elicitation, ...) is answered by
// the role itself (the profile's gate_on_receipt: -32601, or -32602 for a mode), before these
// handlers, and reported as a violation (Diagnostic::Kind::kUndeclared).
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "mcp_2025_11_25/roles.hpp"
#include "rpckit/mcp/task_store.hpp"
#include "transcript.hpp"

namespace mcp_client {

namespace mcp = mcp::v2025_11_25;

// How the client answers a server's requests (and so which capabilities it declares).
struct Policy {
  enum class Sampling { kNone, kReply, kRefuse };
  enum class Elicitation { kNone, kAccept, kDecline, kCancel };
  Sampling sampling = Sampling::kNone;
  std::string sampling_text;  // kReply: the assistant's text
  Elicitation elicitation = Elicitation::kNone;
  std::optional<std::vector<std::string>> roots;  // file:// URIs (or any URIs) to offer
  // "--tasks": a server may send its sampling and elicitation requests as tasks (for those
  // declared): answered with a CreateTaskResult, the answer itself through tasks/result.
  bool tasks = false;

  // From "--sampling reply:TEXT|refuse", "--elicitation accept|decline|cancel" and
  // "--roots URI,URI"; nullopt (with *error) for anything else.
  static std::optional<Policy> parse(const std::string& sampling, const std::string& elicitation,
                                     const std::string& roots, std::string* error);
  mcp::ClientCapabilities capabilities() const;
};

struct Peer {};  // one server per client: nothing to tell apart

class ClientHandler : public mcp::ClientHandler<Peer> {
 public:
  ClientHandler(Policy policy, rpckit_examples::Transcript& transcript)
      : policy_(std::move(policy)), transcript_(transcript) {}

  mcp::PingResult ping(Peer&, const mcp::PingParams&) override;
  mcp::SamplingCreateMessageResult sampling_createMessage(
      Peer&, const mcp::SamplingCreateMessageParams& p) override;
  mcp::ElicitationCreateResult elicitation_create(Peer&,
                                                  const mcp::ElicitationCreateParams& p) override;
  // With --tasks: the same answers, each as a task of tasks_ (basic/utilities/tasks), and the
  // task messages the server then sends.
  std::optional<mcp::CreateTaskResult> sampling_createMessage_with_task(
      Peer&, const mcp::SamplingCreateMessageParams& p) override;
  std::optional<mcp::CreateTaskResult> elicitation_create_with_task(
      Peer&, const mcp::ElicitationCreateParams& p) override;
  mcp::TasksGetResult tasks_get(Peer&, const mcp::TasksGetParams& p) override;
  mcp::TasksResultResult tasks_result(Peer&, const mcp::TasksResultParams& p) override;
  mcp::TasksListResult tasks_list(Peer&, const mcp::TasksListParams& p) override;
  mcp::TasksCancelResult tasks_cancel(Peer&, const mcp::TasksCancelParams& p) override;
  mcp::RootsListResult roots_list(Peer&, const mcp::RootsListParams&) override;

  void notifications_message(Peer&, const mcp::NotificationsMessageParams& p) override;
  void notifications_progress(Peer&, const mcp::NotificationsProgressParams& p) override;
  void notifications_cancelled(Peer&, const mcp::NotificationsCancelledParams& p) override;
  void notifications_tools_list_changed(Peer&,
                                        const mcp::NotificationsToolsListChangedParams&) override;
  void notifications_prompts_list_changed(
      Peer&, const mcp::NotificationsPromptsListChangedParams&) override;
  void notifications_resources_list_changed(
      Peer&, const mcp::NotificationsResourcesListChangedParams&) override;
  void notifications_resources_updated(Peer&,
                                       const mcp::NotificationsResourcesUpdatedParams& p) override;

  // What came so far: requests answered by method, notifications by method.
  std::map<std::string, std::size_t> counts() const;
  // A progress report: on the call `of` (the call's own observer), or under a token no call
  // of ours is waiting on (empty `of`).
  void progress(const std::string& of, const mcp::NotificationsProgressParams& p);

 private:
  void count(const std::string& method);

  Policy policy_;
  rpckit_examples::Transcript& transcript_;
  mutable std::mutex mutex_;
  std::map<std::string, std::size_t> counts_;
  // Last: destroyed first, so a task's work (which uses the members above) ends before them.
  rpckit::mcp::TaskStore tasks_;
};

}  // namespace mcp_client
