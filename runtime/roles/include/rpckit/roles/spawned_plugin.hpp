#pragma once
// SpawnedPlugin<Protocol>: the host role of any generated protocol for one plugin, as short to
// use as the plugin role:
//
//   rpckit::roles::SpawnedPlugin<echo::Protocol> plugin({.id = "echo", .command = {"./worker"}});
//   plugin.bind(host_app, session);             // what the plugin may call on the host
//   if (!plugin.start()) return fail(plugin.stop_reason()->detail);  // "cannot execute ..."
//   auto echoed = plugin.client().echo({.text = "hi"});  // the generated client, typed
//   plugin.stop();                              // the profile's stop sequence
//
// Several plugins: a PluginRegistry<SpawnedPlugin<P>> finds, visits and stops them (stop_all:
// all at once).
//
// Underneath is a PluginProcess: spawn, handshake, health checks, restarts and the stop
// sequence are all the profile's. What a host wants to know is kept: the handshake's answer,
// the first time the plugin went down (its cause and detail), the endpoint's diagnostics (lines
// not JSON, over the cap, stray answers), and, with a Transcript, every frame and event.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "rpckit/dispatch/router.hpp"
#include "rpckit/process/find_executable.hpp"
#include "rpckit/roles/bind.hpp"
#include "rpckit/roles/caller.hpp"
#include "rpckit/roles/host_role.hpp"
#include "rpckit/roles/incoming_gate.hpp"
#include "rpckit/roles/route.hpp"
#include "rpckit/roles/transcript.hpp"

namespace rpckit::roles {

// Why a plugin is not running: the supervisor's cause and what it said.
struct StopReason {
  supervision::StopCause cause = supervision::StopCause::kRequested;
  std::string detail;
};

// The spawn options of a command line: the executable looked up on PATH when it has no '/'
// (as a shell would); one found nowhere is kept as given, so the spawn fails saying why.
inline process::SpawnOptions spawn_command(const std::vector<std::string>& command) {
  process::SpawnOptions spawn;
  if (command.empty()) return spawn;
  std::string unresolved;
  spawn.executable =
      process::resolve_command(command.front(), &unresolved).value_or(command.front());
  spawn.args.assign(command.begin() + 1, command.end());
  return spawn;
}

namespace detail {
// The direction the plugin sends in; a protocol whose plugins send nothing (Codex metadata
// plugins) has none, and every request from such a plugin is answered -32601.
struct NoDirection {};
template <class Protocol, class = void>
struct to_spawner {
  using type = NoDirection;
};
template <class Protocol>
struct to_spawner<Protocol, std::void_t<typename Protocol::ToSpawner>> {
  using type = typename Protocol::ToSpawner;
};
}  // namespace detail

template <class Protocol>
class SpawnedPlugin {
 public:
  using Profile = typename Protocol::Profile;
  using Handshake = typename Profile::Handshake;
  using HandshakeResult = typename Handshake::Result;
  using Client = typename Protocol::SpawnedClient;
  using ToSpawner = typename detail::to_spawner<Protocol>::type;
  static constexpr bool kPluginSends = !std::is_same_v<ToSpawner, detail::NoDirection>;

  struct Options {
    std::string id = "plugin";
    std::vector<std::string> command{};  // the plugin's executable and arguments
    // Everything else of the spawn (working dir, environment, stderr log); `command` fills in
    // executable and args when given.
    process::SpawnOptions spawn{};
    // Multiplies every timer of the profile (tests and demos run the same policy faster).
    double time_scale = 1.0;
    // The supervisor's policy, when not the profile's scaled by time_scale.
    std::optional<supervision::Policy> policy{};
    // The handshake's params (default: default-constructed) and what its answer means
    // (default: judge_handshake: accepted when answered).
    std::function<typename Handshake::Params()> handshake_params{};
    std::function<HandshakeOutcome(const Result<HandshakeResult>&)> judge{};
    // Hears how the shutdown request of the stop sequence ended (nullopt: answered).
    std::function<void(const std::optional<CallError>&)> shutdown_answered{};
    // What gated messages to the plugin are checked against (the grant it was given).
    std::optional<JsonValue> grant{};
    // Events waiting for a plugin that is slow to read, beyond which they are dropped.
    std::size_t max_queued_events = 1024;
    Transcript* transcript = nullptr;  // every frame and lifecycle event, when set
  };

  explicit SpawnedPlugin(Options options) : options_(std::move(options)) {
    if (options_.grant) caller_.set_grant(options_.grant);
  }
  ~SpawnedPlugin() { stop(); }
  SpawnedPlugin(const SpawnedPlugin&) = delete;
  SpawnedPlugin& operator=(const SpawnedPlugin&) = delete;

