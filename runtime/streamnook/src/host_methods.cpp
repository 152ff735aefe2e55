// The host side of plugin-to-host messages: the capability gate first, then the typed call
// into the HostApplication (bound by the generated sn::bind).
#include "plugin_runner.hpp"
#include "rpckit/dispatch/gate.hpp"

namespace rpckit::streamnook {

void PluginRunner::register_host_methods() { sn::bind(router_, app_, context_); }

nlohmann::json PluginRunner::handle(const Incoming& incoming) {
  GateVerdict verdict;
  bool known = sn::PluginToHost::visit(incoming.method, [&]<class M>() {
    verdict = evaluate_gate(M::kGate, granted_json_, &manifest_.json, incoming.params);
  });
  if (!known) throw RpcError(jsonrpc_code::kMethodNotFound, "Method not found: " + incoming.method);
  // A missing gate parameter is invalid params: the router reports it with its path below.
  if (!verdict.allowed && !verdict.missing_param) {
    if (incoming.is_request()) {
      throw make_error(sn::ErrorCode::kCapabilityDenied, incoming.method + ": " + verdict.reason);
    }
    app_.on_report(id_, "dropped " + incoming.method + " notification: " + verdict.reason);
    return nullptr;
  }
  RouteResult routed = router_.route(incoming.method, incoming.params);
  switch (routed.status) {
    case RouteResult::Status::kOk:
      return std::move(routed.result);
    case RouteResult::Status::kUnknownMethod:
    case RouteResult::Status::kNoHandler:
      throw RpcError(jsonrpc_code::kMethodNotFound, "Method not found: " + incoming.method);
    case RouteResult::Status::kInvalidParams:
      if (!incoming.is_request()) app_.on_report(id_, "invalid notification: " + routed.error);
      throw make_error(sn::ErrorCode::kInvalidParams, "Invalid params: " + routed.error);
  }
  return nullptr;
}

}  // namespace rpckit::streamnook
