#include "session_policy.hpp"

#include <exception>
#include <string>

#include "loaf_v1/errors.hpp"
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
  v1::ErrorData data;
  switch (v1::error_code(e)) {
    case v1::ErrorCode::kMethodNotFound:
      data.reason = v1::ErrorReason::kMethodNotFound;
      data.method = std::string(method);
      return v1::make_error(v1::ErrorCode::kMethodNotFound, e.message(), data);
    case v1::ErrorCode::kInvalidParams:
      data.reason = v1::ErrorReason::kInvalidParams;
      data.field = field_of(e.message());
      if (data.field->empty()) return e;  // the params as a whole: no field (section 3)
      return v1::make_error(v1::ErrorCode::kInvalidParams, e.message(), data);
    default: return e;
  }
}

}  // namespace

rpckit::roles::PluginSettings plugin_settings() {
  auto s = rpckit::roles::detail::plugin_settings<v1::Profile>();
  s.lifecycle.health_check.clear();  // its result carries the current time
  // Its shutdown answer echoes a reason and emits state.changed first; the session still
  // ignores every later input line once it is written (section 2).
  s.lifecycle.shutdown_by_route = true;
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
      throw v1::make_error(v1::ErrorCode::kInternalError, e.what());
    }
  };
}

}  // namespace loaf_server
