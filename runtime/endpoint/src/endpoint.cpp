#include "rpckit/endpoint/endpoint.hpp"

#include <utility>

namespace rpckit {
namespace {

bool valid_id(const nlohmann::json& id) { return id.is_string() || id.is_number_integer(); }

nlohmann::json envelope() { return nlohmann::json{{"jsonrpc", "2.0"}}; }

}  // namespace

Endpoint::Endpoint(std::unique_ptr<framing::FrameReader> reader,
                   std::unique_ptr<framing::FrameWriter> writer, Options options)
    : reader_(std::move(reader)), writer_(std::move(writer)), options_(std::move(options)) {}

Endpoint::Endpoint(std::unique_ptr<framing::FrameReader> reader,
                   std::unique_ptr<framing::FrameWriter> writer)
    : Endpoint(std::move(reader), std::move(writer), Options{}) {}

Endpoint::~Endpoint() {
  close();
  if (reader_thread_.joinable()) reader_thread_.join();
  if (dispatcher_thread_.joinable()) {
    if (on_dispatcher_thread()) {
      dispatcher_thread_.detach();  // destroyed from its own handler: nothing left to join
    } else {
      dispatcher_thread_.join();
    }
  }
}

void Endpoint::set_handler(Handler handler) { handler_ = std::move(handler); }
void Endpoint::on_diagnostic(std::function<void(const Diagnostic&)> observer) {
  diagnostic_observer_ = std::move(observer);
}
void Endpoint::on_close(std::function<void(const CloseReason&)> observer) {
  close_observer_ = std::move(observer);
}
void Endpoint::on_frame(std::function<void(bool, std::string_view)> observer) {
  frame_observer_ = std::move(observer);
}

void Endpoint::start() {
  if (started_.exchange(true)) return;
  // The new threads read reader_thread_/dispatcher_thread_ (on_dispatcher_thread()) only after
  // taking mutex_, so assigning them under it orders the assignment before those reads.
  std::lock_guard lock(mutex_);
  reader_thread_ = std::thread([this] { read_loop(); });
  dispatcher_thread_ = std::thread([this] { dispatch_loop(); });
}

bool Endpoint::on_dispatcher_thread() const {
  return std::this_thread::get_id() == dispatcher_thread_.get_id();
}

// ---- reading --------------------------------------------------------------------------

void Endpoint::read_loop() {
  for (;;) {
    framing::ReadResult frame = reader_->read();
    if (!frame.ok()) {
      CloseReason reason;
      reason.read_status = frame.status;
      reason.detail = frame.reason;
      if (frame.status == framing::ReadStatus::kEof) {
        reason.kind = CloseReason::Kind::kEof;
      } else if (frame.status == framing::ReadStatus::kOversize) {
        reason.kind = CloseReason::Kind::kOversize;
      } else if (frame.status == framing::ReadStatus::kIoError) {
        reason.kind = CloseReason::Kind::kIoError;
      } else {
        reason.kind = CloseReason::Kind::kMalformed;
      }
      if (closed_.load()) reason = CloseReason{};  // our own close() interrupted the read
      finish(reason);
      return;
    }
    if (closed_.load()) {
      finish(CloseReason{});
      return;
    }
    record_frame(false, frame.body);
    handle_frame(std::move(frame.body));
  }
}

void Endpoint::handle_frame(std::string body) {
  nlohmann::json message = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) {
    diagnose(Diagnostic::Kind::kParseError, "frame is not JSON: " + body.substr(0, 200));
    send_error(nullptr, RpcError(jsonrpc_code::kParseError, "Parse error: invalid JSON"));
    return;
  }
  if (message.is_array()) {
    diagnose(Diagnostic::Kind::kInvalidRequest, "batch arrays are not supported");
    send_error(nullptr,
               RpcError(jsonrpc_code::kInvalidRequest, "Invalid Request: batches not supported"));
    return;
  }
  // The id to answer with, if the envelope has a usable one.
  nlohmann::json id = nullptr;
  if (message.is_object()) {
    if (auto it = message.find("id"); it != message.end() && valid_id(*it)) id = *it;
  }
  auto invalid = [&](const std::string& why) {
    diagnose(Diagnostic::Kind::kInvalidRequest, why);
    send_error(id, RpcError(jsonrpc_code::kInvalidRequest, "Invalid Request: " + why));
  };
  if (!message.is_object()) return invalid("envelope is not an object");
  auto version = message.find("jsonrpc");
  if (version == message.end() || *version != "2.0") return invalid("jsonrpc must be \"2.0\"");

