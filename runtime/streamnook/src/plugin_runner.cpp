#include "plugin_runner.hpp"

#include <algorithm>

#include "rpckit/dispatch/gate.hpp"
#include "rpckit/framing/framing.hpp"
#include "streamnook_v1/constants.hpp"

namespace rpckit::streamnook {

namespace msg = sn::messages;
using supervision::Action;
using supervision::Clock;

namespace {

supervision::Duration scaled(std::chrono::milliseconds d, double factor) {
  return supervision::Duration{
      static_cast<supervision::Duration::rep>(static_cast<double>(d.count()) * factor)};
}

}  // namespace

PluginRunner::Connection::~Connection() {
  if (child) child->kill();
  if (endpoint) endpoint->close();
  if (waiter.joinable()) waiter.join();
  endpoint.reset();
  child.reset();
}

PluginRunner::PluginRunner(HostApplication& app, const HostOptions& options,
                           LoadedManifest manifest, sn::Granted granted)
    : app_(app),
      options_(options),
      policy_(protocol_policy(options.time_scale)),
      manifest_(std::move(manifest)),
      id_(manifest_.manifest.id),
      granted_(std::move(granted)),
      granted_json_(granted_),
      context_{id_, granted_},
      supervisor_(policy_) {
  register_host_methods();
  control_thread_ = std::thread([this] { control_loop(); });
  sender_thread_ = std::thread([this] { send_loop(); });
}

PluginRunner::~PluginRunner() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
    accepting_events_ = false;
    wake_.notify_all();
  }
  control_thread_.join();
  std::shared_ptr<Connection> last;
  {
    std::lock_guard lock(mutex_);
    last = std::move(connection_);
  }
  // Kill a process still running before waiting for anyone: the sender or a call may hold
  // another reference to the Connection while blocked writing to it, so dropping ours alone
  // would not end it.
  if (last && last->child) last->child->kill();
  last.reset();
  sender_thread_.join();
  for (auto& f : async_) f.wait();
}

// ---- control thread -----------------------------------------------------------------------

void PluginRunner::post(std::function<void()> task) {
  std::lock_guard lock(mutex_);
  if (quit_) return;
  tasks_.push_back(std::move(task));
  wake_.notify_all();
}

void PluginRunner::control_loop() {
  std::unique_lock lock(mutex_);
  while (!quit_) {
    // Reap finished short-lived calls, off the lock: a future's task may hold the last
    // reference to a Connection, whose teardown joins threads that post() (take mutex_).
    std::list<std::future<void>> finished;
    for (auto it = async_.begin(); it != async_.end();) {
      auto next = std::next(it);
      if (it->wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        finished.splice(finished.end(), async_, it);
      }
      it = next;
    }
    if (!finished.empty()) {
      lock.unlock();
      finished.clear();
      lock.lock();
      continue;
    }
    if (!tasks_.empty()) {
      auto task = std::move(tasks_.front());
      tasks_.pop_front();
      lock.unlock();
      task();
      lock.lock();
      continue;
    }
    auto deadline = supervisor_.next_deadline();
    auto ready = [&] { return quit_ || !tasks_.empty(); };
    if (!deadline) {
      wake_.wait(lock, ready);
      continue;
    }
    if (wake_.wait_until(lock, *deadline, ready)) continue;
    lock.unlock();
    execute(supervisor_.tick(Clock::now()));
    lock.lock();
  }
}

void PluginRunner::execute(std::vector<Action> actions) {
  for (const Action& a : actions) {
    switch (a.kind) {
      case Action::Kind::kSpawn: spawn(); break;
      case Action::Kind::kSendInitialize: send_initialize(); break;
      case Action::Kind::kSendInitialized: {
        if (auto conn = connection()) {
          rpckit::notify<sn::Profile::HandshakeDone>(*conn->endpoint, {});
        }
        std::lock_guard lock(mutex_);
        accepting_events_ = true;
        break;
      }
      case Action::Kind::kSendPing: send_ping(); break;
      case Action::Kind::kSendShutdown: send_shutdown(); break;
      case Action::Kind::kSendExit:
        // Off the control thread: a plugin that stopped reading keeps its stdin pipe full, so
        // this write may block until the kill that only the control thread can order (after
        // exit_grace). Blocking here would hang stop() forever.
        if (auto conn = connection()) {
          run_async([conn] { rpckit::notify<sn::Profile::Exit>(*conn->endpoint, {}); });
        }
        break;
      case Action::Kind::kKill:
        if (auto conn = connection()) conn->child->kill();
        break;
      case Action::Kind::kRunning:
        report(LifecycleEvent::Kind::kRunning, a.cause, a.detail);
        break;
      case Action::Kind::kStopped: {
        {
          std::lock_guard lock(mutex_);
          accepting_events_ = false;
          events_.clear();  // events for a plugin that is down are dropped, never replayed
        }
        report(LifecycleEvent::Kind::kStopped, a.cause, a.detail);
        break;
      }
      case Action::Kind::kRestartScheduled:
        report(LifecycleEvent::Kind::kRestartScheduled, a.cause, a.detail, a.delay);
        break;
      case Action::Kind::kDisabled:
        report(LifecycleEvent::Kind::kDisabled, a.cause, a.detail);
        break;
    }
  }
  std::lock_guard lock(mutex_);
  state_ = supervisor_.state();
  wake_.notify_all();
}

