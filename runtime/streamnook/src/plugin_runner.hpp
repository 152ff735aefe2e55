#pragma once
// PluginRunner: one plugin inside the host. A control thread owns the Supervisor and executes
// its actions; a sender thread delivers queued events; each process generation has its own
// Connection (child process, endpoint, waiter thread). Results that arrive from an older
// generation are ignored, so a restart can never be confused by the process before it.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "rpckit/dispatch/router.hpp"
#include "rpckit/endpoint/endpoint.hpp"
#include "rpckit/framing/fd_io.hpp"
#include "rpckit/framing/interruptible_fd_source.hpp"
#include "rpckit/process/child_process.hpp"
#include "rpckit/streamnook/host.hpp"
#include "streamnook_v1/dispatch.hpp"
#include "streamnook_v1/profile.hpp"

namespace rpckit::streamnook {

class PluginRunner {
 public:
  PluginRunner(HostApplication& app, const HostOptions& options, LoadedManifest manifest,
               sn::Granted granted);
  ~PluginRunner();

  const std::string& id() const { return id_; }
  const sn::Granted& granted() const { return granted_; }
  void start();
  void stop();  // blocks until stopped or disabled
  supervision::State state() const;
  std::vector<std::string> hooks() const;

  // Queues an event if the plugin is running and hooked it; false if dropped.
  bool enqueue_event(std::string_view method, std::span<const GateClause> gate,
                     const nlohmann::json& params);
  Result<JsonValue> invoke_action(const std::string& action, const JsonValue& args);

 private:
  struct Connection {
    ~Connection();  // kills the process if alive, closes the endpoint, joins the waiter
    std::uint64_t generation = 0;
    std::unique_ptr<process::ChildProcess> child;
    std::unique_ptr<framing::InterruptibleFdSource> source;
    std::unique_ptr<framing::FdSink> sink;
    std::unique_ptr<Endpoint> endpoint;
    std::thread waiter;
  };

  // Control thread.
  void control_loop();
  void post(std::function<void()> task);
  void execute(std::vector<supervision::Action> actions);
  void spawn();
  void send_initialize();
  void handshake_result(std::uint64_t generation, Result<sn::InitializeResult> result);
  void send_ping();
  void send_shutdown();
  void on_exited(std::uint64_t generation, supervision::ExitStatus status);
  void retire_connection();
  void report(LifecycleEvent::Kind kind, supervision::StopCause cause, std::string detail,
              supervision::Duration delay = supervision::Duration{0});
  // Runs `fn` on a short-lived thread (a call that waits for the plugin must not block the
  // control thread).
  void run_async(std::function<void()> fn);
  // Runs `job` (which writes to the connection) on the sender thread, ahead of queued events.
  void write_in_order(std::function<void()> job);
  std::shared_ptr<Connection> connection() const;

  // Incoming plugin-to-host messages: gate first, then the application.
  nlohmann::json handle(const Incoming& incoming);
  void register_host_methods();

  // Sender thread.
  void send_loop();

  HostApplication& app_;
  HostOptions options_;
  supervision::Policy policy_;
  LoadedManifest manifest_;
  std::string id_;
  sn::Granted granted_;
  nlohmann::json granted_json_;
  PluginContext context_;
  Router<sn::PluginToHost> router_;

  supervision::Supervisor supervisor_;  // control thread only

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  bool quit_ = false;
  std::uint64_t stops_requested_ = 0;  // stop() tickets handed out
  std::uint64_t stops_done_ = 0;       // the highest ticket whose stop has been executed
  std::shared_ptr<Connection> connection_;
  std::uint64_t generation_ = 0;
  bool accepting_events_ = false;
  std::vector<std::string> hooks_;
  supervision::State state_ = supervision::State::kIdle;  // mirror for other threads
  std::deque<std::pair<std::string, nlohmann::json>> events_;
  std::deque<std::function<void()>> writes_;  // lifecycle requests for the sender thread
  std::list<std::future<void>> async_;

  std::thread control_thread_;
  std::thread sender_thread_;
};

}  // namespace rpckit::streamnook