  // Routes what the plugin sends to `handler` (a generated <Role>Handler); before start().
  template <class Handler, class Context>
    requires kPluginSends
  SpawnedPlugin& bind(Handler& handler, Context& context) {
    detail::bind_generated(router_, handler, context);
    return *this;
  }
  auto& router()
    requires kPluginSends
  {
    return router_;
  }
  // Observers, added before start() (each one added runs, in order): every lifecycle event,
  // and what the endpoint noticed.
  void on_lifecycle(std::function<void(const LifecycleEvent&)> observer) {
    lifecycle_observers_.push_back(std::move(observer));
  }
  void on_diagnostic(std::function<void(const Diagnostic&)> observer) {
    diagnostic_observers_.push_back(std::move(observer));
  }

  // Starts the plugin and waits until it runs (the handshake done) or goes down; `limit`
  // bounds the wait (default: the handshake timeout and ten seconds more, or for ever when
  // the profile sets none). True when running; otherwise stop_reason() says why.
  bool start(std::optional<std::chrono::milliseconds> limit = std::nullopt) {
    if (!process_) create();
    // Counted before the launch: a launch failure may be reported before start() returns.
    const std::uint64_t downs = down_count();
    process_->start();
    return wait_running_since(downs, limit);
  }
  // Waits until it runs, or goes down after this call began (a restart may follow).
  bool wait_running(std::optional<std::chrono::milliseconds> limit = std::nullopt) {
    return wait_running_since(down_count(), limit);
  }

  // The plugin's messages, typed and gated; calls fail with kDisconnected while it is down.
  const Client& client() const { return client_; }
  Caller& caller() { return caller_; }
  // The running process's endpoint, or nullptr.
  std::shared_ptr<Endpoint> endpoint() const {
    return process_ ? process_->running_endpoint() : nullptr;
  }
  std::optional<HandshakeResult> handshake_result() const {
    std::lock_guard lock(mutex_);
    return handshake_;
  }
  // The first time the plugin went down on its own (launch failure, failed handshake, crash,
  // ...), or nullopt.
  std::optional<StopReason> stop_reason() const {
    std::lock_guard lock(mutex_);
    return first_down_;
  }
  supervision::State state() const {
    return process_ ? process_->state() : supervision::State::kIdle;
  }
  PluginProcess* process() { return process_.get(); }

  // Stops it with the profile's stop sequence; blocks until it has stopped.
  void stop() {
    if (!process_) return;
    process_->stop();
    caller_.attach(nullptr);
    std::lock_guard lock(mutex_);
    attached_.reset();
  }

 private:
  Endpoint::Handler incoming() {
    if constexpr (kPluginSends && Profile::kGateOnReceipt.checked()) {
      // What the plugin asks of this side is checked against what this side declared of
      // itself in the handshake (MCP: a client without `roots` answers roots/list -32601),
      // and a refusal is reported: the plugin broke the protocol.
      return [this](const Incoming& incoming) -> JsonValue {
        if (std::shared_ptr<const JsonValue> own = own_declarations()) {
          try {
            refuse_undeclared<ToSpawner>(Profile::kGateOnReceipt, incoming.method, incoming.params,
                                         own->get());
          } catch (const RpcError& e) {
            const Diagnostic refused{Diagnostic::Kind::kUndeclared, e.message()};
            for (const auto& observe : diagnostic_observers_) observe(refused);
            throw;
          }
        }
        return route_or_throw(router_, incoming.method, incoming.params);
      };
    } else if constexpr (kPluginSends) {
      return route_through(router_);
    } else {
      return [](const Incoming& incoming) -> JsonValue {
        throw RpcError(jsonrpc_code::kMethodNotFound, "Method not found: " + incoming.method);
      };
    }
  }

  std::chrono::milliseconds default_wait() const {
    const supervision::Policy p = policy();
    if (!p.handshake_timeout) return std::chrono::hours(24 * 365);
    return *p.handshake_timeout + std::chrono::seconds(10);
  }
  supervision::Policy policy() const {
    return options_.policy.value_or(lifecycle_policy<Protocol>(options_.time_scale));
  }

  // A protocol whose handshake answer says what the spawner may send (MCP: the server's
  // capabilities) gates the spawner's calls by it from then on, and by what the spawner
  // declared of itself in the handshake's params (sender-capability clauses: MCP's client
  // sends notifications/roots/list_changed only if it declared roots.listChanged).
  void adopt_result_grant(const HandshakeResult& result) {
    if constexpr (!Profile::kResultGrantMember.empty()) {
      JsonValue encoded = codec::encode(result);
      const auto it = encoded.get().find(std::string(Profile::kResultGrantMember));
      std::shared_ptr<const JsonValue> own = own_declarations();
      caller_.set_grant(
          it != encoded.get().end() ? JsonValue(*it) : JsonValue(nlohmann::json::object()),
          own ? std::optional<JsonValue>(*own) : std::nullopt);
    }
  }

