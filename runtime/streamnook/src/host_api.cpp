#include "rpckit/streamnook/host_api.hpp"

namespace rpckit::streamnook {

namespace msg = sn::messages;

Result<sn::GetFollowedLiveResult> HostApi::get_followed_live() {
  return call<msg::GetFollowedLive>({});
}

Result<sn::SetUpstreamResult> HostApi::set_upstream(std::string stream_id,
                                                    std::string playlist_url) {
  sn::SetUpstreamParams params;
  params.stream_id = std::move(stream_id);
  params.playlist_url = std::move(playlist_url);
  return call<msg::SetUpstream>(params);
}

Result<sn::Credential> HostApi::get_credential(sn::CredentialKind kind) {
  sn::GetCredentialParams params;
  params.kind = std::move(kind);
  return call<msg::GetCredential>(params);
}

Result<sn::NotifyResult> HostApi::notify(std::string message, sn::NotifyLevel level) {
  sn::NotifyParams params;
  params.message = std::move(message);
  params.level = std::move(level);
  return call<msg::Notify>(params);
}

bool HostApi::log(sn::LogLevel level, std::string message) {
  sn::LogParams params;
  params.message = std::move(message);
  params.level = std::move(level);
  return send<msg::Log>(params);
}

Result<sn::RegisterPanelResult> HostApi::register_panel(sn::PanelSchema schema) {
  sn::RegisterPanelParams params;
  params.schema = std::move(schema);
  return call<msg::RegisterPanel>(params);
}

Result<sn::GetPanelValuesResult> HostApi::get_panel_values() {
  return call<msg::GetPanelValues>({});
}

bool HostApi::set_status(std::string slot, JsonValue value) {
  sn::SetStatusParams params;
  params.slot = std::move(slot);
  params.value = std::move(value);
  return send<msg::SetStatus>(params);
}

bool HostApi::initialized() const {
  std::lock_guard lock(mutex_);
  return init_.has_value();
}

std::optional<sn::InitializeParams> HostApi::init() const {
  std::lock_guard lock(mutex_);
  return init_;
}

std::string HostApi::data_dir() const {
  std::lock_guard lock(mutex_);
  return init_ ? init_->data_dir : std::string();
}

std::string HostApi::log_dir() const {
  std::lock_guard lock(mutex_);
  return init_ ? init_->log_dir : std::string();
}

void HostApi::attach(Endpoint* endpoint) {
  std::unique_lock lock(mutex_);
  endpoint_ = endpoint;
  if (endpoint == nullptr) idle_.wait(lock, [this] { return in_use_ == 0; });
}

void HostApi::release() const {
  std::lock_guard lock(mutex_);
  if (--in_use_ == 0) idle_.notify_all();
}

void HostApi::set_init(const sn::InitializeParams& params) {
  std::lock_guard lock(mutex_);
  init_ = params;
  granted_json_ = nlohmann::json(params.granted);
}

}  // namespace rpckit::streamnook
