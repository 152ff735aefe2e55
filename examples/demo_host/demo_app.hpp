#pragma once
// DemoApplication: a stand-in for the StreamNook app. Serves every host method with demo
// data (followed channels, a panel store, a credential, a relay session), rate-limits notify
// as the real host does (burst 3, then 1 per 10 s), and prints what happens.
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "rpckit/streamnook/host_application.hpp"
#include "transcript.hpp"

namespace demo {

namespace sn = ::streamnook::v1;
using rpckit_examples::Transcript;

class DemoApplication : public rpckit::streamnook::HostApplication {
 public:
  explicit DemoApplication(Transcript& transcript);

  // The demo's world, changed by the script.
  void set_live(std::vector<sn::Channel> channels);
  std::vector<sn::Channel> live() const;
  // Lifecycle events seen so far, for the script to wait on.
  bool wait_for(const std::string& plugin_id, rpckit::streamnook::LifecycleEvent::Kind kind,
                std::chrono::milliseconds timeout);
  // The first of `kinds` seen so far (waiting up to `timeout`), or nullopt.
  std::optional<rpckit::streamnook::LifecycleEvent::Kind> wait_for_any(
      const std::string& plugin_id,
      const std::vector<rpckit::streamnook::LifecycleEvent::Kind>& kinds,
      std::chrono::milliseconds timeout);
  int notifications() const;

  sn::GetFollowedLiveResult get_followed_live(const rpckit::streamnook::PluginContext& plugin,
                                              const sn::GetFollowedLiveParams& params) override;
  sn::SetUpstreamResult set_upstream(const rpckit::streamnook::PluginContext& plugin,
                                     const sn::SetUpstreamParams& params) override;
  sn::Credential get_credential(const rpckit::streamnook::PluginContext& plugin,
                                const sn::GetCredentialParams& params) override;
  sn::NotifyResult notify(const rpckit::streamnook::PluginContext& plugin,
                          const sn::NotifyParams& params) override;
  void log(const rpckit::streamnook::PluginContext& plugin, const sn::LogParams& params) override;
  sn::RegisterPanelResult register_panel(const rpckit::streamnook::PluginContext& plugin,
                                         const sn::RegisterPanelParams& params) override;
  sn::GetPanelValuesResult get_panel_values(const rpckit::streamnook::PluginContext& plugin,
                                            const sn::GetPanelValuesParams& params) override;
  void set_status(const rpckit::streamnook::PluginContext& plugin,
                  const sn::SetStatusParams& params) override;

  void ask_consent(const rpckit::streamnook::PluginContext& plugin, const sn::CredentialKind& kind,
                   ConsentAnswer answer) override;
  void tell_user(std::string_view plugin_id, std::string_view message) override;
  void on_lifecycle(const rpckit::streamnook::LifecycleEvent& event) override;
  void on_report(std::string_view plugin_id, std::string_view what) override;
  void on_frame(std::string_view plugin_id, bool outgoing, std::string_view body) override;

  void save_panel(const std::string& plugin_id, sn::PanelValues values);
  // The settings panel the plugin registered, if it did.
  std::optional<sn::PanelSchema> registered_panel(const std::string& plugin_id) const;

 private:
  Transcript& transcript_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<sn::Channel> live_;
  std::map<std::string, sn::PanelValues> panels_;
  std::map<std::string, sn::PanelSchema> panel_schemas_;
  std::map<std::string, std::vector<rpckit::streamnook::LifecycleEvent::Kind>> seen_;
  int notifications_ = 0;
};

sn::Channel demo_channel(const std::string& id, const std::string& login,
                         const std::string& name, const std::string& game, std::int64_t viewers);

}  // namespace demo