  // What the spawner declares of itself: the grant member of the handshake's params it sends.
  void remember_declared(const typename Handshake::Params& params) {
    if constexpr (!Profile::kGrantMember.empty() &&
                  (!Profile::kResultGrantMember.empty() || Profile::kGateOnReceipt.checked())) {
      JsonValue encoded = codec::encode(params);
      const auto it = encoded.get().find(std::string(Profile::kGrantMember));
      auto own = std::make_shared<const JsonValue>(
          it != encoded.get().end() ? JsonValue(*it) : JsonValue(nlohmann::json::object()));
      std::lock_guard lock(mutex_);
      declared_ = std::move(own);
    }
  }
  std::shared_ptr<const JsonValue> own_declarations() const {
    std::lock_guard lock(mutex_);
    return declared_;
  }

  void create() {
    auto params = [this, make = options_.handshake_params] {
      typename Handshake::Params p = make ? make() : typename Handshake::Params{};
      remember_declared(p);
      return p;
    };
    auto judge = options_.judge ? options_.judge
                                : std::function<HandshakeOutcome(const Result<HandshakeResult>&)>(
                                      [](const Result<HandshakeResult>& r) {
                                        return judge_handshake(r);
                                      });
    auto lifecycle = host_lifecycle<Protocol>(
        std::move(params), [this, judge = std::move(judge)](const Result<HandshakeResult>& r) {
          if (r.ok()) {
            {
              std::lock_guard lock(mutex_);
              handshake_ = r.value();
            }
            adopt_result_grant(r.value());
          }
          return judge(r);
        },
        options_.shutdown_answered);
    PluginProcess::Observer observer;
    observer.lifecycle = [this](const LifecycleEvent& e) { on_event(e); };
    observer.diagnostic = [this](const Diagnostic& d) {
      for (const auto& observe : diagnostic_observers_) observe(d);
    };
    if (Transcript* t = options_.transcript) {
      observer.frame = [t, id = options_.id](bool out, std::string_view body) {
        t->frame(id, out, body);
      };
      observer.report = [t, id = options_.id](std::string_view what) { t->plugin_says(id, what); };
    }
    process::SpawnOptions spawn = options_.spawn;
    if (!options_.command.empty()) {
      process::SpawnOptions from_command = spawn_command(options_.command);
      spawn.executable = from_command.executable;
      spawn.args = from_command.args;
    }
    auto settings = process_settings<Protocol>(options_.id, std::move(spawn), policy());
    settings.max_queued_events = options_.max_queued_events;
    process_ = std::make_unique<PluginProcess>(std::move(settings), std::move(lifecycle),
                                               incoming(), std::move(observer));
  }

  std::uint64_t down_count() const {
    std::lock_guard lock(mutex_);
    return downs_;
  }
  // Until it runs or has gone down more than `downs` times.
  bool wait_running_since(std::uint64_t downs, std::optional<std::chrono::milliseconds> limit) {
    const auto bound = limit.value_or(default_wait());
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, bound, [&] { return running_ || downs_ != downs; });
    return running_;
  }

  void on_event(const LifecycleEvent& e) {
    if (options_.transcript) options_.transcript->lifecycle(e);
    if (e.kind == LifecycleEvent::Kind::kRunning) {
      // Calls made from now on go to this process; ones still on an older one fail there.
      std::shared_ptr<Endpoint> endpoint = process_->running_endpoint();
      caller_.attach(endpoint.get());
      std::lock_guard lock(mutex_);
      attached_ = std::move(endpoint);
    }
    {
      std::lock_guard lock(mutex_);
      if (e.kind == LifecycleEvent::Kind::kRunning) running_ = true;
      const bool down = e.kind == LifecycleEvent::Kind::kStopped ||
                        e.kind == LifecycleEvent::Kind::kDisabled;
      if (down) {
        running_ = false;
        ++downs_;
        if (!first_down_ && e.cause != supervision::StopCause::kRequested) {
          first_down_ = StopReason{e.cause, e.detail};
        }
      }
    }
    changed_.notify_all();
    for (const auto& observe : lifecycle_observers_) observe(e);
  }

  Options options_;
  std::conditional_t<kPluginSends, Router<ToSpawner>, detail::NoDirection> router_;
  Caller caller_;
  Client client_{caller_};
  std::vector<std::function<void(const LifecycleEvent&)>> lifecycle_observers_;
  std::vector<std::function<void(const Diagnostic&)>> diagnostic_observers_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool running_ = false;
  std::uint64_t downs_ = 0;  // times it went down
  std::optional<HandshakeResult> handshake_;
  // The grant member of the handshake params last sent: what this side declared of itself.
  std::shared_ptr<const JsonValue> declared_;
  std::optional<StopReason> first_down_;
  std::shared_ptr<Endpoint> attached_;  // keeps the endpoint the caller sends on alive

  std::unique_ptr<PluginProcess> process_;  // last: its threads use everything above
};

}  // namespace rpckit::roles
