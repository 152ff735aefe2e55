#pragma once
// The host role's protocol half, built from a generated Profile: the lifecycle messages a
// PluginProcess sends (health check, shutdown, exit, handshake done) and the handshake,
// whose params and verdict are the protocol layer's or the application's:
//
//   auto lifecycle = rpckit::roles::host_lifecycle<demo::tasks::Protocol>(
//       [] { return demo::tasks::OpenParams{...}; },
//       [](const rpckit::Result<demo::tasks::OpenResult>& r) { return accept_if_ok(r); });
//   rpckit::roles::PluginProcess plugin(
//       rpckit::roles::process_settings<demo::tasks::Protocol>(id, spawn, policy),
//       std::move(lifecycle), handler, observer);
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "rpckit/codec/value_codec.hpp"
#include "rpckit/descriptors/profile.hpp"
#include "rpckit/endpoint/typed.hpp"
#include "rpckit/roles/connection_rules.hpp"
#include "rpckit/roles/plugin_process.hpp"
#include "rpckit/roles/version_check.hpp"

namespace rpckit::roles {

// The handshake verdict most protocols need: accepted when answered, refused with the error
// otherwise, or with a result outside the schema (permanent when `permanent(error)` says so),
// unsettled on a timeout or an exit.
template <class Result>
HandshakeOutcome judge_handshake(const rpckit::Result<Result>& result,
                                 const std::function<bool(const RpcError&)>& permanent = {}) {
  if (result.ok()) return {HandshakeOutcome::Kind::kAccepted, {}, false};
  const CallError& e = result.error();
  if (e.kind != CallError::Kind::kRemote && e.kind != CallError::Kind::kInvalidResult) {
    return {HandshakeOutcome::Kind::kUnsettled, {}, false};
  }
  return {HandshakeOutcome::Kind::kRefused, e.describe(), permanent && permanent(e.error)};
}

// The lifecycle of Protocol's spawned role as its profile names it. `params` makes the
// handshake's params for each process generation; `judge` turns its answer into an outcome,
// once the profile's version check (kVersionCheck) has passed it;
// `shutdown_answered`, when set, hears how the shutdown request ended (nullopt: answered).
template <class Protocol>
PluginProcess::Lifecycle host_lifecycle(
    std::function<typename Protocol::Profile::Handshake::Params()> params,
    std::function<HandshakeOutcome(const Result<typename Protocol::Profile::Handshake::Result>&)>
        judge,
    std::function<void(const std::optional<CallError>&)> shutdown_answered = {}) {
  using Profile = typename Protocol::Profile;
  using Handshake = typename Profile::Handshake;
  PluginProcess::Lifecycle life;
  life.handshake = [params = std::move(params), judge = std::move(judge)](
                       Endpoint& endpoint, supervision::Duration deadline,
                       std::function<void(HandshakeOutcome)> done) {
    rpckit::call_async<Handshake>(
        endpoint, params(),
        [judge, done = std::move(done)](const Result<typename Handshake::Result>& result) {
          if constexpr (!Profile::kVersionCheck.member.empty()) {
            if (result.ok()) {
              if (auto refused =
                      check_version(Profile::kVersionCheck, codec::encode(result.value()).get())) {
                done(*std::move(refused));
                return;
              }
            }
          }
          done(judge(result));
        },
        deadline);
  };
  if constexpr (!std::is_same_v<typename Profile::HandshakeDone, NoMessage>) {
    life.handshake_done = [](Endpoint& endpoint) {
      rpckit::notify<typename Profile::HandshakeDone>(endpoint, {});
    };
  }
  if constexpr (!std::is_same_v<typename Profile::HealthCheck, NoMessage>) {
    using Check = typename Profile::HealthCheck;
    life.health_check = [](Endpoint& endpoint, supervision::Duration deadline,
                           std::function<void(bool)> done) {
      rpckit::call_async<Check>(
          endpoint, {},
          [done = std::move(done)](const Result<typename Check::Result>& r) { done(r.ok()); },
          deadline);
    };
  }
  if constexpr (!std::is_same_v<typename Profile::Shutdown, NoMessage>) {
    using Shutdown = typename Profile::Shutdown;
    life.shutdown = [shutdown_answered = std::move(shutdown_answered)](
                        Endpoint& endpoint, supervision::Duration deadline,
                        PluginProcess::Done done) {
      rpckit::call_async<Shutdown>(
          endpoint, {},
          [shutdown_answered, done = std::move(done)](const Result<typename Shutdown::Result>& r) {
            if (shutdown_answered) {
              shutdown_answered(r.ok() ? std::nullopt : std::optional<CallError>(r.error()));
            }
            done();
          },
          deadline);
    };
  }
  if constexpr (!std::is_same_v<typename Profile::Exit, NoMessage>) {
    life.exit = [](Endpoint& endpoint) { rpckit::notify<typename Profile::Exit>(endpoint, {}); };
  }
  return life;
}

// The supervisor's policy as Protocol's profile states it: every timer ("timings"; none where
// the profile says none) and the stop sequence, every duration multiplied by `time_scale`.
template <class Protocol>
supervision::Policy lifecycle_policy(double time_scale = 1.0) {
  using Profile = typename Protocol::Profile;
  supervision::Policy p;
  p.handshake_timeout = Profile::kHandshakeTimeout;
  p.handshake_failure_exit_wait = Profile::kHandshakeFailureExitWait;
  p.handshake_failure_stops = Profile::kHandshakeFailureStops;
  p.health_check_interval = Profile::kHealthCheckInterval;
  p.health_check_misses = Profile::kHealthCheckMisses;
  p.restart_backoff.assign(Profile::kRestartBackoff.begin(), Profile::kRestartBackoff.end());
  p.restart_window = Profile::kRestartWindow;
  p.max_restarts_in_window = Profile::kRestartsInWindow;
  p.shutdown_timeout = Profile::kShutdownTimeout;
  p.stop.assign(Profile::kStop.begin(), Profile::kStop.end());
  return p.scaled(time_scale);
}

// What a PluginProcess takes from Protocol's profile: the spawner's connection rules.
template <class Protocol>
PluginProcess::Settings process_settings(std::string id, process::SpawnOptions spawn,
                                         supervision::Policy policy) {
  using Profile = typename Protocol::Profile;
  PluginProcess::Settings s;
  s.id = std::move(id);
  s.spawn = std::move(spawn);
  s.connection = connection_rules<Profile>(Side::kSpawner);
  s.policy = std::move(policy);
  return s;
}

}  // namespace rpckit::roles