  auto method = message.find("method");
  if (method == message.end()) {
    if (message.contains("result") || message.contains("error")) return handle_response(message);
    return invalid("no method, result or error");
  }
  if (!method->is_string()) return invalid("method must be a string");
  auto id_it = message.find("id");
  if (id_it != message.end() && !valid_id(*id_it)) {
    return invalid("id must be a string or an integer");
  }
  auto params = message.find("params");
  if (params != message.end() && !params->is_object() && !params->is_array() &&
      !params->is_null()) {
    return invalid("params must be an object or an array");
  }

  Queued queued;
  queued.method = method->get<std::string>();
  if (params != message.end()) queued.params = std::move(*params);
  if (id_it != message.end()) queued.id = *id_it;

  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.size() < options_.max_queued || closed_.load(); });
  if (closed_.load()) return;
  queue_.push_back(std::move(queued));
  changed_.notify_all();
}

void Endpoint::handle_response(const nlohmann::json& message) {
  auto id = message.find("id");
  bool has_result = message.contains("result");
  bool has_error = message.contains("error");
  if (has_result == has_error) {
    diagnose(Diagnostic::Kind::kInvalidResponse,
             "response needs exactly one of result and error: " + message.dump().substr(0, 200));
    return;
  }
  // We only ever send integer ids; a string id cannot be ours.
  if (id == message.end() || !id->is_number_integer()) {
    diagnose(Diagnostic::Kind::kUnknownResponseId,
             "response with id " + (id == message.end() ? std::string("(none)") : id->dump()) +
                 " matches no call");
    return;
  }
  {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(id->get<std::int64_t>());
    if (it != pending_.end() && !it->second.response) {
      it->second.response = message;
      changed_.notify_all();
      return;
    }
  }
  // Reported without the lock: the observer may call close(), call() or notify().
  diagnose(Diagnostic::Kind::kUnknownResponseId,
           "response with id " + id->dump() + " matches no pending call");
}

void Endpoint::finish(const CloseReason& reason) {
  {
    std::lock_guard lock(mutex_);
    reading_done_ = true;
    if (!close_reason_) close_reason_ = reason;
    for (auto& [id, pending] : pending_) pending.disconnected = true;
    changed_.notify_all();
  }
  if (close_observer_) close_observer_(*close_reason_);
}

// ---- dispatching ----------------------------------------------------------------------

void Endpoint::dispatch_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return !queue_.empty() || reading_done_ || closed_.load(); });
    if (closed_.load()) return;  // close(): drop what is queued
    if (dispatch_one(lock)) continue;
    if (reading_done_) return;  // peer EOF: what was queued has been handled
  }
}

bool Endpoint::dispatch_one(std::unique_lock<std::mutex>& lock) {
  if (queue_.empty()) return false;
  Queued message = std::move(queue_.front());
  queue_.pop_front();
  changed_.notify_all();  // room in the queue for the reader
  lock.unlock();
  handle_incoming(message);
  lock.lock();
  return true;
}

void Endpoint::handle_incoming(Queued& message) {
  Incoming incoming;
  incoming.method = message.method;
  incoming.params = message.params ? &*message.params : nullptr;
  incoming.id = message.id;
  if (!incoming.is_request()) {
    try {
      if (handler_) handler_(incoming);
    } catch (const std::exception& e) {
      diagnose(Diagnostic::Kind::kNotificationFailed, message.method + ": " + e.what());
    } catch (...) {
      diagnose(Diagnostic::Kind::kNotificationFailed, message.method + ": unknown exception");
    }
    return;
  }
  // Exactly one response, whatever the handler does.
  std::optional<nlohmann::json> result;
  std::optional<RpcError> error;
  try {
    if (!handler_) throw RpcError(jsonrpc_code::kMethodNotFound, "Method not found: " + message.method);
    result = handler_(incoming);
  } catch (const RpcError& e) {
    error = e;
  } catch (const std::exception& e) {
    error = RpcError(jsonrpc_code::kInternalError,
                     "Internal error in " + message.method + ": " + e.what());
  } catch (...) {
    error = RpcError(jsonrpc_code::kInternalError, "Internal error in " + message.method);
  }
  bool sent = false;
  if (error) {
    sent = send_error(*message.id, *error);
  } else {
    nlohmann::json response = envelope();
    response["id"] = *message.id;
    response["result"] = std::move(*result);
    sent = send(response);
  }
  // Exactly one response, even when that one could not be written (e.g. a result over the
  // frame limit): a short internal error takes its place.
  if (!sent) {
    send_error(*message.id, RpcError(jsonrpc_code::kInternalError,
                                     "Internal error in " + message.method +
                                         ": the response could not be sent"));
  }
}