void PluginRunner::report(LifecycleEvent::Kind kind, supervision::StopCause cause,
                          std::string detail, supervision::Duration delay) {
  LifecycleEvent event;
  event.plugin_id = id_;
  event.kind = kind;
  event.cause = cause;
  event.detail = std::move(detail);
  event.delay = delay;
  app_.on_lifecycle(event);
}

std::shared_ptr<PluginRunner::Connection> PluginRunner::connection() const {
  std::lock_guard lock(mutex_);
  return connection_;
}

void PluginRunner::write_in_order(std::function<void()> job) {
  std::lock_guard lock(mutex_);
  if (quit_) return;
  writes_.push_back(std::move(job));
  wake_.notify_all();
}

void PluginRunner::run_async(std::function<void()> fn) {
  std::lock_guard lock(mutex_);
  async_.push_back(std::async(std::launch::async, std::move(fn)));
}

void PluginRunner::spawn() {
  retire_connection();
  std::uint64_t generation = 0;
  {
    std::lock_guard lock(mutex_);
    generation = ++generation_;
    hooks_.clear();
  }
  report(LifecycleEvent::Kind::kStarting, supervision::StopCause::kRequested, {});
  const sn::ManifestRuntime& runtime = manifest_.manifest.runtime;
  process::SpawnOptions spawn_options;
  spawn_options.executable = manifest_.dir / runtime.entry;
  spawn_options.args = runtime.args_or_default();
  spawn_options.working_dir = manifest_.dir;
  spawn_options.stderr_log = options_.log_root / id_ / "plugin.log";
  std::string error;
  auto child = process::ChildProcess::spawn(spawn_options, &error);
  if (!child) {
    execute(supervisor_.launch_failed(Clock::now(), error));
    return;
  }
  auto conn = std::make_shared<Connection>();
  conn->generation = generation;
  conn->child = std::move(child);
  conn->source = std::make_unique<framing::InterruptibleFdSource>(conn->child->stdout_fd());
  conn->sink = std::make_unique<framing::FdSink>(conn->child->stdin_fd());
  auto max = sn::Profile::kMaxFrameBytes;
  Endpoint::Options endpoint_options;
  endpoint_options.default_deadline = scaled(sn::kDefaultRequestTimeoutMs, options_.time_scale);
  endpoint_options.interrupt_reader = [source = conn->source.get()] { source->interrupt(); };
  endpoint_options.max_depth = sn::Profile::kMaxJsonDepth;
  conn->endpoint = std::make_unique<Endpoint>(
      framing::make_reader(sn::Profile::kFraming, *conn->source, max),
      framing::make_writer(sn::Profile::kFraming, *conn->sink, max),
      std::move(endpoint_options));
  conn->endpoint->set_handler([this](const Incoming& incoming) { return handle(incoming); });
  conn->endpoint->on_frame(
      [this](bool outgoing, std::string_view body) { app_.on_frame(id_, outgoing, body); });
  conn->endpoint->on_diagnostic([this](const Diagnostic& d) { app_.on_report(id_, d.detail); });
  conn->endpoint->on_close([this, generation](const CloseReason& reason) {
    if (reason.kind != CloseReason::Kind::kMalformed &&
        reason.kind != CloseReason::Kind::kOversize) {
      return;
    }
    bool oversize = reason.kind == CloseReason::Kind::kOversize;
    std::string detail = reason.detail;
    post([this, generation, oversize, detail] {
      if (generation != generation_) return;
      execute(supervisor_.frame_error(Clock::now(), oversize, detail));
    });
  });
  conn->waiter = std::thread([this, generation, child_process = conn->child.get()] {
    supervision::ExitStatus status = child_process->wait();
    post([this, generation, status] { on_exited(generation, status); });
  });
  {
    std::lock_guard lock(mutex_);
    connection_ = conn;
  }
  conn->endpoint->start();
  execute(supervisor_.spawned(Clock::now()));
}

