#include "session_policy.hpp"

#include <exception>
#include <string>

#include <nlohmann/json.hpp>

#include "rpckit/roles/plugin_role.hpp"
#include "rpckit/roles/route.hpp"

namespace loaf_server {

namespace v1 = loaf::v1;
using rpckit::JsonValue;
using rpckit::RpcError;

namespace {

// Methods whose params the spec marks "ignored": the descriptors' kOptionalOmit.
template <class... M>
bool ignores_params_in(std::string_view method, rpckit::MessageList<M...>*) {
  return ((M::kMethod == method && M::kParamsPresence == rpckit::ParamsPresence::kOptionalOmit) ||
          ...);
}
bool ignores_params(std::string_view method) {
  return ignores_params_in(method, static_cast<v1::ClientToServer::Messages*>(nullptr));
}

// "params.session_id: expected string" -> "session_id"; "params: ..." -> "".
std::string field_of(const std::string& message) {
  auto at = message.find("params.");
  if (at == std::string::npos) return {};
  std::string rest = message.substr(at + 7);
  return rest.substr(0, rest.find_first_of(".[: "));
}

// The members of the spec's data the runtime cannot know (it adds `reason` to the rest).
RpcError with_members(const RpcError& e, std::string_view method) {
  if (e.data()) return e;
  if (e.code() == rpckit::jsonrpc_code::kMethodNotFound) {
    return RpcError(e.code(), e.message(),
                    JsonValue(nlohmann::json{{"reason", "method_not_found"},
                                             {"method", std::string(method)}}));
  }
  if (e.code() == rpckit::jsonrpc_code::kInvalidParams) {
    if (std::string field = field_of(e.message()); !field.empty()) {
      return RpcError(e.code(), e.message(),
                      JsonValue(nlohmann::json{{"reason", "invalid_params"}, {"field", field}}));
    }
  }
  return e;
}

}  // namespace

rpckit::roles::PluginSettings plugin_settings() {
  auto s = rpckit::roles::detail::plugin_settings<v1::Profile>();
  s.lifecycle.health_check.clear();  // its result carries the current time
  s.lifecycle.shutdown.clear();      // it echoes a reason and emits state.changed first
  return s;
}

rpckit::roles::PluginSession::Route loaf_route(const rpckit::Router<v1::ClientToServer>& router) {
  return [&router](const std::string& method, const rpckit::LazyJson& params) -> JsonValue {
    try {
      return rpckit::roles::route_or_throw(router, method,
                                           ignores_params(method) ? rpckit::LazyJson() : params);
    } catch (const RpcError& e) {
      throw with_members(e, method);
    } catch (const std::exception& e) {
      throw RpcError(rpckit::jsonrpc_code::kInternalError, e.what());
    }
  };
}

}  // namespace loaf_server
