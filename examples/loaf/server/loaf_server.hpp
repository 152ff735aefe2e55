#pragma once
// The sample loaf server's handlers: every method of the spec over in-memory state, with
// sessions run by the scripted fake model (fake_model.hpp) and progress sent as events.
// Canned catalogs (models, saved history, skills, tools) are in catalog.hpp.
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "events.hpp"
#include "fake_model.hpp"
#include "loaf_v1/roles.hpp"

namespace loaf_server {

struct Peer {};  // one client per server process: nothing to tell apart

namespace v1 = loaf::v1;

class LoafServer : public v1::ServerHandler<Peer> {
 public:
  explicit LoafServer(const v1::ClientClient& client);

  // SIGINT/SIGTERM: turns aborted, state.changed with reason "sigint"/"sigterm".
  void on_signal(const std::string& reason);
  // Stdin closed: turns aborted and sessions ended, no event.
  void end_sessions();

  v1::RpcHandshakeResult rpc_handshake(Peer&, const v1::RpcHandshakeParams& p) override;
  v1::SystemPingResult system_ping(Peer&, const v1::SystemPingParams&) override;
  v1::SystemShutdownResult system_shutdown(Peer&, const v1::SystemShutdownParams& p) override;
  v1::Snapshot state_get(Peer&, const v1::StateGetParams&) override;
  v1::SessionCreateResult session_create(Peer&, const v1::SessionCreateParams&) override;
  v1::SessionState session_get(Peer&, const v1::SessionGetParams& p) override;
  v1::SessionSendResult session_send(Peer&, const v1::SessionSendParams& p) override;
  v1::SessionSteerResult session_steer(Peer&, const v1::SessionSteerParams& p) override;
  v1::SessionInterruptResult session_interrupt(Peer&,
                                               const v1::SessionInterruptParams& p) override;
  v1::SessionQueueListResult session_queue_list(Peer&,
                                                const v1::SessionQueueListParams& p) override;
  v1::SessionQueueClearResult session_queue_clear(Peer&,
                                                  const v1::SessionQueueClearParams& p) override;
  v1::CommandExecuteResult command_execute(Peer&, const v1::CommandExecuteParams& p) override;
  v1::AuthStatus auth_status(Peer&, const v1::AuthStatusParams&) override;
  v1::AuthConnectOpenaiResult auth_connect_openai(Peer&,
                                                  const v1::AuthConnectOpenaiParams& p) override;
  v1::AuthConnectAntigravityResult auth_connect_antigravity(
      Peer&, const v1::AuthConnectAntigravityParams&) override;
  v1::AuthSetOpenrouterKeyResult auth_set_openrouter_key(
      Peer&, const v1::AuthSetOpenrouterKeyParams& p) override;
  v1::AuthSetExaKeyResult auth_set_exa_key(Peer&, const v1::AuthSetExaKeyParams& p) override;
  v1::OnboardingStatusResult onboarding_status(Peer&, const v1::OnboardingStatusParams&) override;
  v1::OnboardingCompleteResult onboarding_complete(Peer&,
                                                   const v1::OnboardingCompleteParams&) override;
  v1::ModelListResult model_list(Peer&, const v1::ModelListParams& p) override;
  v1::ModelSelectResult model_select(Peer&, const v1::ModelSelectParams& p) override;
  v1::ModelOpenrouterProvidersResult model_openrouter_providers(
      Peer&, const v1::ModelOpenrouterProvidersParams& p) override;
  v1::LimitsGetResult limits_get(Peer&, const v1::LimitsGetParams&) override;
  v1::HistoryListResult history_list(Peer&, const v1::HistoryListParams& p) override;
  v1::ChatSessionRecord history_get(Peer&, const v1::HistoryGetParams& p) override;
  v1::HistoryClearSessionResult history_clear_session(
      Peer&, const v1::HistoryClearSessionParams& p) override;
  v1::SkillsListResult skills_list(Peer&, const v1::SkillsListParams&) override;
  v1::ToolsListResult tools_list(Peer&, const v1::ToolsListParams&) override;
  v1::DebugSetResult debug_set(Peer&, const v1::DebugSetParams& p) override;

 private:
  FakeSession& session(const std::string& raw_id);  // throws -32603 "unknown session: <id>"
  v1::Snapshot snapshot();
  v1::AuthStatus auth();
  void changed(const std::string& reason, std::optional<std::string> session_id = {});
  void abort_turns();
  nlohmann::json run_command(FakeSession& s, const std::string& command, const std::string& arg);
  v1::ModelListResult models(const std::optional<v1::AuthProvider>& only);
  v1::CompressCommandOutput compact(FakeSession& s, const v1::CompactionReason& reason);

  EventSink events_;
  std::atomic<bool> debug_{false};
  std::mutex mutex_;  // everything below
  std::map<std::string, std::unique_ptr<FakeSession>> sessions_;
  bool openai_ = false, openrouter_ = false, exa_ = false, exa_skipped_ = false;
  std::optional<v1::AntigravityProfile> antigravity_;
  bool onboarded_ = false;
  std::string model_ = "gpt-5.1-codex";
  v1::ThinkingLevel thinking_ = v1::ThinkingLevel::kMedium;
  std::optional<v1::AuthProvider> provider_;
  std::string openrouter_provider_;
};

}  // namespace loaf_server
