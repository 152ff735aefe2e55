#pragma once
// HostApi: what a plugin can ask of the host, one typed call per host method. Every call is
// checked against the grant first: a request outside it returns capability_denied and sends
// nothing; a notification outside it is not sent (returns false).
//
// Thread safety: every method may be called from any thread once the handshake is done
// (before it, everything is refused locally).
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "rpckit/dispatch/gate.hpp"
#include "rpckit/endpoint/typed.hpp"
#include "rpckit/streamnook/errors.hpp"
#include "streamnook_v1/messages.hpp"

namespace rpckit::streamnook {

class HostApi {
 public:
  Result<sn::GetFollowedLiveResult> get_followed_live();
  Result<sn::SetUpstreamResult> set_upstream(std::string stream_id, std::string playlist_url);
  // May block up to 120 s on the first call per kind while the user answers a consent prompt.
  Result<sn::Credential> get_credential(sn::CredentialKind kind);
  Result<sn::NotifyResult> notify(std::string message,
                                  sn::NotifyLevel level = sn::NotifyLevel::kInfo);
  bool log(sn::LogLevel level, std::string message);
  Result<sn::RegisterPanelResult> register_panel(sn::PanelSchema schema);
  Result<sn::GetPanelValuesResult> get_panel_values();
  // The host ignores slots the manifest does not declare in [contributes].status.
  bool set_status(std::string slot, JsonValue value);

  // Any plugin-to-host message by descriptor (what the named calls above use).
  template <class M>
  Result<typename M::Result> call(const typename M::Params& params,
                                  std::optional<std::chrono::milliseconds> deadline = {}) {
    Endpoint* endpoint = nullptr;
    if (auto verdict = check<M>(params, &endpoint); !verdict.allowed) {
      return capability_denied(std::string(M::kMethod) + ": " + verdict.reason);
    }
    InUse in_use{this};
    return rpckit::call<M>(*endpoint, params, deadline);
  }
  template <class M>
  bool send(const typename M::Params& params) {
    Endpoint* endpoint = nullptr;
    if (!check<M>(params, &endpoint).allowed) return false;
    InUse in_use{this};
    return rpckit::notify<M>(*endpoint, params);
  }
  // Whether the grant allows message M with these params (and why not).
  template <class M>
  GateVerdict allowed(const typename M::Params& params) const {
    static_assert(M::kFrom == sn::Role::kPlugin, "M must be a plugin-to-host message");
    std::lock_guard lock(mutex_);
    if (!granted_json_) return {false, "the handshake has not happened yet"};
    nlohmann::json encoded = params;
    // A plugin does not read its manifest: declared-list clauses are the host's to enforce.
    return evaluate_gate(M::kGate, *granted_json_, nullptr, &encoded);
  }

  bool initialized() const;
  // The handshake's params (grant, data_dir, log_dir...); empty before initialize.
  std::optional<sn::InitializeParams> init() const;
  std::string data_dir() const;
  std::string log_dir() const;

 private:
  friend class Plugin;
  // Attaching nullptr (the endpoint is about to be destroyed) waits until no thread is still
  // inside a call or send on it: a plugin's own threads (e.g. a notifier) may be mid-call when
  // the connection ends. Those calls return promptly, the endpoint being closed by then.
  void attach(Endpoint* endpoint);
  void set_init(const sn::InitializeParams& params);

  // Marks a call or send in progress on the endpoint a successful check() handed out.
  struct InUse {
    explicit InUse(const HostApi* owner) : api(owner) {}
    ~InUse() { api->release(); }
    const HostApi* api;
    InUse(const InUse&) = delete;
    InUse& operator=(const InUse&) = delete;
  };
  void release() const;

  // On success also counts one use of *endpoint (ended by an InUse).
  template <class M>
  GateVerdict check(const typename M::Params& params, Endpoint** endpoint) const {
    GateVerdict verdict = allowed<M>(params);
    std::lock_guard lock(mutex_);
    if (endpoint_ == nullptr) return {false, "not connected"};
    *endpoint = endpoint_;
    if (verdict.allowed) ++in_use_;
    return verdict;
  }

  mutable std::mutex mutex_;
  mutable std::condition_variable idle_;  // in_use_ dropped to 0
  mutable int in_use_ = 0;
  Endpoint* endpoint_ = nullptr;
  std::optional<sn::InitializeParams> init_;
  std::optional<nlohmann::json> granted_json_;
};

}  // namespace rpckit::streamnook
