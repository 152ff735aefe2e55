// PluginProcess: the supervisor's driver. A control thread owns the Supervisor and executes its
// actions; lifecycle messages go out through the outbox, in order with the events, and their
// answers come back as tasks for the control thread. The processes themselves are
// plugin_connection.cpp's; the sender thread is the Outbox.
#include "rpckit/roles/plugin_process.hpp"

#include <algorithm>
#include <chrono>

#include <nlohmann/json.hpp>

#include "outbox.hpp"
#include "plugin_connection.hpp"

namespace rpckit::roles {

using supervision::Action;
using supervision::Clock;

std::string_view to_string(LifecycleEvent::Kind kind) {
  switch (kind) {
    case LifecycleEvent::Kind::kStarting: return "starting";
    case LifecycleEvent::Kind::kRunning: return "running";
    case LifecycleEvent::Kind::kStopped: return "stopped";
    case LifecycleEvent::Kind::kRestartScheduled: return "restart_scheduled";
    case LifecycleEvent::Kind::kDisabled: return "disabled";
  }
  return "unknown";
}

namespace {
// The deadline of a call the profile puts no limit on: the process's exit (or a stop) ends it.
constexpr std::chrono::milliseconds kNoDeadline{std::chrono::hours(24 * 365)};
}  // namespace

PluginProcess::PluginProcess(Settings settings, Lifecycle lifecycle, Endpoint::Handler incoming,
                             Observer observer)
    : settings_(std::move(settings)),
      lifecycle_(std::move(lifecycle)),
      incoming_(std::move(incoming)),
      observer_(std::move(observer)),
      supervisor_(settings_.policy) {
  outbox_ = std::make_unique<detail::Outbox>(settings_.max_queued_events);
  control_thread_ = std::thread([this] { control_loop(); });
}

PluginProcess::~PluginProcess() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
    wake_.notify_all();
  }
  outbox_->close();
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
  outbox_.reset();  // joins the sender
  for (auto& f : async_) f.wait();
}

void PluginProcess::post(std::function<void()> task) {
  std::lock_guard lock(mutex_);
  if (quit_) return;
  tasks_.push_back(std::move(task));
  wake_.notify_all();
}

void PluginProcess::control_loop() {
  std::unique_lock lock(mutex_);
  while (!quit_) {
    // Reap finished short-lived jobs, off the lock: a future's task may hold the last
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
    // Timers that are due go to the sender thread; the next wake-up is the earlier of the
    // next timer and the supervisor's next deadline.
    auto now = Clock::now();
    while (!timers_.empty() && timers_.begin()->first <= now) {
      outbox_->run_in_order(std::move(timers_.begin()->second));
      timers_.erase(timers_.begin());
    }
    auto deadline = supervisor_.next_deadline();
    bool supervisor_due = deadline && *deadline <= now;
    if (!timers_.empty() && (!deadline || timers_.begin()->first < *deadline)) {
      deadline = timers_.begin()->first;
    }
    auto ready = [&] { return quit_ || !tasks_.empty(); };
    if (!supervisor_due) {
      if (!deadline) {
        wake_.wait(lock, ready);
      } else {
        wake_.wait_until(lock, *deadline, ready);
      }
      continue;
    }
    lock.unlock();
    execute(supervisor_.tick(Clock::now()));
    lock.lock();
  }
}