void PluginRunner::retire_connection() {
  std::shared_ptr<Connection> old;
  {
    std::lock_guard lock(mutex_);
    old = std::move(connection_);
    accepting_events_ = false;
  }
  if (!old) return;
  // Torn down off the control thread (and off the lock): the teardown joins the endpoint's
  // dispatcher, which may still be inside a host method the application is slow to answer
  // (a consent prompt may take 120 s); joining it here would hold up the restart and stop().
  old->child->kill();
  run_async([old = std::move(old)]() mutable { old.reset(); });
}

void PluginRunner::on_exited(std::uint64_t generation, supervision::ExitStatus status) {
  if (generation != generation_) return;
  {
    std::lock_guard lock(mutex_);
    accepting_events_ = false;
  }
  execute(supervisor_.exited(Clock::now(), status));
}

void PluginRunner::send_initialize() {
  auto conn = connection();
  if (!conn) return;
  std::filesystem::path data_dir = options_.data_root / id_;
  std::filesystem::path log_dir = options_.log_root / id_;
  std::error_code ec;
  std::filesystem::create_directories(data_dir, ec);
  std::filesystem::create_directories(log_dir, ec);
  sn::InitializeParams params;
  params.protocol_version = sn::kProtocolVersion;
  params.host_version = options_.host_version;
  params.plugin_id = id_;
  params.granted = granted_;
  params.data_dir = std::filesystem::absolute(data_dir).string();
  params.log_dir = std::filesystem::absolute(log_dir).string();
  auto deadline = policy_.handshake_timeout;
  std::uint64_t generation = conn->generation;
  // No thread waits for the answer: it (or the deadline) hands the result to the control
  // thread. The completion holds no Connection: it may run on that connection's own reader
  // thread. The write itself goes through the sender, as a plugin that does not read blocks
  // it and the control thread must not block.
  write_in_order([this, conn, params, deadline, generation] {
    rpckit::call_async<sn::Profile::Handshake>(
        *conn->endpoint, params,
        [this, generation](Result<sn::InitializeResult> result) {
          post([this, generation, result = std::move(result)] {
            handshake_result(generation, result);
          });
        },
        deadline);
  });
}

void PluginRunner::handshake_result(std::uint64_t generation,
                                    Result<sn::InitializeResult> result) {
  if (generation != generation_ || supervisor_.state() != supervision::State::kHandshaking) return;
  auto now = Clock::now();
  if (!result.ok()) {
    const CallError& e = result.error();
    if (e.kind != CallError::Kind::kRemote) return;  // timeouts and exits are the supervisor's
    auto data = error_data(e.error);
    bool mismatch = error_code(e.error) == sn::ErrorCode::kInvalidRequest && data &&
                    data->name == "protocol_version_mismatch";
    execute(supervisor_.handshake_failed(now, e.describe(), mismatch));
    return;
  }
  std::vector<std::string> accepted;
  std::vector<std::string> ignored;  // reported once: a plugin may name half a million
  for (const std::string& hook : result->hooks) {
    bool granted = std::any_of(granted_.events.begin(), granted_.events.end(),
                               [&](const sn::EventName& e) { return e.wire() == hook; });
    if (!granted) {
      ignored.push_back(hook);
    } else if (std::find(accepted.begin(), accepted.end(), hook) == accepted.end()) {
      accepted.push_back(hook);
    }
  }
  if (!ignored.empty()) {
    std::string named;
    for (std::size_t i = 0; i < ignored.size() && i < 3; ++i) {
      named += (i == 0 ? "\"" : ", \"") + ignored[i].substr(0, 64) + "\"";
    }
    if (ignored.size() > 3) named += " and " + std::to_string(ignored.size() - 3) + " more";
    app_.on_report(id_, (ignored.size() == 1 ? "hook " : "hooks ") + named +
                            " ignored: not in granted.events");
  }
  {
    std::lock_guard lock(mutex_);
    hooks_ = std::move(accepted);
  }
  execute(supervisor_.handshake_ok(now));
}

