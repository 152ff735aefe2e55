#include "rpckit/streamnook/host_api.hpp"

#include <string>
#include <vector>

#include "rpckit/streamnook/logger.hpp"
#include "rpckit/streamnook/real_host.hpp"

namespace rpckit::streamnook {

Result<sn::SetUpstreamResult> HostApi::set_upstream(std::string stream_id,
                                                    std::string playlist_url) {
  sn::SetUpstreamParams params;
  params.stream_id = std::move(stream_id);
  params.playlist_url = std::move(playlist_url);
  return client_.set_upstream(params);
}

Result<sn::Credential> HostApi::get_credential(sn::CredentialKind kind) {
  sn::GetCredentialParams params;
  params.kind = std::move(kind);
  return client_.get_credential(params);
}

Result<sn::NotifyResult> HostApi::notify(std::string message, sn::NotifyLevel level) {
  sn::NotifyParams params;
  params.message = std::move(message);
  params.level = std::move(level);
  return client_.notify(params);
}

bool HostApi::log(sn::LogLevel level, std::string message) {
  sn::LogParams params;
  params.message = std::move(message);
  params.level = std::move(level);
  return client_.log(params);
}

Result<sn::RegisterPanelResult> HostApi::register_panel(sn::PanelSchema schema) {
  sn::RegisterPanelParams params;
  params.schema = std::move(schema);
  // The spec allows it, so it is sent; the plugin's log says what the real host would refuse.
  std::vector<std::string> warnings = real_host_panel_warnings(params.schema);
  if (!warnings.empty() && allowed<sn::messages::RegisterPanel>(params).allowed) {
    for (const std::string& warning : warnings) {
      Logger(*this).warning("register_panel: " + warning);
    }
  }
  return client_.register_panel(params);
}

bool HostApi::set_status(std::string slot, JsonValue value) {
  sn::SetStatusParams params;
  params.slot = std::move(slot);
  params.value = std::move(value);
  return client_.set_status(params);
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

void HostApi::set_init(const sn::InitializeParams& params) {
  // The grant itself reaches the Caller from the plugin role (sn::Profile's grant member).
  std::lock_guard lock(mutex_);
  init_ = params;
}

}  // namespace rpckit::streamnook
