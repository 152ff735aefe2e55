#pragma once
// HostApi: what a plugin can ask of the host. client() is the generated typed client (one
// function per host method, so a method added to the schema is there after regenerating);
// the named calls below are shorthands for the common ones. Every call is checked against
// the grant first: a request outside it returns capability_denied and sends nothing; a
// notification outside it is not sent (returns false).
//
// Thread safety: every method may be called from any thread once the handshake is done
// (before it, everything gated is refused locally).
#include <chrono>
#include <mutex>
#include <optional>
#include <string>

#include "rpckit/roles/caller.hpp"
#include "rpckit/streamnook/errors.hpp"
#include "streamnook_v1/roles.hpp"

namespace rpckit::streamnook {

class HostApi {
 public:
  // Sends through `caller` (the plugin role's, which the handshake's grant gates).
  explicit HostApi(roles::Caller& caller) : caller_(caller), client_(caller) {}
  HostApi(const HostApi&) = delete;
  HostApi& operator=(const HostApi&) = delete;

  // Every host method, typed, as the schema lists them.
  const sn::HostClient& client() const { return client_; }

  Result<sn::GetFollowedLiveResult> get_followed_live() { return client_.get_followed_live(); }
  Result<sn::SetUpstreamResult> set_upstream(std::string stream_id, std::string playlist_url);
  // May block up to 120 s on the first call per kind while the user answers a consent prompt.
  Result<sn::Credential> get_credential(sn::CredentialKind kind);
  Result<sn::NotifyResult> notify(std::string message,
                                  sn::NotifyLevel level = sn::NotifyLevel::kInfo);
  bool log(sn::LogLevel level, std::string message);
  Result<sn::RegisterPanelResult> register_panel(sn::PanelSchema schema);
  Result<sn::GetPanelValuesResult> get_panel_values() { return client_.get_panel_values(); }
  // The host ignores slots the manifest does not declare in [contributes].status.
  bool set_status(std::string slot, JsonValue value);

  // Any plugin-to-host message by descriptor.
  template <class M>
  Result<typename M::Result> call(const typename M::Params& params,
                                  std::optional<std::chrono::milliseconds> deadline = {}) {
    return caller_.call<M>(params, deadline);
  }
  template <class M>
  bool send(const typename M::Params& params) {
    return caller_.notify<M>(params);
  }
  // Whether the grant allows message M with these params (and why not).
  template <class M>
  GateVerdict allowed(const typename M::Params& params) const {
    static_assert(M::kFrom == sn::Role::kPlugin, "M must be a plugin-to-host message");
    return caller_.allowed<M>(params);
  }

  bool initialized() const;
  // The handshake's params (grant, data_dir, log_dir...); empty before initialize.
  std::optional<sn::InitializeParams> init() const;
  std::string data_dir() const;
  std::string log_dir() const;

 private:
  friend class Plugin;
  void set_init(const sn::InitializeParams& params);

  roles::Caller& caller_;
  sn::HostClient client_;
  mutable std::mutex mutex_;
  std::optional<sn::InitializeParams> init_;
};

}  // namespace rpckit::streamnook