// ---- sending --------------------------------------------------------------------------

CallResult Endpoint::call(std::string_view method, std::optional<nlohmann::json> params,
                          std::optional<std::chrono::milliseconds> deadline) {
  auto timeout = deadline.value_or(options_.default_deadline);
  auto until = std::chrono::steady_clock::now() + timeout;
  std::int64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    if (reading_done_ || closed_.load()) {
      return CallError{CallError::Kind::kDisconnected,
                       RpcError(jsonrpc_code::kInternalError,
                                "connection closed before \"" + std::string(method) + "\"")};
    }
    id = next_id_++;
    pending_[id];
  }
  nlohmann::json request = envelope();
  request["id"] = id;
  request["method"] = method;
  if (params) request["params"] = std::move(*params);
  if (!send(request)) {
    std::lock_guard lock(mutex_);
    pending_.erase(id);
    return CallError{CallError::Kind::kSendFailed,
                     RpcError(jsonrpc_code::kInternalError,
                              "could not send \"" + std::string(method) + "\"")};
  }

  std::unique_lock lock(mutex_);
  bool pump = on_dispatcher_thread();
  for (;;) {
    Pending& pending = pending_[id];
    if (pending.response) break;
    if (pending.disconnected || closed_.load()) {
      pending_.erase(id);
      return CallError{CallError::Kind::kDisconnected,
                       RpcError(jsonrpc_code::kInternalError,
                                "connection closed while waiting for \"" + std::string(method) +
                                    "\"")};
    }
    // The dispatcher keeps serving the peer while it waits (nested requests), but only until
    // the deadline: past it, wait_until() below reports the timeout at once.
    if (pump && std::chrono::steady_clock::now() < until && dispatch_one(lock)) continue;
    if (changed_.wait_until(lock, until) == std::cv_status::timeout && !pending_[id].response) {
      pending_.erase(id);
      return CallError{CallError::Kind::kTimeout,
                       RpcError(jsonrpc_code::kInternalError,
                                "no response to \"" + std::string(method) + "\" within " +
                                    std::to_string(timeout.count()) + " ms")};
    }
  }
  nlohmann::json response = std::move(*pending_[id].response);
  pending_.erase(id);
  lock.unlock();
  if (auto it = response.find("error"); it != response.end()) {
    return CallError{CallError::Kind::kRemote, RpcError::from_json(*it)};
  }
  return CallResult(std::move(response["result"]));
}

bool Endpoint::notify(std::string_view method, std::optional<nlohmann::json> params) {
  if (closed_.load()) return false;
  nlohmann::json message = envelope();
  message["method"] = method;
  if (params) message["params"] = std::move(*params);
  return send(message);
}

bool Endpoint::send(const nlohmann::json& message) {
  // Invalid UTF-8 from a handler must not throw out of the endpoint: replace it.
  std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  framing::WriteResult written = writer_->write(body);
  if (!written.ok()) {
    diagnose(Diagnostic::Kind::kWriteFailed, written.reason);
    return false;
  }
  record_frame(true, body);
  return true;
}

bool Endpoint::send_error(const nlohmann::json& id, const RpcError& error) {
  nlohmann::json response = envelope();
  response["id"] = id;
  response["error"] = error.to_json();
  return send(response);
}

// ---- closing --------------------------------------------------------------------------

void Endpoint::close() {
  if (closed_.exchange(true)) return;
  {
    std::lock_guard lock(mutex_);
    if (!close_reason_) close_reason_ = CloseReason{};
    for (auto& [id, pending] : pending_) pending.disconnected = true;
    changed_.notify_all();
  }
  if (options_.interrupt_reader) options_.interrupt_reader();
}

CloseReason Endpoint::wait() {
  if (reader_thread_.joinable() && std::this_thread::get_id() != reader_thread_.get_id()) {
    reader_thread_.join();
  }
  if (dispatcher_thread_.joinable() && !on_dispatcher_thread()) dispatcher_thread_.join();
  std::lock_guard lock(mutex_);
  return close_reason_.value_or(CloseReason{});
}

void Endpoint::diagnose(Diagnostic::Kind kind, std::string detail) {
  if (diagnostic_observer_) diagnostic_observer_(Diagnostic{kind, std::move(detail)});
}

void Endpoint::record_frame(bool outgoing, std::string_view body) {
  if (frame_observer_) frame_observer_(outgoing, body);
}

}  // namespace rpckit
