#include "rpckit/streamnook/plugin.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <exception>

#include "rpckit/framing/fd_io.hpp"
#include "rpckit/framing/framing.hpp"
#include "rpckit/framing/interruptible_fd_source.hpp"
#include "rpckit/streamnook/stdout_guard.hpp"
#include "streamnook_v1/profile.hpp"

namespace rpckit::streamnook {

namespace msg = sn::messages;

Plugin::Plugin(std::string plugin_version) : version_(std::move(plugin_version)) {
  register_lifecycle();
}

Plugin::~Plugin() = default;

Plugin& Plugin::on_action(std::string action, ActionHandler handler) {
  actions_[std::move(action)] = std::move(handler);
  return *this;
}

Plugin& Plugin::choose_hooks(
    std::function<std::vector<std::string>(const sn::Granted&)> chooser) {
  chooser_ = std::move(chooser);
  return *this;
}

Plugin& Plugin::on_start(std::function<void(HostApi&)> hook) {
  start_hook_ = std::move(hook);
  return *this;
}

Plugin& Plugin::on_shutdown(std::function<void()> hook) {
  shutdown_hook_ = std::move(hook);
  return *this;
}

void Plugin::register_lifecycle() {
  router_.on<sn::Profile::Handshake>(
      [this](const sn::InitializeParams& p) { return initialize(p); });
  router_.on<sn::Profile::HandshakeDone>([this](const sn::InitializedParams&) {
    if (start_hook_) start_hook_(host_);
  });
  router_.on<sn::Profile::HealthCheck>([](const sn::PingParams&) { return sn::PingResult{}; });
  router_.on<sn::Profile::Shutdown>([this](const sn::ShutdownParams&) {
    // Handlers run one at a time, so every earlier message has been handled by now.
    if (shutdown_hook_) shutdown_hook_();
    return nullptr;
  });
  router_.on<sn::Profile::Exit>([this](const sn::ExitParams&) {
    exit_requested_ = true;
    if (endpoint_ != nullptr) endpoint_->close();
  });
  router_.on<msg::InvokeAction>([this](const sn::InvokeActionParams& p) {
    auto it = actions_.find(p.action);
    if (it == actions_.end()) {
      throw make_error(sn::ErrorCode::kMethodNotFound,
                       "this plugin has no action \"" + p.action + "\"");
    }
    // `args` may be absent (spec 9.8): the schema's default, {}.
    nlohmann::json result = it->second(p.args_or_default());
    return JsonValue(std::move(result));
  });
}

sn::InitializeResult Plugin::initialize(const sn::InitializeParams& params) {
  if (host_.initialized()) {
    throw make_error(sn::ErrorCode::kInvalidRequest, "initialize was already received");
  }
  if (params.protocol_version != sn::kProtocolVersion) {
    // Spec 9.2: the host disables (does not restart) a plugin that answers this.
    RpcError error = make_error(sn::ErrorCode::kInvalidRequest,
                                "protocol_version " + std::to_string(params.protocol_version) +
                                    " is not supported (this plugin speaks " +
                                    std::to_string(sn::kProtocolVersion) + ")");
    nlohmann::json data = {{"name", "protocol_version_mismatch"}, {"retry_after_ms", nullptr}};
    throw RpcError(error.code(), error.message(), data);
  }
  host_.set_init(params);

  std::vector<std::string> wanted = chooser_ ? chooser_(params.granted) : handled_events_;
  sn::InitializeResult result;
  result.plugin_version = version_;
  for (const std::string& event : wanted) {
    bool granted = std::any_of(params.granted.events.begin(), params.granted.events.end(),
                               [&](const sn::EventName& e) { return e.wire() == event; });
    bool duplicate = std::find(result.hooks.begin(), result.hooks.end(), event) != result.hooks.end();
    if (granted && !duplicate) result.hooks.push_back(event);
  }
  return result;
}

// The endpoint keeps dispatching while a handler waits in a host call (so pings are answered
// and nested requests cannot deadlock); this is where the plugin keeps its handlers from
// interleaving. Runs on the dispatcher thread only.
nlohmann::json Plugin::route(const Incoming& incoming) {
  bool event = !incoming.is_request() && incoming.method != sn::Profile::Exit::kMethod;
  if (handler_depth_ > 0 && event) {
    // Arrived while a handler waits on the host: run it once that handler has returned. Held
    // as text, and only so much of it: a host that floods events while it leaves a call
    // unanswered loses the excess (reported), not the plugin its memory.
    if (held_events_.size() >= kMaxHeldEvents ||
        held_bytes_ + incoming.params_text.size() > kMaxHeldBytes) {
      std::fprintf(stderr, "[rpckit] %s dropped: %zu events already wait for a handler\n",
                   incoming.method.c_str(), held_events_.size());
      return nullptr;
    }
    held_bytes_ += incoming.params_text.size();
    held_events_.push_back(HeldEvent{
        incoming.method, incoming.params != nullptr
                             ? std::optional<std::string>(incoming.params_text)
                             : std::nullopt});
    return nullptr;
  }
  ++handler_depth_;
  nlohmann::json result;
  std::exception_ptr error;
  try {
    result = route_now(incoming.method, incoming.params);
  } catch (...) {
    error = std::current_exception();
  }
  // Still counted as running, so events arriving during the held ones queue behind them.
  if (handler_depth_ == 1) run_held_events();
  --handler_depth_;
  if (error) std::rethrow_exception(error);
  return result;
}

void Plugin::run_held_events() {
  while (!held_events_.empty() && !exit_requested_) {
    HeldEvent held = std::move(held_events_.front());
    held_events_.pop_front();
    held_bytes_ -= held.params ? held.params->size() : 0;
    try {
      // The endpoint validated this text (depth and numbers within limits).
      std::optional<nlohmann::json> params;
      if (held.params) params = nlohmann::json::parse(*held.params);
      route_now(held.method, params ? &*params : nullptr);
    } catch (const std::exception& e) {
      // A notification never gets a response: report it as the endpoint does.
      std::fprintf(stderr, "[rpckit] %s: %s\n", held.method.c_str(), e.what());
    }
  }
  held_events_.clear();  // after exit: dropped
  held_bytes_ = 0;
}

nlohmann::json Plugin::route_now(const std::string& method, const nlohmann::json* params) {
  RouteResult r = router_.route(method, params);
  switch (r.status) {
    case RouteResult::Status::kOk:
      return std::move(r.result);
    case RouteResult::Status::kUnknownMethod:
    case RouteResult::Status::kNoHandler:
      throw RpcError(jsonrpc_code::kMethodNotFound, "Method not found: " + method);
    case RouteResult::Status::kInvalidParams:
      throw RpcError(jsonrpc_code::kInvalidParams, "Invalid params: " + r.error);
  }
  return nullptr;
}

int Plugin::run() {
  StdoutGuard guard;
  framing::InterruptibleFdSource source(STDIN_FILENO);
  framing::FdSink sink(guard.protocol_fd());
  auto max = sn::Profile::kMaxFrameBytes;
  Endpoint::Options options;
  options.interrupt_reader = [&source] { source.interrupt(); };
  options.max_depth = sn::Profile::kMaxJsonDepth;
  return serve(framing::make_reader(sn::Profile::kFraming, source, max),
               framing::make_writer(sn::Profile::kFraming, sink, max),
               std::move(options));
}

int Plugin::serve(std::unique_ptr<framing::FrameReader> reader,
                  std::unique_ptr<framing::FrameWriter> writer, Endpoint::Options options) {
  Endpoint endpoint(std::move(reader), std::move(writer), std::move(options));
  endpoint_ = &endpoint;
  host_.attach(&endpoint);
  endpoint.set_handler([this](const Incoming& incoming) { return route(incoming); });
  endpoint.on_diagnostic([](const Diagnostic& d) {
    std::fprintf(stderr, "[rpckit] %s\n", d.detail.c_str());
  });
  endpoint.start();
  CloseReason reason = endpoint.wait();
  host_.attach(nullptr);
  endpoint_ = nullptr;
  switch (reason.kind) {
    case CloseReason::Kind::kLocal:
    case CloseReason::Kind::kEof:
      if (!exit_requested_) std::fprintf(stderr, "[rpckit] host closed the connection\n");
      return 0;
    default:
      std::fprintf(stderr, "[rpckit] broken connection: %s\n", reason.detail.c_str());
      return 1;
  }
}

}  // namespace rpckit::streamnook
