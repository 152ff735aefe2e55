#include "rpckit/streamnook/plugin.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "streamnook_v1/profile.hpp"

namespace rpckit::streamnook {

namespace msg = sn::messages;

Plugin::Plugin(std::string plugin_version) : version_(std::move(plugin_version)) {
  register_lifecycle();
}

Plugin::~Plugin() = default;

Plugin& Plugin::on_action(std::string action, ActionHandler handler) {
  actions_[std::move(action)] = std::move(handler);
  return *this;
}

Plugin& Plugin::choose_hooks(
    std::function<std::vector<std::string>(const sn::Granted&)> chooser) {
  chooser_ = std::move(chooser);
  return *this;
}

Plugin& Plugin::on_start(std::function<void(HostApi&)> hook) {
  start_hook_ = std::move(hook);
  return *this;
}

Plugin& Plugin::on_shutdown(std::function<void()> hook) {
  shutdown_hook_ = std::move(hook);
  return *this;
}

// Health check, shutdown and exit are the generic role's (sn::Profile names them); what is
// StreamNook's is the handshake's answer, on_start after initialized, and invoke_action.
void Plugin::register_lifecycle() {
  role_.router().on<sn::Profile::Handshake>(
      [this](const sn::InitializeParams& p) { return initialize(p); });
  role_.router().on<sn::Profile::HandshakeDone>([](const sn::InitializedParams&) {});
  role_.session().on_ready([this] {
    if (start_hook_) start_hook_(host_);
  });
  role_.session().on_shutdown([this] {
    if (shutdown_hook_) shutdown_hook_();
  });
  role_.router().on<msg::InvokeAction>([this](const sn::InvokeActionParams& p) {
    auto it = actions_.find(p.action);
    if (it == actions_.end()) {
      throw spec_error(sn::ErrorCode::kMethodNotFound,
                       "this plugin has no action \"" + p.action + "\"");
    }
    // `args` may be absent (spec 9.8): the schema's default, {}.
    return it->second(p.args_or_default());
  });
}

sn::InitializeResult Plugin::initialize(const sn::InitializeParams& params) {
  if (host_.initialized()) {
    throw spec_error(sn::ErrorCode::kInvalidRequest, "initialize was already received");
  }
  if (params.protocol_version != sn::kProtocolVersion) {
    // Spec 9.2: the host disables (does not restart) a plugin that answers this.
    RpcError error = spec_error(sn::ErrorCode::kInvalidRequest,
                                "protocol_version " + std::to_string(params.protocol_version) +
                                    " is not supported (this plugin speaks " +
                                    std::to_string(sn::kProtocolVersion) + ")");
    nlohmann::json data = {{"name", "protocol_version_mismatch"}, {"retry_after_ms", nullptr}};
    throw RpcError(error.code(), error.message(), data);
  }
  host_.set_init(params);

  std::vector<std::string> wanted = chooser_ ? chooser_(params.granted) : handled_events_;
  sn::InitializeResult result;
  result.plugin_version = version_;
  for (const std::string& event : wanted) {
    bool granted = std::any_of(params.granted.events.begin(), params.granted.events.end(),
                               [&](const sn::EventName& e) { return e.wire() == event; });
    bool duplicate = std::find(result.hooks.begin(), result.hooks.end(), event) != result.hooks.end();
    if (granted && !duplicate) result.hooks.push_back(event);
  }
  return result;
}

int Plugin::run() { return role_.run(); }

int Plugin::serve(std::unique_ptr<framing::FrameReader> reader,
                  std::unique_ptr<framing::FrameWriter> writer, Endpoint::Options options) {
  return role_.serve(std::move(reader), std::move(writer), std::move(options));
}

}  // namespace rpckit::streamnook
