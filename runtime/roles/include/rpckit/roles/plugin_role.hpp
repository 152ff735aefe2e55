#pragma once
// PluginRole<Protocol>: the plugin role of any generated protocol (`Protocol` is the
// module's `Protocol` traits in <module>/roles.hpp: its Profile, its two directions and its
// role surfaces). Everything it knows of the protocol comes from those traits:
//
//   struct Worker : demo::tasks::WorkerHandler<Session> { ... only the application's ... };
//   rpckit::roles::PluginRole<demo::tasks::Protocol> role;
//   role.bind(worker, session);     // the generated handler, one call
//   return role.run();              // stdin/stdout, the profile's framing and limits
//
// The role answers the health check, shutdown and exit itself (see PluginSession), holds
// events while a handler waits on the host, and gates what the plugin sends (client()) by
// the grant the handshake carried. Handlers registered after bind() replace bound ones.
#include <string_view>
#include <type_traits>
#include <utility>

#include "rpckit/descriptors/profile.hpp"
#include "rpckit/dispatch/router.hpp"
#include "rpckit/roles/bind.hpp"
#include "rpckit/roles/caller.hpp"
#include "rpckit/roles/incoming_gate.hpp"
#include "rpckit/roles/plugin_session.hpp"
#include "rpckit/roles/route.hpp"

namespace rpckit::roles {

namespace detail {

template <class M>
std::string method_of() {
  if constexpr (std::is_same_v<M, NoMessage>) {
    return {};
  } else {
    return std::string(M::kMethod);
  }
}

// The default answer of request M (the health check's and shutdown's results carry nothing).
template <class M>
JsonValue default_result() {
  if constexpr (std::is_same_v<M, NoMessage>) {
    return JsonValue();
  } else {  // nested: M::kKind does not exist for NoMessage
    if constexpr (M::kKind == MessageKind::kRequest) return codec::encode(typename M::Result{});
    return JsonValue();
  }
}

// Checks the params of request M as its handler's router would (-32602 naming the path), for
// a request the session answers itself (the health check).
template <class M>
void check_params(const LazyJson& params) {
  try {
    (void)decode_params<M>(params);
  } catch (const codec::DecodeError& e) {
    throw RpcError(jsonrpc_code::kInvalidParams,
                   "Invalid params: " + std::string(M::kMethod) + ": " + e.what());
  }
}

// The plugin's own check of what it receives in direction Inbound (profile gate_on_receipt).
template <class Profile, class Inbound>
void receipt_check(std::string_view method, const LazyJson& params, const nlohmann::json& own) {
  roles::refuse_undeclared<Inbound>(Profile::kGateOnReceipt, method, params, own);
}

// `Inbound` (the direction the plugin receives in) lets the session refuse what the plugin's
// own declarations do not allow; without it (void) nothing is refused by them.
template <class Profile, class Inbound = void>
PluginSettings plugin_settings() {
  PluginSettings s;
  s.connection = connection_rules<Profile>(Side::kSpawned);
  s.lifecycle.handshake = method_of<typename Profile::Handshake>();
  s.lifecycle.handshake_done = method_of<typename Profile::HandshakeDone>();
  s.lifecycle.health_check = method_of<typename Profile::HealthCheck>();
  s.lifecycle.shutdown = method_of<typename Profile::Shutdown>();
  s.lifecycle.exit = method_of<typename Profile::Exit>();
  s.lifecycle.health_check_result = default_result<typename Profile::HealthCheck>();
  if constexpr (!std::is_same_v<typename Profile::HealthCheck, NoMessage>) {
    s.lifecycle.health_check_params = &check_params<typename Profile::HealthCheck>;
  }
  s.lifecycle.shutdown_result = default_result<typename Profile::Shutdown>();
  s.lifecycle.grant_member = std::string(Profile::kGrantMember);
  s.lifecycle.declared_member = std::string(Profile::kResultGrantMember);
  if constexpr (!std::is_void_v<Inbound>) {
    if constexpr (Profile::kGateOnReceipt.checked()) {
      s.lifecycle.refuse_undeclared = &receipt_check<Profile, Inbound>;
    }
  }
  s.lifecycle.before_handshake_done = Profile::kBeforeHandshakeDone;
  s.lifecycle.after_shutdown = Profile::kAfterShutdown;
  s.lifecycle.stops_on_sigterm = Profile::kStopsOnSigterm;
  s.lifecycle.stops_on_stdin_eof = Profile::kStopsOnStdinEof;
  return s;
}

// The client of a protocol whose spawned role sends nothing (a host that only calls, like
// Codex metadata plugins): there is nothing to call.
class NoClient {
 public:
  explicit NoClient(Caller&) noexcept {}
};

template <class Protocol, class = void>
struct spawner_client {
  using type = NoClient;
};
template <class Protocol>
struct spawner_client<Protocol, std::void_t<typename Protocol::SpawnerClient>> {
  using type = typename Protocol::SpawnerClient;
};

}  // namespace detail

template <class Protocol>
class PluginRole {
 public:
  using Profile = typename Protocol::Profile;
  using Inbound = typename Protocol::ToSpawned;
  // The spawning side's messages; NoClient when the protocol has none.
  using HostClient = typename detail::spawner_client<Protocol>::type;

  // `denial` makes the error a request outside the grant fails with locally.
  explicit PluginRole(Caller::Denial denial = nullptr)
      : caller_(denial),
        client_(caller_),
        session_(
            detail::plugin_settings<Profile, Inbound>(),
            [this](const std::string& method, const LazyJson& params) {
              return route_or_throw(router_, method, params);
            },
            caller_) {}
  PluginRole(const PluginRole&) = delete;
  PluginRole& operator=(const PluginRole&) = delete;

  // Routes every message the plugin receives to `handler` (a generated <Role>Handler).
  template <class Handler, class Context>
  PluginRole& bind(Handler& handler, Context& context) {
    detail::bind_generated(router_, handler, context);
    return *this;
  }

  Router<Inbound>& router() { return router_; }
  // The host's messages, typed and gated; usable from any thread once the handshake is done.
  const HostClient& client() const { return client_; }
  Caller& caller() { return caller_; }
  PluginSession& session() { return session_; }

  int run() { return session_.run(); }
  int serve(std::unique_ptr<framing::FrameReader> reader,
            std::unique_ptr<framing::FrameWriter> writer, Endpoint::Options options = {}) {
    return session_.serve(std::move(reader), std::move(writer), std::move(options));
  }

 private:
  Router<Inbound> router_;
  Caller caller_;
  HostClient client_;
  PluginSession session_;
};

}  // namespace rpckit::roles
