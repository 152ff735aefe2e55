// The host side of plugin-to-host messages: the capability gate first, then the rules the
// spec puts on the host (shutting_down, the notify rate limit, get_credential consent, `log`
// into plugin.log), then the typed call into the HostApplication (the generated sn::bind);
// register_panel also reports what the real StreamNook host would refuse in the panel.
#include <chrono>
#include <string>

#include "plugin_runner.hpp"
#include "rpckit/dispatch/gate.hpp"
#include "rpckit/roles/incoming_gate.hpp"
#include "rpckit/streamnook/real_host.hpp"

namespace rpckit::streamnook {

namespace msg = sn::messages;

void PluginRunner::register_host_methods() {
  sn::bind(router_, app_, context_);
  router_.on<msg::Notify>([this](const sn::NotifyParams& params) {
    std::optional<std::int64_t> wait;
    {
      std::lock_guard lock(mutex_);
      wait = notify_limit_.take(std::chrono::steady_clock::now());
    }
    if (wait) {
      throw spec_error(sn::ErrorCode::kRateLimited,
                       "notify: rate limited (a burst of " + std::to_string(sn::kNotifyBurst) +
                           ", then one per " + std::to_string(sn::kNotifyRefillMs.count() / 1000) +
                           " s); retry in " + std::to_string(*wait) + " ms",
                       *wait);
    }
    return app_.notify(context_, params);
  });
  router_.on<msg::RegisterPanel>([this](const sn::RegisterPanelParams& params) {
    // Served as the spec says; the application hears what the real host would refuse.
    for (const std::string& warning : real_host_panel_warnings(params.schema)) {
      app_.on_report(id_, "register_panel: warning: " + warning);
    }
    return app_.register_panel(context_, params);
  });
  router_.on<msg::Log>([this](const sn::LogParams& params) {
    if (!log_file_.append(params.level_or_default().wire(), params.message)) {
      app_.on_report(id_, "cannot append to " + log_file_.path().string());
    }
    app_.log(context_, params);
  });
}

nlohmann::json PluginRunner::handle(const Incoming& incoming) {
  std::optional<GateVerdict> gate =
      roles::incoming_gate<sn::PluginToHost>(incoming, granted_json_, &manifest_.json.get());
  if (!gate) throw RpcError(jsonrpc_code::kMethodNotFound, "Method not found: " + incoming.method);
  const GateVerdict& verdict = *gate;
  // A missing gate parameter is invalid params: the router reports it with its path below.
  if (!verdict.allowed && !verdict.missing_param) {
    if (incoming.is_request()) {
      throw spec_error(sn::ErrorCode::kCapabilityDenied, incoming.method + ": " + verdict.reason);
    }
    app_.on_report(id_, "dropped " + incoming.method + " notification: " + verdict.reason);
    return nullptr;
  }
  if (incoming.is_request() && shutting_down_) {
    throw spec_error(sn::ErrorCode::kShuttingDown,
                     incoming.method + ": the host is stopping this plugin; the call was not performed");
  }
  if (incoming.is_request() && incoming.method == msg::GetCredential::kMethod) {
    return get_credential(incoming);
  }
  return route(incoming);
}

nlohmann::json PluginRunner::route(const Incoming& incoming) {
  RouteResult routed = router_.route(incoming.method, incoming.params);
  switch (routed.status) {
    case RouteResult::Status::kOk:
      return std::move(routed.result.get());
    case RouteResult::Status::kUnknownMethod:
    case RouteResult::Status::kNoHandler:
      throw RpcError(jsonrpc_code::kMethodNotFound, "Method not found: " + incoming.method);
    case RouteResult::Status::kInvalidParams:
      if (!incoming.is_request()) app_.on_report(id_, "invalid notification: " + routed.error);
      throw spec_error(sn::ErrorCode::kInvalidParams, "Invalid params: " + routed.error);
  }
  return nullptr;
}

nlohmann::json PluginRunner::get_credential(const Incoming& incoming) {
  sn::GetCredentialParams params;
  try {
    params = decode_params<msg::GetCredential>(incoming.params);
  } catch (const codec::DecodeError&) {
    return route(incoming);  // the router answers invalid params, with the path
  }
  auto admission = consent_->admit(params, [&] { return incoming.defer(); });
  switch (admission.decision) {
    case ConsentBook::Decision::kGranted:
      return route(incoming);
    case ConsentBook::Decision::kDenied:
      throw spec_error(sn::ErrorCode::kConsentDenied,
                       "get_credential: the user has not consented to share " +
                           std::string(params.kind.wire()));
    case ConsentBook::Decision::kAsk:
      break;
  }
  if (admission.opened) {
    std::string kind(params.kind.wire());
    std::weak_ptr<ConsentBook> book = consent_;
    std::uint64_t prompt = admission.prompt;
    auto timeout = std::chrono::duration_cast<supervision::Duration>(
        sn::kCredentialConsentTimeoutMs * options_.time_scale);
    process_->after(timeout, [book, kind, prompt] {
      if (auto b = book.lock()) b->expire(kind, prompt);
    });
    app_.ask_consent(context_, params.kind, [book, kind, prompt](bool granted) {
      if (auto b = book.lock()) b->answer(kind, prompt, granted);
    });
  }
  return nullptr;  // answered through the deferred Reply
}

void PluginRunner::serve_credential(ConsentBook::Waiting& waiting) {
  try {
    nlohmann::json params = waiting.params;
    RouteResult routed = router_.route(msg::GetCredential::kMethod, &params);
    if (routed.status == RouteResult::Status::kOk) {
      waiting.reply.result(std::move(routed.result));
    } else {
      waiting.reply.error(RpcError(jsonrpc_code::kMethodNotFound,
                                   "Method not found: get_credential"));
    }
  } catch (const RpcError& e) {
    waiting.reply.error(e);
  } catch (const std::exception& e) {
    waiting.reply.error(RpcError(jsonrpc_code::kInternalError, e.what()));
  }
}

}  // namespace rpckit::streamnook