void PluginRunner::send_ping() {
  auto conn = connection();
  if (!conn) return;
  auto deadline = policy_.ping_interval;
  std::uint64_t generation = conn->generation;
  write_in_order([this, conn, deadline, generation] {
    rpckit::call_async<sn::Profile::HealthCheck>(
        *conn->endpoint, {},
        [this, generation](const Result<sn::PingResult>& result) {
          if (!result.ok()) return;  // a miss: the supervisor counts it at the next ping
          post([this, generation] {
            if (generation == generation_) execute(supervisor_.pong(Clock::now()));
          });
        },
        deadline);
  });
}

void PluginRunner::send_shutdown() {
  {
    std::lock_guard lock(mutex_);
    accepting_events_ = false;
    events_.clear();
  }
  auto conn = connection();
  if (!conn) return;
  auto deadline = policy_.shutdown_timeout;
  std::uint64_t generation = conn->generation;
  write_in_order([this, conn, deadline, generation] {
    rpckit::call_async<sn::Profile::Shutdown>(
        *conn->endpoint, {},
        [this, generation](const Result<sn::Profile::Shutdown::Result>&) {
          // Answered or not, exit comes next.
          post([this, generation] {
            if (generation == generation_) execute(supervisor_.shutdown_done(Clock::now()));
          });
        },
        deadline);
  });
}

// ---- public, any thread -------------------------------------------------------------------

void PluginRunner::start() {
  post([this] { execute(supervisor_.start(Clock::now())); });
}

void PluginRunner::stop() {
  // Wait for this stop's own task: a kStopped/kDisabled left from before (a start() posted
  // just ahead of us has not run yet) must not end the wait early.
  std::uint64_t ticket = 0;
  {
    std::lock_guard lock(mutex_);
    ticket = ++stops_requested_;
  }
  post([this, ticket] {
    execute(supervisor_.stop(Clock::now()));
    std::lock_guard lock(mutex_);
    stops_done_ = std::max(stops_done_, ticket);
    wake_.notify_all();
  });
  std::unique_lock lock(mutex_);
  wake_.wait(lock, [&] {
    return quit_ || (stops_done_ >= ticket && (state_ == supervision::State::kStopped ||
                                              state_ == supervision::State::kDisabled));
  });
}

supervision::State PluginRunner::state() const {
  std::lock_guard lock(mutex_);
  return state_;
}

std::vector<std::string> PluginRunner::hooks() const {
  std::lock_guard lock(mutex_);
  return hooks_;
}

bool PluginRunner::enqueue_event(std::string_view method, std::span<const GateClause> gate,
                                 const nlohmann::json& params) {
  {
    std::lock_guard lock(mutex_);
    if (!accepting_events_) return false;
    if (std::find(hooks_.begin(), hooks_.end(), method) == hooks_.end()) return false;
    if (!evaluate_gate(gate, granted_json_, &manifest_.json, &params).allowed) return false;
    if (events_.size() < options_.max_queued_events) {
      events_.emplace_back(std::string(method), params);
      wake_.notify_all();
      return true;
    }
  }
  // Reported without the lock: the application may call the Host from on_report.
  app_.on_report(id_, "event " + std::string(method) + " dropped: the plugin is not reading");
  return false;
}

void PluginRunner::send_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] {
      return quit_ || !writes_.empty() || (!events_.empty() && connection_);
    });
    if (quit_) return;
    if (!writes_.empty()) {
      auto job = std::move(writes_.front());
      writes_.pop_front();
      lock.unlock();
      job();
      lock.lock();
      continue;
    }
    auto [method, params] = std::move(events_.front());
    events_.pop_front();
    auto conn = connection_;
    lock.unlock();
    // Only this plugin's sender waits if its pipe is full.
    conn->endpoint->notify(method, std::move(params));
    conn.reset();
    lock.lock();
  }
}

Result<JsonValue> PluginRunner::invoke_action(const std::string& action, const JsonValue& args) {
  sn::InvokeActionParams params;
  params.action = action;
  params.args = args;
  nlohmann::json encoded = params;
  auto verdict = evaluate_gate(msg::InvokeAction::kGate, granted_json_, &manifest_.json, &encoded);
  if (!verdict.allowed) return capability_denied("invoke_action: " + verdict.reason);
  std::shared_ptr<Connection> conn;
  {
    std::lock_guard lock(mutex_);
    if (accepting_events_) conn = connection_;
  }
  if (!conn) {
    return CallError{CallError::Kind::kLocal,
                     RpcError(jsonrpc_code::kInternalError, id_ + " is not running")};
  }
  return rpckit::call<msg::InvokeAction>(
      *conn->endpoint, params, scaled(sn::kInvokeActionTimeoutMs, options_.time_scale));
}

}  // namespace rpckit::streamnook
