#pragma once
// PluginMethods: the plugin's own methods (spec section 2, "plugin-defined", e.g.
// "your/custom/method"). The schema leaves them to each plugin, so the generated Router cannot
// hold them (Router::on<M>() takes only messages of its direction). They are looked up first;
// every other method goes to the generated router as PluginRole would route it.
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "rpckit/dispatch/router.hpp"
#include "rpckit/roles/plugin_session.hpp"
#include "rpckit/roles/route.hpp"

namespace desktop_sample {

class PluginMethods {
 public:
  // A request's result, or throws rpckit::RpcError. `params` is null when absent.
  using Method = std::function<rpckit::JsonValue(const nlohmann::json* params)>;

  void add(std::string name, Method method) { methods_[std::move(name)] = std::move(method); }

  // The session's route: a plugin-defined method, else the generated router. Both this and
  // `router` must outlive the session.
  template <class Direction>
  rpckit::roles::PluginSession::Route route(const rpckit::Router<Direction>& router) const {
    return [this, &router](const std::string& method, const nlohmann::json* params) {
      if (auto it = methods_.find(method); it != methods_.end()) return it->second(params);
      return rpckit::roles::route_or_throw(router, method, params);
    };
  }

 private:
  std::map<std::string, Method, std::less<>> methods_;
};

}  // namespace desktop_sample
