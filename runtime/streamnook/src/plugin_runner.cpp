#include "plugin_runner.hpp"

#include <algorithm>
#include <filesystem>

#include "rpckit/dispatch/gate.hpp"
#include "rpckit/roles/host_role.hpp"
#include "streamnook_v1/constants.hpp"
#include "streamnook_v1/roles.hpp"

namespace rpckit::streamnook {

namespace msg = sn::messages;

namespace {

supervision::Duration scaled(std::chrono::milliseconds d, double factor) {
  return supervision::Duration{
      static_cast<supervision::Duration::rep>(static_cast<double>(d.count()) * factor)};
}

// What the user reads when a plugin is disabled.
std::string disabled_notice(const LifecycleEvent& event) {
  std::string why;
  switch (event.cause) {
    case supervision::StopCause::kHandshakeRejected:  // StreamNook refuses for good only so
      why = "it does not speak StreamNook protocol version " + std::to_string(sn::kProtocolVersion);
      break;
    default:
      why = "it kept failing (" + std::string(supervision::to_string(event.cause)) +
            "), more than " + std::to_string(sn::kRestartMaxInWindow) + " restarts in " +
            std::to_string(sn::kRestartWindowMs.count() / 60000) + " minutes";
      break;
  }
  std::string notice = "disabled: " + why;
  if (!event.detail.empty()) notice += " (" + event.detail + ")";
  return notice + "; it stays off until it is started again";
}

}  // namespace

PluginRunner::PluginRunner(HostApplication& app, const HostOptions& options,
                           LoadedManifest manifest, sn::Granted granted)
    : app_(app),
      options_(options),
      manifest_(std::move(manifest)),
      id_(manifest_.manifest.id),
      granted_(std::move(granted)),
      granted_json_(granted_),
      context_{id_, granted_},
      notify_limit_(sn::kNotifyBurst, scaled(sn::kNotifyRefillMs, options_.time_scale)),
      log_file_(options_.log_root / id_ / "plugin.log"),
      consent_(std::make_shared<ConsentBook>(
          [this](ConsentBook::Waiting& waiting) { serve_credential(waiting); })) {
  register_host_methods();
  const sn::ManifestRuntime& runtime = manifest_.manifest.runtime;
  process::SpawnOptions spawn;
  spawn.executable = manifest_.dir / runtime.entry;
  spawn.args = runtime.args_or_default();
  spawn.working_dir = manifest_.dir;
  spawn.stderr_log = log_file_.path();
  supervision::Policy policy = protocol_policy(options_.time_scale);
  if (options_.handshake_timeout) policy.handshake_timeout = *options_.handshake_timeout;
  auto settings = roles::process_settings<sn::Protocol>(id_, std::move(spawn), policy);
  settings.default_deadline = scaled(sn::kDefaultRequestTimeoutMs, options_.time_scale);
  settings.max_queued_events = options_.max_queued_events;
  auto lifecycle = roles::host_lifecycle<sn::Protocol>(
      [this] { return handshake_params(); },
      [this](const Result<sn::InitializeResult>& r) { return judge_handshake(r); });
  process_ = std::make_unique<roles::PluginProcess>(
      std::move(settings), std::move(lifecycle),
      [this](const Incoming& incoming) { return handle(incoming); }, observer());
}

PluginRunner::~PluginRunner() {
  consent_->close();  // an answer the application gives later finds nobody to serve
}

void PluginRunner::start() {
  shutting_down_ = false;
  process_->start();
}

void PluginRunner::stop() {
  shutting_down_ = true;
  process_->stop();
}

void PluginRunner::revoke_consent(const sn::CredentialKind& kind) {
  consent_->revoke(std::string(kind.wire()));
}

roles::PluginProcess::Observer PluginRunner::observer() {
  roles::PluginProcess::Observer o;
  o.lifecycle = [this](const LifecycleEvent& event) {
    if (event.kind == LifecycleEvent::Kind::kStarting) {
      std::lock_guard lock(mutex_);
      hooks_.clear();  // a new process asks again
    }
    app_.on_lifecycle(event);
    if (event.kind == LifecycleEvent::Kind::kDisabled) {
      app_.tell_user(id_, disabled_notice(event));
    }
  };
  o.report = [this](std::string_view what) { app_.on_report(id_, what); };
  o.diagnostic = [this](const Diagnostic& d) { app_.on_diagnostic(id_, d); };
  o.frame = [this](bool outgoing, std::string_view body) { app_.on_frame(id_, outgoing, body); };
  return o;
}

sn::InitializeParams PluginRunner::handshake_params() const {
  std::filesystem::path data_dir = options_.data_root / id_;
  std::filesystem::path log_dir = options_.log_root / id_;
  std::error_code ec;
  std::filesystem::create_directories(data_dir, ec);
  std::filesystem::create_directories(log_dir, ec);
  sn::InitializeParams params;
  params.protocol_version = sn::kProtocolVersion;
  params.host_version = options_.host_version;
  params.plugin_id = id_;
  params.granted = granted_;
  params.data_dir = std::filesystem::absolute(data_dir).string();
  params.log_dir = std::filesystem::absolute(log_dir).string();
  return params;
}

roles::HandshakeOutcome PluginRunner::judge_handshake(const Result<sn::InitializeResult>& result) {
  // Spec 9.2: a plugin that does not speak this protocol_version is disabled, not restarted.
  auto outcome = roles::judge_handshake(result, [](const RpcError& error) {
    auto data = error_data(error);
    // Recognised by its name alone: a plugin may send it with another code.
    return data && data->name == "protocol_version_mismatch";
  });
  // The supervisor names the slot (a handshake rejected for good); the detail names the spec's
  // reason.
  if (outcome.permanent) outcome.detail = "protocol_version_mismatch: " + outcome.detail;
  if (outcome.kind != roles::HandshakeOutcome::Kind::kAccepted) return outcome;
  std::vector<std::string> accepted;
  std::vector<std::string> ignored;  // reported once: a plugin may name half a million
  for (const std::string& hook : result->hooks) {
    bool granted = std::any_of(granted_.events.begin(), granted_.events.end(),
                               [&](const sn::EventName& e) { return e.wire() == hook; });
    if (!granted) {
      ignored.push_back(hook);
    } else if (std::find(accepted.begin(), accepted.end(), hook) == accepted.end()) {
      accepted.push_back(hook);
    }
  }
  if (!ignored.empty()) {
    std::string named;
    for (std::size_t i = 0; i < ignored.size() && i < 3; ++i) {
      named += (i == 0 ? "\"" : ", \"") + ignored[i].substr(0, 64) + "\"";
    }
    if (ignored.size() > 3) named += " and " + std::to_string(ignored.size() - 3) + " more";
    app_.on_report(id_, (ignored.size() == 1 ? "hook " : "hooks ") + named +
                            " ignored: not in granted.events");
  }
  std::lock_guard lock(mutex_);
  hooks_ = std::move(accepted);
  return outcome;
}

std::vector<std::string> PluginRunner::hooks() const {
  std::lock_guard lock(mutex_);
  return hooks_;
}

bool PluginRunner::enqueue_event(const roles::EncodedEvent& event) {
  {
    std::lock_guard lock(mutex_);
    if (std::find(hooks_.begin(), hooks_.end(), event.method) == hooks_.end()) return false;
  }
  if (!evaluate_gate(event.gate, granted_json_, &manifest_.json.get(), event.params_dom())
           .allowed) {
    return false;
  }
  return process_->enqueue_encoded(event.method, event.params_json);
}

Result<JsonValue> PluginRunner::invoke_action(const std::string& action, const JsonValue& args) {
  sn::InvokeActionParams params;
  params.action = action;
  params.args = args;
  nlohmann::json encoded = params;
  auto verdict = evaluate_gate(msg::InvokeAction::kGate, granted_json_, &manifest_.json.get(), &encoded);
  if (!verdict.allowed) return capability_denied("invoke_action: " + verdict.reason);
  std::shared_ptr<Endpoint> endpoint = process_->running_endpoint();
  if (!endpoint) {
    return CallError{CallError::Kind::kLocal,
                     RpcError(jsonrpc_code::kInternalError, id_ + " is not running")};
  }
  return rpckit::call<msg::InvokeAction>(
      *endpoint, params, scaled(sn::kInvokeActionTimeoutMs, options_.time_scale));
}

}  // namespace rpckit::streamnook