void PluginProcess::execute(const std::vector<Action>& actions) {
  for (const Action& a : actions) {
    switch (a.kind) {
      case Action::Kind::kSpawn: spawn(); break;
      case Action::Kind::kSendHandshake: send_handshake(); break;
      case Action::Kind::kSendHandshakeDone: {
        if (auto conn = connection()) {
          if (lifecycle_.handshake_done) lifecycle_.handshake_done(*conn->endpoint);
          // Keeps the whole connection (process, pipes) alive while events are written.
          outbox_->open(std::shared_ptr<Endpoint>(conn, conn->endpoint.get()));
        }
        break;
      }
      case Action::Kind::kSendHealthCheck: send_health_check(); break;
      case Action::Kind::kSendShutdown: send_shutdown(); break;
      case Action::Kind::kSendExit:
        // Off the control thread: a plugin that stopped reading keeps its stdin pipe full, so
        // this write may block until the kill that only the control thread can order (after
        // the stop sequence's wait). Blocking here would hang stop() forever.
        if (auto conn = connection(); conn && lifecycle_.exit) {
          run_async([this, conn] { lifecycle_.exit(*conn->endpoint); });
        }
        break;
      case Action::Kind::kCloseStdin:
        if (auto conn = connection()) end_stdin(*conn);
        break;
      case Action::Kind::kTerminate:
        if (auto conn = connection()) conn->child->terminate();
        break;
      case Action::Kind::kKill:
        if (auto conn = connection()) conn->child->kill();
        break;
      case Action::Kind::kRunning:
        report(LifecycleEvent::Kind::kRunning, a.cause, a.detail);
        break;
      case Action::Kind::kStopped: {
        outbox_->close();  // events for a plugin that is down are dropped, never replayed
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
  state_ = settled_state_ = supervisor_.state();
  wake_.notify_all();
}

void PluginProcess::publish_state() {
  std::lock_guard lock(mutex_);
  state_ = supervisor_.state();
}

void PluginProcess::report(LifecycleEvent::Kind kind, supervision::StopCause cause,
                           std::string detail, supervision::Duration delay) {
  // An observer that sees the event and then asks state() must get the state it announces.
  publish_state();
  if (!observer_.lifecycle) return;
  LifecycleEvent event;
  event.plugin_id = settings_.id;
  event.kind = kind;
  event.cause = cause;
  event.detail = std::move(detail);
  event.delay = delay;
  observer_.lifecycle(event);
}


void PluginProcess::after(supervision::Duration delay, std::function<void()> job) {
  std::lock_guard lock(mutex_);
  if (quit_) return;
  timers_.emplace(Clock::now() + delay, std::move(job));
  wake_.notify_all();
}

void PluginProcess::run_async(std::function<void()> fn) {
  std::lock_guard lock(mutex_);
  async_.push_back(std::async(std::launch::async, std::move(fn)));
}



void PluginProcess::send_handshake() {
  auto conn = connection();
  if (!conn) return;
  // No deadline of its own beyond the supervisor's; none at all when the profile sets none.
  auto deadline = settings_.policy.handshake_timeout.value_or(kNoDeadline);
  std::uint64_t generation = conn->generation;
  // No thread waits for the answer: it (or the deadline) hands the outcome to the control
  // thread. The completion holds no Connection: it may run on that connection's own reader
  // thread. The write itself goes through the sender, as a plugin that does not read blocks
  // it and the control thread must not block.
  outbox_->run_in_order([this, conn, deadline, generation] {
    lifecycle_.handshake(*conn->endpoint, deadline,
                         [this, generation](const HandshakeOutcome& outcome) {
                           post([this, generation, outcome] {
                             handshake_done(generation, outcome);
                           });
                         });
  });
}

void PluginProcess::handshake_done(std::uint64_t generation, const HandshakeOutcome& outcome) {
  if (generation != generation_ || supervisor_.state() != supervision::State::kHandshaking) return;
  switch (outcome.kind) {
    case HandshakeOutcome::Kind::kAccepted:
      execute(supervisor_.handshake_ok(Clock::now()));
      break;
    case HandshakeOutcome::Kind::kRefused:
      execute(supervisor_.handshake_failed(Clock::now(), outcome.detail, outcome.permanent));
      break;
    case HandshakeOutcome::Kind::kUnsettled:
      break;  // timeouts and exits are the supervisor's
  }
}

void PluginProcess::send_health_check() {
  auto conn = connection();
  if (!conn) return;
  std::uint64_t generation = conn->generation;
  auto healthy = [this, generation] {
    post([this, generation] {
      if (generation == generation_) execute(supervisor_.health_check_answered(Clock::now()));
    });
  };
  if (!lifecycle_.health_check) {
    healthy();
    return;
  }
  auto deadline = settings_.policy.health_check_interval.value_or(kNoDeadline);
  outbox_->run_in_order([this, conn, deadline, healthy] {
    lifecycle_.health_check(*conn->endpoint, deadline, [healthy](bool answered) {
      if (answered) healthy();  // a miss: the supervisor counts it at the next ping
    });
  });
}

void PluginProcess::send_shutdown() {
  outbox_->close();
  auto conn = connection();
  if (!conn) return;
  std::uint64_t generation = conn->generation;
  // Answered or not, exit comes next.
  auto done = [this, generation] {
    post([this, generation] {
      if (generation == generation_) execute(supervisor_.shutdown_done(Clock::now()));
    });
  };
  if (!lifecycle_.shutdown) {
    done();
    return;
  }
  auto deadline = settings_.policy.shutdown_timeout.value_or(kNoDeadline);
  outbox_->run_in_order([this, conn, deadline, done] { lifecycle_.shutdown(*conn->endpoint, deadline, done); });
}

void PluginProcess::start() {
  post([this] { execute(supervisor_.start(Clock::now())); });
}

void PluginProcess::disable(std::string reason) {
  post([this, reason = std::move(reason)] {
    execute(supervisor_.disable(Clock::now(), reason));
  });
}

void PluginProcess::stop() {
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
    return quit_ || (stops_done_ >= ticket && (settled_state_ == supervision::State::kStopped ||
                                              settled_state_ == supervision::State::kDisabled));
  });
}

supervision::State PluginProcess::state() const {
  std::lock_guard lock(mutex_);
  return state_;
}

std::shared_ptr<Endpoint> PluginProcess::running_endpoint() const {
  if (!outbox_->is_open()) return nullptr;
  std::lock_guard lock(mutex_);
  if (!connection_) return nullptr;
  // Keeps the whole connection (process, pipes) alive as long as the caller holds it.
  return std::shared_ptr<Endpoint>(connection_, connection_->endpoint.get());
}

bool PluginProcess::enqueue(std::string_view method, const JsonValue& params) {
  return enqueue_encoded(method, std::make_shared<const std::string>(params.get().dump(
                                     -1, ' ', false, nlohmann::json::error_handler_t::replace)));
}

bool PluginProcess::enqueue_encoded(std::string_view method,
                                    std::shared_ptr<const std::string> params_json) {
  switch (outbox_->push(method, std::move(params_json))) {
    case detail::Outbox::Push::kQueued: return true;
    case detail::Outbox::Push::kClosed: return false;
    case detail::Outbox::Push::kFull: break;
  }
  // Reported without a lock: the application may call back into the host from it.
  if (observer_.report) {
    observer_.report("event " + std::string(method) + " dropped: the plugin is not reading");
  }
  return false;
}

}  // namespace rpckit::roles
