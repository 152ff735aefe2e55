// PluginProcess: its processes. Each generation gets its own Connection (child process,
// pipes, endpoint, a waiter for the exit); what arrives from an older generation is ignored.
#include <chrono>
#include <cstdio>
#include <string>

#include "debug_validation.hpp"
#include "outbox.hpp"
#include "plugin_connection.hpp"

namespace rpckit::roles {

using supervision::Clock;

namespace {
// How long the reader may take to read what a child wrote before it exited.
constexpr std::chrono::milliseconds kDrainAfterExit{1000};
// How long the handlers may take to serve what was read, as long as one finishes at least
// every kHandlerStall: a flood of notifications queued behind a slow handler is served
// whole, and a handler blocked on the application holds up noticing the exit that long only.
constexpr std::chrono::milliseconds kServeAfterExit{5000};
constexpr std::chrono::milliseconds kHandlerStall{500};
// How long the handlers may take, on the same terms, to answer what the plugin asked before
// its stdin is closed.
constexpr std::chrono::milliseconds kServeBeforeStdinEnds{1000};
}  // namespace

std::shared_ptr<PluginProcess::Connection> PluginProcess::connection() const {
  std::lock_guard lock(mutex_);
  return connection_;
}

void PluginProcess::spawn() {
  retire_connection();
  std::uint64_t generation = 0;
  {
    std::lock_guard lock(mutex_);
    generation = ++generation_;
  }
  report(LifecycleEvent::Kind::kStarting, supervision::StopCause::kRequested, {});
  std::string error;
  auto child = process::ChildProcess::spawn(settings_.spawn, &error);
  if (!child) {
    execute(supervisor_.launch_failed(Clock::now(), error));
    return;
  }
  auto conn = std::make_shared<Connection>();
  conn->generation = generation;
  conn->child = std::move(child);
  conn->source = std::make_unique<framing::InterruptibleFdSource>(conn->child->stdout_fd());
  const ConnectionRules& rules = settings_.connection;
  conn->capped = std::make_unique<framing::CappedSource>(*conn->source, rules.output_cap);
  conn->sink = std::make_unique<framing::FdSink>(conn->child->stdin_fd());
  Endpoint::Options endpoint_options;
  endpoint_options.default_deadline = settings_.default_deadline;
  endpoint_options.interrupt_reader = [source = conn->source.get()] { source->interrupt(); };
  endpoint_options.rules = rules.wire;
  conn->endpoint = std::make_shared<Endpoint>(rules.make_reader(*conn->capped),
                                              rules.make_writer(*conn->sink),
                                              std::move(endpoint_options));
  conn->endpoint->set_handler(incoming_);
  auto watch = debug_watch(false, [this](const std::string& line) {
    if (observer_.report) {
      observer_.report(line);
    } else {
      std::fprintf(stderr, "[rpckit] %s\n", line.c_str());
    }
  });
  if (observer_.frame || watch) {
    conn->endpoint->on_frame([this, watch](bool outgoing, std::string_view body) {
      if (watch) watch->observe(outgoing, body);
      if (observer_.frame) observer_.frame(outgoing, body);
    });
  }
  conn->endpoint->on_diagnostic([this](const Diagnostic& d) {
    if (observer_.diagnostic) observer_.diagnostic(d);
    if (observer_.report) observer_.report(d.detail);
  });
  conn->endpoint->on_close([this, generation, capped = conn->capped.get()](
                               const CloseReason& reason) {
    if (capped->capped()) {
      std::string detail = "wrote more than " + std::to_string(settings_.connection.output_cap) +
                           " bytes on stdout, the protocol's output cap";
      post([this, generation, detail] {
        if (generation != generation_) return;
        execute(supervisor_.output_capped(Clock::now(), detail));
      });
      return;
    }
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
  conn->waiter = std::thread([this, generation, child_process = conn->child.get(),
                              endpoint = conn->endpoint.get()] {
    supervision::ExitStatus status = child_process->wait();
    // What the child wrote before it ended (the answer to a shutdown, its last log lines) may
    // still be in the pipe or queued behind a handler: the reader takes it, up to the end of
    // the stream, and the handlers serve it, before the exit retires the connection. Bounded,
    // as a grandchild may hold the pipe open or a handler wait on the application;
    // ~Connection closes the endpoint first, which ends both waits at once.
    endpoint->wait_done_reading(kDrainAfterExit);
    endpoint->wait_handled(kHandlerStall, kServeAfterExit);
    post([this, generation, status] { on_exited(generation, status); });
  });
  {
    std::lock_guard lock(mutex_);
    connection_ = conn;
  }
  conn->endpoint->start();
  execute(supervisor_.spawned(Clock::now()));
}

// A request the plugin sent just before the stop may still be queued or in its handler: its
// answer is written before the pipe ends (else the plugin never gets it: the hostile MCP
// server's roots/list, answered -32601, lost 3 times in 25 under load). Bounded as the drain
// after an exit is, and ended at once by a closed endpoint.
void PluginProcess::end_stdin(const Connection& conn) {
  conn.endpoint->wait_handled(kHandlerStall, kServeBeforeStdinEnds);
  conn.child->end_stdin();
}

void PluginProcess::retire_connection() {
  std::shared_ptr<Connection> old;
  {
    std::lock_guard lock(mutex_);
    old = std::move(connection_);
  }
  outbox_->close();
  if (!old) return;
  // Torn down off the control thread (and off the lock): the teardown joins the endpoint's
  // dispatcher, which may still be inside a handler the application is slow to answer (a
  // consent prompt may take minutes); joining it here would hold up the restart and stop().
  old->child->kill();
  run_async([old = std::move(old)]() mutable { old.reset(); });
}

void PluginProcess::on_exited(std::uint64_t generation, supervision::ExitStatus status) {
  if (generation != generation_) return;
  outbox_->close();
  execute(supervisor_.exited(Clock::now(), status));
}

}  // namespace rpckit::roles
