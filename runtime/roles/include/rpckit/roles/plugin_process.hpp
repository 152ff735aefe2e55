#pragma once
// PluginProcess: one plugin inside a host, for any protocol: the protocol-agnostic half of
// the host role. A control thread owns the Supervisor and executes its actions; a sender
// thread writes queued events and lifecycle requests in order (a plugin that stops reading
// blocks only its own sender, never the control thread or another plugin); each process
// generation has its own Connection (child process, endpoint, waiter thread), and what
// arrives from an older generation is ignored, so a restart is never confused by the process
// before it. No thread waits for an answer: lifecycle calls complete asynchronously.
//
// What is protocol-specific comes in as a Lifecycle (host_role.hpp builds one from a
// generated Profile) and an incoming-message handler; what the host application wants to
// know goes out through an Observer.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "rpckit/endpoint/endpoint.hpp"
#include "rpckit/framing/framing.hpp"
#include "rpckit/process/child_process.hpp"
#include "rpckit/roles/connection_rules.hpp"
#include "rpckit/roles/lifecycle_event.hpp"
#include "rpckit/supervision/supervisor.hpp"
#include "rpckit/values/json_value.hpp"

namespace rpckit::roles {

namespace detail {
class Outbox;
}  // namespace detail

// How a handshake ended, as the protocol layer judges its answer.
struct HandshakeOutcome {
  enum class Kind {
    kAccepted,  // running from now on
    kRefused,   // a failure (restart with backoff), or `permanent` (disabled)
    kUnsettled, // no answer (timeout, exit): the supervisor's own timers decide
  };
  Kind kind = Kind::kAccepted;
  std::string detail;
  bool permanent = false;
};

class PluginProcess {
 public:
  using Done = std::function<void()>;
  // The protocol's lifecycle messages. Each sender writes on the endpoint it is given and
  // calls its completion once (from any thread); an empty function: the protocol has none.
  struct Lifecycle {
    std::function<void(Endpoint&, supervision::Duration, std::function<void(HandshakeOutcome)>)>
        handshake;
    std::function<void(Endpoint&)> handshake_done;
    std::function<void(Endpoint&, supervision::Duration, std::function<void(bool answered)>)>
        health_check;  // none: the plugin counts as healthy
    std::function<void(Endpoint&, supervision::Duration, Done)> shutdown;  // none: exit next
    std::function<void(Endpoint&)> exit;  // none: the stop sequence has no exit step
  };
  struct Settings {
    std::string id;
    process::SpawnOptions spawn;
    ConnectionRules connection;  // the spawner's side of the profile
    supervision::Policy policy;
    // The deadline of a call whose message names none (see Endpoint::Options).
    std::optional<supervision::Duration> default_deadline;
    // Events waiting for a plugin that is slow to read; beyond this they are dropped (and
    // reported) rather than letting one plugin hold memory or delay the others.
    std::size_t max_queued_events = 1024;
  };
  struct Observer {
    std::function<void(const LifecycleEvent&)> lifecycle;
    std::function<void(std::string_view what)> report;
    // What the endpoint noticed about the plugin (a line dropped as not JSON or over the
    // cap, a stray answer, ...), by kind; `report` gets the same as text.
    std::function<void(const Diagnostic&)> diagnostic;
    std::function<void(bool outgoing, std::string_view body)> frame;
  };

  PluginProcess(Settings settings, Lifecycle lifecycle, Endpoint::Handler incoming,
                Observer observer);
  ~PluginProcess();
  PluginProcess(const PluginProcess&) = delete;
  PluginProcess& operator=(const PluginProcess&) = delete;

  const std::string& id() const { return settings_.id; }
  void start();
  void stop();  // blocks until stopped or disabled
  // Gives up on the plugin (killed if it runs) until start() again: for failures the
  // application counts itself (e.g. failed initializations in a window). Does not block.
  void disable(std::string reason);
  supervision::State state() const;

  // Queues a notification if the plugin is running (handshake done); false if dropped (a
  // full queue is reported).
  bool enqueue(std::string_view method, const JsonValue& params);
  // The same with the params already JSON text, shared: a host fanning one event out to many
  // plugins encodes it once and every plugin's queue holds the same text.
  bool enqueue_encoded(std::string_view method, std::shared_ptr<const std::string> params_json);
  // The endpoint of the running process (handshake done), or nullptr.
  std::shared_ptr<Endpoint> running_endpoint() const;
  // Runs `job` on the sender thread (in order with the writes) once `delay` has passed; a job
  // still waiting when the PluginProcess ends is dropped. For deadlines on deferred replies.
  void after(supervision::Duration delay, std::function<void()> job);

 private:
  struct Connection;  // one process generation: plugin_connection.hpp

  // The supervisor's driver, on the control thread (plugin_process.cpp).
  void control_loop();
  void post(std::function<void()> task);
  void execute(const std::vector<supervision::Action>& actions);
  void publish_state();  // state() follows the supervisor; done before any observer is told
  void report(LifecycleEvent::Kind kind, supervision::StopCause cause, std::string detail,
              supervision::Duration delay = supervision::Duration{0});
  // Runs `fn` on a short-lived thread, for what must not block the control thread.
  void run_async(std::function<void()> fn);
  // The lifecycle messages, written by the outbox in order, answered asynchronously.
  void send_handshake();
  void handshake_done(std::uint64_t generation, const HandshakeOutcome& outcome);
  void send_health_check();
  void send_shutdown();

  // The process and its connection (plugin_connection.cpp).
  void spawn();
  void on_exited(std::uint64_t generation, supervision::ExitStatus status);
  void retire_connection();
  std::shared_ptr<Connection> connection() const;
  void end_stdin(const Connection& conn);  // the stop sequence's close_stdin

  Settings settings_;
  Lifecycle lifecycle_;
  Endpoint::Handler incoming_;
  Observer observer_;

  supervision::Supervisor supervisor_;  // control thread only

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  bool quit_ = false;
  std::uint64_t stops_requested_ = 0;  // stop() tickets handed out
  std::uint64_t stops_done_ = 0;       // the highest ticket whose stop has been executed
  std::shared_ptr<Connection> connection_;
  std::uint64_t generation_ = 0;
  // Mirrors for other threads: state_ is published before observers are told of an event (so
  // they read what it announces); settled_state_ once a whole batch of actions is done (stop()
  // returns only after the observers of the final kStopped have run).
  supervision::State state_ = supervision::State::kIdle;
  supervision::State settled_state_ = supervision::State::kIdle;
  std::multimap<supervision::TimePoint, std::function<void()>> timers_;  // after()
  std::list<std::future<void>> async_;

  std::unique_ptr<detail::Outbox> outbox_;  // the sender thread; events while running
  std::thread control_thread_;
};

}  // namespace rpckit::roles
