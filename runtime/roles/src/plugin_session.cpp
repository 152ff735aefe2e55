#include "rpckit/roles/plugin_session.hpp"

#include <unistd.h>

#include <cstdio>
#include <exception>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "debug_validation.hpp"
#include "rpckit/endpoint/rpc_error.hpp"
#include "rpckit/framing/fd_io.hpp"
#include "rpckit/framing/interruptible_fd_source.hpp"
#include "rpckit/roles/signal_stop.hpp"
#include "rpckit/roles/stdout_guard.hpp"

namespace rpckit::roles {

PluginSession::PluginSession(PluginSettings settings, Route route, Caller& host)
    : settings_(std::move(settings)), route_(std::move(route)), host_(host) {
  if (settings_.lifecycle.before_handshake_done.limited) {
    host_.limit_early(settings_.lifecycle.before_handshake_done,
                      settings_.lifecycle.handshake_done);
  }
}

void PluginSession::hold(const Incoming& incoming) {
  // Held as text, and only so much of it: a host that floods events while it leaves a call
  // unanswered loses the excess (reported), not the plugin its memory.
  if (held_events_.size() >= kMaxHeldEvents ||
      held_bytes_ + incoming.params_text.size() > kMaxHeldBytes) {
    std::fprintf(stderr, "[rpckit] %s dropped: %zu events already wait for a handler\n",
                 incoming.method.c_str(), held_events_.size());
    return;
  }
  held_bytes_ += incoming.params_text.size();
  held_events_.push_back(HeldEvent{
      incoming.method, incoming.params.present()
                           ? std::optional<std::string>(incoming.params_text)
                           : std::nullopt});
}

JsonValue PluginSession::dispatch(const Incoming& incoming) {
  const PluginLifecycle& life = settings_.lifecycle;
  if (ignoring_input_) {
    // After shutdown (AfterShutdown::kIgnoreInput): a request read before the endpoint began
    // dropping input gets no answer either.
    if (incoming.is_request()) incoming.defer().withdraw();
    return JsonValue();
  }
  if (!life.exit.empty() && incoming.method == life.exit) {
    end_session();  // honoured at once, even while a handler waits
    return JsonValue();
  }
  if (!life.health_check.empty() && incoming.method == life.health_check) {
    if (life.health_check_params != nullptr) life.health_check_params(incoming.params);
    return life.health_check_result;  // answered even while a handler waits
  }
  if (handler_depth_ > 0 && !incoming.is_request()) {
    hold(incoming);
    return JsonValue();
  }
  ++handler_depth_;
  JsonValue result;
  std::exception_ptr error;
  try {
    result = run_one(incoming.method, incoming.params);
  } catch (...) {
    error = std::current_exception();
  }
  // Still counted as running, so events arriving during the held ones queue behind them.
  if (handler_depth_ == 1) run_held_events();
  --handler_depth_;
  if (error) std::rethrow_exception(error);
  if (life.after_shutdown != AfterShutdown::kServe && incoming.is_request() &&
      !life.shutdown.empty() && incoming.method == life.shutdown) {
    // Answered here, so what follows comes after the answer on the wire.
    Reply reply = incoming.defer();
    reply.result(std::move(result));
    if (life.after_shutdown == AfterShutdown::kStop) {
      end_session();
    } else {
      ignoring_input_ = true;  // every later frame is read and dropped, unanswered
      if (endpoint_ != nullptr) endpoint_->ignore_input();
    }
    return JsonValue();
  }
  return result;
}

void PluginSession::end_session() {
  exit_requested_ = true;
  if (endpoint_ != nullptr) endpoint_->close();
}

JsonValue PluginSession::run_one(const std::string& method, const LazyJson& params) {
  const PluginLifecycle& life = settings_.lifecycle;
  if (!life.shutdown.empty() && method == life.shutdown) {
    // Handlers run one at a time, so every earlier message has been handled by now.
    if (shutdown_hook_) shutdown_hook_();
    return life.shutdown_by_route ? route_(method, params) : life.shutdown_result;
  }
  const bool done = !life.handshake_done.empty() && method == life.handshake_done;
  if (done) host_.lift_early();  // before its own handler, which may send anything
  if (life.refuse_undeclared != nullptr && own_declared_) {
    try {
      life.refuse_undeclared(method, params, own_declared_->get());
    } catch (const RpcError& e) {
      // Answered with the profile's error, and reported as the other side reports such a
      // request (the peer asked for what this side declined): on stderr with the endpoint's
      // own diagnostics, at their falling rate.
      const std::string what = "refused: " + e.message();
      if (endpoint_ != nullptr) {
        endpoint_->report(Diagnostic::Kind::kUndeclared, what);
      } else {
        std::fprintf(stderr, "[rpckit] %s\n", what.c_str());
      }
      throw;
    }
  }
  JsonValue result = route_(method, params);
  if (!life.handshake.empty() && method == life.handshake) {
    handshaken_ = true;
    // What it declared of itself in its answer (MCP: the server's capabilities) gates what it
    // sends by its own word (sender-capability clauses), and what it serves.
    if (!life.declared_member.empty() && result.get().is_object()) {
      auto own = result.get().find(life.declared_member);
      own_declared_ = JsonValue(own != result.get().end() ? *own : nlohmann::json::object());
    }
    if (!life.grant_member.empty() && params.present() && params->is_object()) {
      // A plugin does not read its manifest: declared-list clauses are the host's to enforce.
      auto grant = params->find(life.grant_member);
      if (grant != params->end()) host_.set_grant(JsonValue(*grant), own_declared_);
    }
  } else if (done && ready_hook_) {
    ready_hook_();
  }
  return result;
}

void PluginSession::run_held_events() {
  // They run after the request whose handler held them, still on its thread: not as part of it.
  rpckit::detail::CurrentRequestScope no_request(nullptr);
  while (!held_events_.empty() && !exit_requested_) {
    HeldEvent held = std::move(held_events_.front());
    held_events_.pop_front();
    held_bytes_ -= held.params ? held.params->size() : 0;
    try {
      run_one(held.method, held.params ? LazyJson::of_text(*held.params) : LazyJson());
    } catch (const std::exception& e) {
      // A notification never gets a response: report it as the endpoint does.
      std::fprintf(stderr, "[rpckit] %s: %s\n", held.method.c_str(), e.what());
    }
  }
  held_events_.clear();  // after exit: dropped
  held_bytes_ = 0;
}

int PluginSession::run() {
  // This process's stdout is its protocol: a host gone away is a write error to report, never
  // a signal. Ignored once for the process, so writes need no per-write guard.
  framing::ignore_sigpipe();
  StdoutGuard guard;
  framing::InterruptibleFdSource source(STDIN_FILENO);
  framing::FdSink sink(guard.protocol_fd());
  Endpoint::Options options;
  options.interrupt_reader = [&source] { source.interrupt(); };
  SignalStop signals(settings_.lifecycle.stops_on_sigterm, [this, &source](int signal) {
    if (signal_hook_) signal_hook_(signal);
    stopped_by_signal_ = true;
    source.interrupt();
  });
  const ConnectionRules& rules = settings_.connection;
  return serve(rules.make_reader(source), rules.make_writer(sink), std::move(options));
}

int PluginSession::serve(std::unique_ptr<framing::FrameReader> reader,
                         std::unique_ptr<framing::FrameWriter> writer,
                         Endpoint::Options options) {
  options.rules = settings_.connection.wire;
  Endpoint endpoint(std::move(reader), std::move(writer), std::move(options));
  endpoint_ = &endpoint;
  host_.attach(&endpoint);
  endpoint.set_handler([this](const Incoming& incoming) { return dispatch(incoming); });
  endpoint.on_diagnostic([](const Diagnostic& d) {
    std::fprintf(stderr, "[rpckit] %s\n", d.detail.c_str());
  });
  if (auto watch = debug_watch(true, [](const std::string& line) {
        std::fprintf(stderr, "[rpckit] %s\n", line.c_str());
      })) {
    endpoint.on_frame([watch](bool outgoing, std::string_view body) { watch->observe(outgoing, body); });
  }
  endpoint.start();
  CloseReason reason = endpoint.wait();
  // Waits for the plugin's own threads still inside a call: they return promptly, the
  // endpoint being closed by now.
  host_.attach(nullptr);
  endpoint_ = nullptr;
  switch (reason.kind) {
    case CloseReason::Kind::kLocal:
    case CloseReason::Kind::kEof:
      // The end of stdin is a normal stop where the profile says so; say it only otherwise.
      if (!exit_requested_ && !stopped_by_signal_ && !settings_.lifecycle.stops_on_stdin_eof) {
        std::fprintf(stderr, "[rpckit] host closed the connection\n");
      }
      return 0;
    case CloseReason::Kind::kIoError:
      if (stopped_by_signal_) return 0;  // the signal interrupted the read
      std::fprintf(stderr, "[rpckit] broken connection: %s\n", reason.detail.c_str());
      return 1;
    default:
      std::fprintf(stderr, "[rpckit] broken connection: %s\n", reason.detail.c_str());
      return 1;
  }
}

}  // namespace rpckit::roles
