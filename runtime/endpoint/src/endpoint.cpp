#include "rpckit/endpoint/endpoint.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "reply_outbox.hpp"
#include "rpckit/codec/codec.hpp"
#include "rpckit/codec/json_writer.hpp"
#include "rpckit/framing/fd_io.hpp"

namespace rpckit {
namespace {

// A response's text with the members in nlohmann's key order ("error" < "id" < "jsonrpc" <
// "result"), so the bytes are what dumping the envelope gave; the value is dumped where it is,
// not copied into an envelope first. Invalid UTF-8 from a handler is replaced, never thrown.
std::string response_frame(const nlohmann::json& id, bool is_error, const nlohmann::json& value) {
  constexpr auto kReplace = nlohmann::json::error_handler_t::replace;
  std::string frame = "{";
  if (is_error) frame += "\"error\":" + value.dump(-1, ' ', false, kReplace) + ",";
  frame += "\"id\":" + id.dump(-1, ' ', false, kReplace) + ",\"jsonrpc\":\"2.0\"";
  if (!is_error) frame += ",\"result\":" + value.dump(-1, ' ', false, kReplace);
  frame += '}';
  return frame;
}

// Text scan_envelope() has validated (depth and numbers within limits), so nothing that walks
// the result recurses deeper than max_depth. Never throws: should nlohmann ever disagree with
// the scan, the value is treated as unparseable rather than ending the thread.
std::optional<nlohmann::json> parse_validated(std::string_view text) {
  nlohmann::json value = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) return std::nullopt;
  return value;
}

// The members a request and a notification share, after the request's id, in nlohmann's key
// order, and the closing brace: `"jsonrpc":"2.0","method":...[,"params":...]}`.
void append_call(std::string& frame, std::string_view method,
                 std::optional<std::string_view> params_json) {
  frame += "\"jsonrpc\":\"2.0\",\"method\":";
  codec::write_json(frame, method);
  if (params_json) {
    frame += ",\"params\":";
    frame += *params_json;
  }
  frame += '}';
}

// A JsonValue's text as the endpoint sends it (invalid UTF-8 from a handler replaced).
std::optional<std::string> params_text(const std::optional<JsonValue>& params) {
  if (!params) return std::nullopt;
  return params->get().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A call without a deadline waits this long: for ever, as far as a process is concerned.
constexpr std::chrono::milliseconds kNoDeadline{std::chrono::hours(24 * 365)};

CallError disconnected(std::string_view method, bool waiting) {
  return CallError{CallError::Kind::kDisconnected,
                   RpcError(jsonrpc_code::kInternalError,
                            (waiting ? "connection closed while waiting for \""
                                     : "connection closed before \"") +
                                std::string(method) + "\"")};
}

CallError timed_out(std::string_view method, std::chrono::milliseconds timeout) {
  return CallError{CallError::Kind::kTimeout,
                   RpcError(jsonrpc_code::kInternalError,
                            "no response to \"" + std::string(method) + "\" within " +
                                std::to_string(timeout.count()) + " ms")};
}

CallError send_failed(std::string_view method) {
  return CallError{CallError::Kind::kSendFailed,
                   RpcError(jsonrpc_code::kInternalError,
                            "could not send \"" + std::string(method) + "\"")};
}

CallError unusable(std::string_view method, const std::string& why) {
  return CallError{CallError::Kind::kRemote,
                   RpcError(jsonrpc_code::kInternalError,
                            "unusable response to \"" + std::string(method) + "\"" +
                                (why.empty() ? "" : ": " + why))};
}

}  // namespace

CallResult CallResult::from_text(std::string text) {
  CallResult out{JsonValue()};
  out.text_ = std::move(text);
  out.parsed_ = false;
  return out;
}

const nlohmann::json& CallResult::result() const {
  if (!parsed_) {
    // Text the reader validated; should nlohmann ever disagree, the result reads as null.
    value_ = JsonValue(parse_validated(*text_).value_or(nlohmann::json()));
    parsed_ = true;
  }
  return std::get<0>(value_).get();
}

Endpoint::Endpoint(std::unique_ptr<framing::FrameReader> reader,
                   std::unique_ptr<framing::FrameWriter> writer, Options options)
    : reader_(std::move(reader)),
      writer_(std::move(writer)),
      options_(std::move(options)),
      outbox_(std::make_shared<detail::ReplyOutbox>()) {
  outbox_->send = [this](const nlohmann::json& id, const std::string& method,
                         const nlohmann::json* result, const RpcError* error) {
    return respond(id, method, result, error);
  };
}

Endpoint::Endpoint(std::unique_ptr<framing::FrameReader> reader,
                   std::unique_ptr<framing::FrameWriter> writer)
    : Endpoint(std::move(reader), std::move(writer), Options{}) {}

Endpoint::~Endpoint() {
  close();  // also ends deferred replies: none writes once close() returns
  for (std::thread& worker : workers_) {
    if (!worker.joinable()) continue;
    if (worker.get_id() == std::this_thread::get_id()) {
      worker.detach();  // destroyed from its own handler: nothing left to join
    } else {
      worker.join();
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
  // The new threads (a handler of theirs destroying the endpoint, or calling wait()) read
  // workers_ only after taking mutex_, so assigning them under it orders the assignment first.
  std::lock_guard lock(mutex_);
  for (int worker = 0; worker < 2; ++worker) {
    // Our own threads: SIGPIPE blocked once in each, so their writes need no per-write guard.
    workers_[worker] = std::thread([this, worker] {
      framing::block_sigpipe_in_this_thread();
      work(worker);
    });
  }
}

// ---- the endpoint's threads -----------------------------------------------------------

void Endpoint::work(int worker) {
  std::unique_lock lock(mutex_);
  // The handler this thread watches while idle (by suspensions_), and since when.
  std::uint64_t watched = 0;
  TimePoint watched_since;
  for (;;) {
    expire_async(lock);
    if (reading_holder_ == kNoWorker && !reading_done_) {
      // Free (at start, or handed over by a thread running a handler): this one reads. After
      // close() it only reports the end.
      reading_holder_ = worker;
      reading_suspended_ = false;
      read_while_holding(worker, lock);
      continue;
    }
    if (reading_done_ || closed_.load()) return;
    // Idle while the other thread reads or runs a handler it read. call_async() deadlines are
    // kept here. While handlers run in place of reading (armed), this thread looks every
    // reading_takeover: one that has run that long has reading taken over, so read-ahead,
    // back-pressure and the end of the stream do not wait for it. Disarmed once a look finds
    // that none ran since the last, so an idle endpoint's threads sleep.
    TimePoint wake = next_async_deadline().value_or(TimePoint::max());
    if (idle_armed_) {
      const TimePoint now = std::chrono::steady_clock::now();
      if (watched != suspensions_) {
        watched = suspensions_;
        watched_since = now;
      } else if (!reading_suspended_) {
        idle_armed_ = false;
      } else if (now - watched_since >= options_.reading_takeover) {
        need_reader();
        continue;
      }
      if (idle_armed_) wake = std::min(wake, watched_since + options_.reading_takeover);
    }
    idle_until_ = wake;
    if (wake == TimePoint::max()) {
      workers_changed_.wait(lock);
    } else {
      workers_changed_.wait_until(lock, wake);
    }
    idle_until_ = TimePoint::min();
  }
}

void Endpoint::read_while_holding(int worker, std::unique_lock<std::mutex>& lock) {
  while (reading_holder_ == worker) {
    if (closed_.load()) {  // our own close(): nothing more is read
      lock.unlock();
      finish(CloseReason{});
      lock.lock();
      return;
    }
    lock.unlock();
    framing::ReadResult frame = reader_->read();
    if (frame.status == framing::ReadStatus::kOversize &&
        options_.rules.receive.oversize != OnOversize::kClose && !closed_.load()) {
      // Skipped by the reader, which reads on (ReaderOptions::resume_after_oversize).
      const bool answer = options_.rules.receive.oversize == OnOversize::kAnswer;
      diagnose_dropped(Diagnostic::Kind::kOversize, dropped_oversize_,
                       frame.reason + (answer ? ": answered -32600" : ": skipped"));
      if (answer) answer_invalid("frame too large: " + frame.reason);
      lock.lock();
      continue;
    }
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
      lock.lock();
      return;
    }
    if (!closed_.load()) {
      record_frame(false, frame.body);
      handle_frame(worker, std::move(frame.body));
    }
    lock.lock();
  }
}

namespace {
std::optional<std::int64_t> decimal_id(const std::string& text) {
  // Only the exact text we send: no sign, no leading zero, at most 18 digits.
  if (text.empty() || text.size() > 18 || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  std::int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

IdKind kind_of(const nlohmann::json& id) {
  if (id.is_string()) return IdKind::kString;
  if (id.is_null()) return IdKind::kNull;
  return IdKind::kInteger;
}

const char* name_of(IdKind kind) {
  switch (kind) {
    case IdKind::kString: return "string";
    case IdKind::kNull: return "null";
    case IdKind::kInteger: break;
  }
  return "integer";
}
}  // namespace

void Endpoint::handle_frame(int worker, std::string body) {
  const WireRules& rules = options_.rules;
  ScanRules scan{rules.max_depth, rules.envelope.jsonrpc_optional,
                 rules.envelope.blank_method_invalid, contains(rules.accepted_ids, IdKind::kNull)};
  auto scanned = scan_envelope(body, scan);
  if (auto* problem = std::get_if<EnvelopeProblem>(&scanned)) {
    switch (problem->kind) {
      case EnvelopeProblem::Kind::kParseError:
        if (rules.receive.not_json == OnNotJson::kLog) {
          diagnose_dropped(Diagnostic::Kind::kParseError, dropped_not_json_,
                           "frame is not JSON, dropped: " + problem->reason);
          return;
        }
        diagnose(Diagnostic::Kind::kParseError, "frame is not JSON: " + problem->reason);
        send_error(nullptr,
                   RpcError(jsonrpc_code::kParseError, "Parse error: " + problem->reason));
        return;
      case EnvelopeProblem::Kind::kInvalidRequest: {
        diagnose(Diagnostic::Kind::kInvalidRequest, problem->reason);
        const nlohmann::json& id =
            rules.envelope.invalid_request_id_null ? nlohmann::json() : problem->id.get();
        send_error(id, with_reason(RpcError(jsonrpc_code::kInvalidRequest,
                                            "Invalid Request: " + problem->reason),
                                   problem->batch));
        return;
      }
      case EnvelopeProblem::Kind::kInvalidResponse:
        if (rules.receive.stray_response == OnStrayResponse::kAnswer) {
          // A side that sends no requests takes no response at all.
          diagnose(Diagnostic::Kind::kInvalidRequest, "a response sent to this side: " +
                                                          problem->reason);
          answer_invalid("a response sent to this side");
          return;
        }
        // Never answered; the call it was meant for fails now rather than at its deadline.
        fail_pending(problem->id, problem->reason);
        return;
    }
  }
  Received received{std::move(body), std::move(std::get<Envelope>(scanned))};
  if (received.envelope.jsonrpc_absent && !lenient_logged_) {
    lenient_logged_ = true;
    diagnose(Diagnostic::Kind::kLenientEnvelope,
             "a message without \"jsonrpc\" was taken, as the protocol allows (logged once)");
  }
  if (IdKind kind = kind_of(received.envelope.id.get());
      received.envelope.kind == Envelope::Kind::kRequest &&
      !contains(rules.accepted_ids, kind)) {
    std::string reason =
        std::string("id: this protocol does not accept ") + name_of(kind) + " ids";
    diagnose(Diagnostic::Kind::kInvalidRequest, reason);
    const nlohmann::json& id =
        rules.envelope.invalid_request_id_null ? nlohmann::json() : received.envelope.id.get();
    send_error(id, with_reason(RpcError(jsonrpc_code::kInvalidRequest, "Invalid Request: " + reason)));
    return;
  }
  if (received.envelope.kind == Envelope::Kind::kResponse) {
    handle_response(std::move(received));
    return;
  }
  accept_incoming(worker, std::move(received));
}

void Endpoint::accept_incoming(int worker, Received message) {
  const std::size_t bytes = message.frame.size();
  std::unique_lock lock(mutex_);
  for (;;) {
    if (closed_.load()) return;
    if (handler_thread_ == std::thread::id() && queue_.empty()) {
      run_in_place(worker, lock, message);
      return;
    }
    if (queue_.empty() || (queue_.size() < options_.max_queued &&
                           queued_bytes_ + bytes <= options_.max_queued_bytes)) {
      break;
    }
    room_changed_.wait(lock);  // full: the peer waits in the pipe
  }
  queued_bytes_ += bytes;
  queue_.push_back(std::move(message));
  lock.unlock();
  callers_changed_.notify_all();  // the thread running handlers may be waiting in call()
}

void Endpoint::run_in_place(int worker, std::unique_lock<std::mutex>& lock, Received& message) {
  // Reading pauses meanwhile unless calls are outstanding, whose responses must not wait for
  // it; the idle thread watches, and takes over if the handler runs long.
  handler_thread_ = std::this_thread::get_id();
  reading_suspended_ = true;
  ++suspensions_;
  bool arm = false;
  if (!pending_.empty()) {
    need_reader();
  } else if (!idle_armed_) {
    idle_armed_ = arm = true;
  }
  lock.unlock();
  if (arm) workers_changed_.notify_all();
  handle_incoming(message);
  lock.lock();
  // What the other thread read meanwhile (it took over reading), in arrival order.
  while (!closed_.load() && dispatch_one(lock)) {
  }
  handler_thread_ = std::thread::id();
  if (reading_holder_ == worker) reading_suspended_ = false;
}

void Endpoint::need_reader() {
  if (!reading_suspended_ || reading_done_) return;
  reading_holder_ = kNoWorker;  // the idle endpoint thread takes it
  reading_suspended_ = false;
  workers_changed_.notify_all();
}

std::optional<std::int64_t> Endpoint::own_id(const nlohmann::json& id) const {
  // Our ids are counters: sent as numbers or as their decimal text. Matched by kind and
  // value, or by string form (a number matches its decimal text) when the profile says so.
  const bool string_form = options_.rules.envelope.id_match == IdMatch::kStringForm;
  if (id.is_string()) {
    if (options_.rules.sent_ids != IdKind::kString && !string_form) return std::nullopt;
    return decimal_id(id.get_ref<const std::string&>());
  }
  if (options_.rules.sent_ids == IdKind::kString && !string_form) return std::nullopt;
  if (!id.is_number_integer()) return std::nullopt;
  if (id.is_number_unsigned() &&
      id.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
    return std::nullopt;
  }
  return id.get<std::int64_t>();
}

void Endpoint::fail_pending(const nlohmann::json& id, const std::string& reason) {
  Completions completions;
  if (auto own = own_id(id)) {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(*own);
    if (it != pending_.end() && !it->second.response && !it->second.unreadable) {
      if (it->second.done) {
        completions.emplace_back(std::move(it->second.done), unusable(it->second.method, reason));
        pending_.erase(it);
      } else {
        it->second.unreadable = reason;
        callers_changed_.notify_all();
      }
    }
  }
  complete(std::move(completions));
  diagnose(Diagnostic::Kind::kInvalidResponse,
           "response with id " + codec::snippet(id) + " cannot be used: " + reason);
}

void Endpoint::handle_response(Received response) {
  const nlohmann::json& id = response.envelope.id.get();
  std::string id_text = codec::snippet(id);
  if (auto own = own_id(id)) {
    std::unique_lock lock(mutex_);
    auto it = pending_.find(*own);
    if (it != pending_.end() && !it->second.response && !it->second.unreadable) {
      it->second.response = std::move(response);
      if (!it->second.done) {
        lock.unlock();  // the caller wakes to a free mutex
        callers_changed_.notify_all();
        return;
      }
      Pending async = std::move(it->second);
      pending_.erase(it);
      lock.unlock();
      Completions completions;
      completions.emplace_back(std::move(async.done), resolve(async.method, async));
      complete(std::move(completions));
      return;
    }
  }
  // Reported without the lock: the observer may call close(), call() or notify().
  if (options_.rules.receive.stray_response == OnStrayResponse::kAnswer) {
    diagnose(Diagnostic::Kind::kInvalidRequest,
             "a response (id " + id_text + ") sent to this side, which sends no requests");
    answer_invalid("a response sent to this side");
    return;
  }
  diagnose(Diagnostic::Kind::kUnknownResponseId,
           "response with id " + id_text + " matches no pending call");
}

void Endpoint::finish(const CloseReason& reason) {
  Completions completions;
  {
    std::lock_guard lock(mutex_);
    reading_done_ = true;
    if (!close_reason_) close_reason_ = reason;
    completions = take_async(Take::kAll);
    for (auto& [id, pending] : pending_) pending.disconnected = true;
  }
  callers_changed_.notify_all();
  workers_changed_.notify_all();
  room_changed_.notify_all();
  complete(std::move(completions));
  if (!close_observer_) return;
  try {
    close_observer_(*close_reason_);
  } catch (const std::exception& e) {
    diagnose(Diagnostic::Kind::kObserverFailed, std::string("close observer: ") + e.what());
  } catch (...) {
    diagnose(Diagnostic::Kind::kObserverFailed, "close observer threw");
  }
}

// ---- dispatching ----------------------------------------------------------------------

bool Endpoint::dispatch_one(std::unique_lock<std::mutex>& lock) {
  if (queue_.empty()) return false;
  Queued message = std::move(queue_.front());
  queue_.pop_front();
  queued_bytes_ -= message.frame.size();
  lock.unlock();
  room_changed_.notify_all();  // room in the queue for the reader
  handle_incoming(message);
  lock.lock();
  return true;
}

void Endpoint::handle_incoming(Queued& message) {
  const Envelope& envelope = message.envelope;
  Incoming incoming;
  incoming.method = envelope.method;
  if (envelope.kind == Envelope::Kind::kRequest) incoming.id = envelope.id;
  if (envelope.params) {
    incoming.params_text = envelope.params->in(message.frame);
    incoming.params = LazyJson::of_text(incoming.params_text);  // validated by the scan
  }
  if (!incoming.is_request()) {
    try {
      if (handler_) handler_(incoming);
    } catch (const std::exception& e) {
      diagnose(Diagnostic::Kind::kNotificationFailed, incoming.method + ": " + e.what());
    } catch (...) {
      diagnose(Diagnostic::Kind::kNotificationFailed, incoming.method + ": unknown exception");
    }
    return;
  }
  // Exactly one response, whatever the handler does, unless it deferred it to a Reply.
  bool deferred = false;
  incoming.deferrer = [this, &incoming, &deferred]() -> Reply {
    if (deferred) return Reply();
    deferred = true;
    return Reply(outbox_, *incoming.id, incoming.method);
  };
  std::optional<JsonValue> result;
  std::optional<RpcError> error;
  try {
    if (!handler_) {
      throw RpcError(jsonrpc_code::kMethodNotFound, "Method not found: " + incoming.method);
    }
    result = handler_(incoming);
  } catch (const RpcError& e) {
    error = e;
  } catch (const std::exception& e) {
    error = RpcError(jsonrpc_code::kInternalError,
                     "Internal error in " + incoming.method + ": " + e.what());
  } catch (...) {
    error = RpcError(jsonrpc_code::kInternalError, "Internal error in " + incoming.method);
  }
  if (deferred) {
    if (error) {
      diagnose(Diagnostic::Kind::kObserverFailed,
               incoming.method + ": threw after deferring its reply: " + error->message());
    }
    return;
  }
  respond(incoming.id->get(), incoming.method, result ? &result->get() : nullptr,
          error ? &*error : nullptr);
}

bool Endpoint::respond(const nlohmann::json& id, const std::string& method,
                       const nlohmann::json* result, const RpcError* error) {
  bool sent = false;
  if (error != nullptr) {
    sent = send_error(id, with_reason(*error));
  } else {
    sent = send_text(response_frame(id, false, result != nullptr ? *result : nlohmann::json()));
  }
  // Exactly one response, even when that one could not be written (e.g. a result over the
  // frame limit): a short internal error takes its place.
  if (!sent) {
    sent = send_error(id, with_reason(RpcError(jsonrpc_code::kInternalError,
                                               "Internal error in " + method +
                                                   ": the response could not be sent")));
  }
  return sent;
}

// ---- sending --------------------------------------------------------------------------

CallResult Endpoint::call(std::string_view method, std::optional<JsonValue> params,
                          std::optional<std::chrono::milliseconds> deadline) {
  std::optional<std::string> text = params_text(params);
  return call_encoded(method, text, deadline);
}

CallResult Endpoint::call_encoded(std::string_view method,
                                  std::optional<std::string_view> params_json,
                                  std::optional<std::chrono::milliseconds> deadline) {
  auto timeout = deadline ? *deadline : options_.default_deadline.value_or(kNoDeadline);
  auto until = std::chrono::steady_clock::now() + timeout;
  std::int64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    if (reading_done_ || closed_.load()) return disconnected(method, false);
    id = next_id_++;
    pending_[id];
    need_reader();  // a handler that read its own request is not reading now
  }
  if (!send_text(request_frame(id, method, params_json))) {
    std::lock_guard lock(mutex_);
    pending_.erase(id);
    return send_failed(method);
  }

  std::unique_lock lock(mutex_);
  const bool pump = runs_handlers();
  for (;;) {
    Pending& pending = pending_[id];
    if (pending.response || pending.unreadable) break;
    if (pending.disconnected || closed_.load()) {
      pending_.erase(id);
      return disconnected(method, true);
    }
    // The thread running handlers keeps serving the peer while it waits (nested requests), but
    // only until the deadline: past it, wait_until() below reports the timeout at once. It
    // also keeps the deadlines of call_async() requests.
    if (pump) {
      expire_async(lock);
      if (std::chrono::steady_clock::now() < until && dispatch_one(lock)) continue;
    }
    auto wake = until;
    if (auto next = next_async_deadline(); pump && next && *next < wake) wake = *next;
    if (callers_changed_.wait_until(lock, wake) == std::cv_status::timeout && wake == until &&
        !pending_[id].response && !pending_[id].unreadable) {
      pending_.erase(id);
      return timed_out(method, timeout);
    }
  }
  Pending done = std::move(pending_[id]);
  pending_.erase(id);
  lock.unlock();
  return resolve(method, done);
}

void Endpoint::call_async(std::string_view method, std::optional<JsonValue> params,
                          Completion done, std::optional<std::chrono::milliseconds> deadline) {
  std::optional<std::string> text = params_text(params);
  call_async_encoded(method, text, std::move(done), deadline);
}

void Endpoint::call_async_encoded(std::string_view method,
                                  std::optional<std::string_view> params_json, Completion done,
                                  std::optional<std::chrono::milliseconds> deadline) {
  auto timeout = deadline ? *deadline : options_.default_deadline.value_or(kNoDeadline);
  std::int64_t id = 0;
  Completions completions;
  bool sooner = false;  // than the idle endpoint thread means to wake
  {
    std::lock_guard lock(mutex_);
    if (reading_done_ || closed_.load()) {
      completions.emplace_back(std::move(done), disconnected(method, false));
    } else {
      id = next_id_++;
      Pending& pending = pending_[id];
      pending.done = std::move(done);
      pending.method = std::string(method);
      pending.timeout = timeout;
      pending.until = std::chrono::steady_clock::now() + timeout;
      sooner = pending.until < idle_until_;
      need_reader();
    }
  }
  if (sooner) workers_changed_.notify_all();  // the idle thread keeps the new deadline
  if (!completions.empty()) {
    complete(std::move(completions));
    return;
  }
  if (send_text(request_frame(id, method, params_json))) return;
  {
    // Unless the response, the deadline or the end of the connection has taken it already.
    std::lock_guard lock(mutex_);
    auto it = pending_.find(id);
    if (it == pending_.end()) return;
    completions.emplace_back(std::move(it->second.done), send_failed(method));
    pending_.erase(it);
  }
  complete(std::move(completions));
}

std::string Endpoint::request_frame(std::int64_t id, std::string_view method,
                                    std::optional<std::string_view> params_json) const {
  // The members in nlohmann's key order, so a frame reads the same whichever way it was made.
  std::string frame = "{\"id\":";
  if (options_.rules.sent_ids == IdKind::kString) {
    codec::write_json(frame, std::to_string(id));
  } else {
    codec::write_json(frame, id);
  }
  frame += ',';
  append_call(frame, method, params_json);
  return frame;
}

Endpoint::Completions Endpoint::take_async(Take which) {
  Completions out;
  auto now = std::chrono::steady_clock::now();
  for (auto it = pending_.begin(); it != pending_.end();) {
    Pending& p = it->second;
    if (!p.done || (which == Take::kOverdue && p.until > now)) {
      ++it;
      continue;
    }
    out.emplace_back(std::move(p.done), which == Take::kAll ? disconnected(p.method, true)
                                                            : timed_out(p.method, p.timeout));
    it = pending_.erase(it);
  }
  return out;
}

std::optional<std::chrono::steady_clock::time_point> Endpoint::next_async_deadline() const {
  std::optional<std::chrono::steady_clock::time_point> next;
  for (const auto& [id, p] : pending_) {
    if (p.done && (!next || p.until < *next)) next = p.until;
  }
  return next;
}

void Endpoint::expire_async(std::unique_lock<std::mutex>& lock) {
  Completions overdue = take_async(Take::kOverdue);
  if (overdue.empty()) return;
  lock.unlock();
  complete(std::move(overdue));
  lock.lock();
}

// Completions are the application's code: one that throws must not end the thread it runs on.
void Endpoint::complete(Completions completions) {
  for (auto& [done, result] : completions) {
    try {
      done(std::move(result));
    } catch (const std::exception& e) {
      diagnose(Diagnostic::Kind::kObserverFailed, std::string("call completion: ") + e.what());
    } catch (...) {
      diagnose(Diagnostic::Kind::kObserverFailed, "call completion threw");
    }
  }
}

// Parsed here, on the thread that takes the result, from text the reader validated.
CallResult Endpoint::resolve(std::string_view method, const Pending& done) const {
  if (done.unreadable) return unusable(method, *done.unreadable);
  const Received& response = *done.response;
  if (!response.envelope.error) {
    // Kept as text: a typed call decodes it straight into its struct.
    return CallResult::from_text(std::string(response.envelope.result->in(response.frame)));
  }
  std::optional<nlohmann::json> value = parse_validated(response.envelope.error->in(response.frame));
  if (!value) return unusable(method, "");
  return CallError{CallError::Kind::kRemote, RpcError::from_json(*value, options_.rules.error_objects)};
}

bool Endpoint::notify(std::string_view method, std::optional<JsonValue> params) {
  if (closed_.load()) return false;
  std::optional<std::string> text = params_text(params);
  return notify_encoded(method, text);
}

namespace {
std::string notification_frame(std::string_view method,
                               std::optional<std::string_view> params_json) {
  std::string frame = "{";
  append_call(frame, method, params_json);
  return frame;
}
}  // namespace

bool Endpoint::notify_encoded(std::string_view method,
                              std::optional<std::string_view> params_json) {
  if (closed_.load()) return false;
  return send_text(notification_frame(method, params_json));
}

bool Endpoint::notify_encoded_many(std::span<const EncodedNotification> notifications) {
  if (closed_.load()) return false;
  std::vector<std::string> frames;
  frames.reserve(notifications.size());
  for (const EncodedNotification& n : notifications) {
    frames.push_back(notification_frame(n.method, n.params_json));
  }
  std::vector<std::string_view> bodies(frames.begin(), frames.end());
  return send_texts(bodies);
}

bool Endpoint::send_text(std::string_view body) { return send_texts({&body, 1}); }

bool Endpoint::send_texts(std::span<const std::string_view> bodies) {
  auto write = [&] {
    return bodies.size() == 1 ? writer_->write(bodies.front()) : writer_->write_many(bodies);
  };
  framing::WriteResult written;
  if (frame_observer_) {
    // Observed in order, just before the write: the peer cannot answer a frame it has not
    // been sent yet.
    std::lock_guard lock(observed_write_mutex_);
    for (std::string_view body : bodies) record_frame(true, body);
    written = write();
  } else {
    written = write();
  }
  if (!written.ok()) {
    diagnose(Diagnostic::Kind::kWriteFailed, written.reason);
    return false;
  }
  return true;
}

bool Endpoint::send_error(const nlohmann::json& id, const RpcError& error) {
  return send_text(response_frame(id, true, error.to_json()));
}

RpcError Endpoint::with_reason(const RpcError& error, bool batch) const {
  const ErrorReasons& reasons = options_.rules.error_data;
  if (reasons.member.empty() || error.data()) return error;
  std::string_view reason = batch ? reasons.batch : reasons.for_code(error.code());
  if (reason.empty()) return error;
  nlohmann::json data = nlohmann::json::object();
  data[std::string(reasons.member)] = std::string(reason);
  return RpcError(error.code(), error.message(), JsonValue(std::move(data)));
}

void Endpoint::answer_invalid(const std::string& reason, bool batch) {
  send_error(nullptr, with_reason(RpcError(jsonrpc_code::kInvalidRequest,
                                           "Invalid Request: " + reason),
                                  batch));
}

void Endpoint::diagnose_dropped(Diagnostic::Kind kind, std::uint64_t& count,
                                const std::string& what) {
  ++count;
  if (count <= 10) {
    diagnose(kind, what + (count == 10 ? " (more are counted, and logged at every power of ten)"
                                       : ""));
    return;
  }
  for (std::uint64_t at = 100; at <= count && at != 0; at *= 10) {
    if (at == count) {
      diagnose(kind, std::to_string(count) + " such frames so far; the last: " + what);
      return;
    }
    if (at > UINT64_MAX / 10) break;
  }
}

// ---- closing --------------------------------------------------------------------------

void Endpoint::close() {
  if (closed_.exchange(true)) return;
  Completions completions;
  {
    std::lock_guard lock(mutex_);
    if (!close_reason_) close_reason_ = CloseReason{};
    completions = take_async(Take::kAll);
    for (auto& [id, pending] : pending_) pending.disconnected = true;
  }
  callers_changed_.notify_all();
  workers_changed_.notify_all();
  room_changed_.notify_all();
  {
    std::lock_guard lock(outbox_->mutex);  // waits out a reply being sent
    outbox_->send = nullptr;
  }
  if (options_.interrupt_reader) options_.interrupt_reader();
  complete(std::move(completions));
}

bool Endpoint::wait_done_reading(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  need_reader();  // a handler that read its own request is not reading now
  return callers_changed_.wait_for(lock, timeout,
                                   [this] { return reading_done_ || closed_.load(); });
}

CloseReason Endpoint::wait() {
  for (std::thread& worker : workers_) {
    if (worker.joinable() && worker.get_id() != std::this_thread::get_id()) worker.join();
  }
  std::lock_guard lock(mutex_);
  return close_reason_.value_or(CloseReason{});
}

// Observers are the application's code, run on the endpoint's threads: one that throws
// must not take the connection (or the process) down with it.
void Endpoint::diagnose(Diagnostic::Kind kind, std::string detail) {
  if (!diagnostic_observer_) return;
  try {
    diagnostic_observer_(Diagnostic{kind, std::move(detail)});
  } catch (...) {  // nowhere left to report it
  }
}

void Endpoint::record_frame(bool outgoing, std::string_view body) {
  if (!frame_observer_) return;
  try {
    frame_observer_(outgoing, body);
  } catch (const std::exception& e) {
    diagnose(Diagnostic::Kind::kObserverFailed, std::string("frame observer: ") + e.what());
  } catch (...) {
    diagnose(Diagnostic::Kind::kObserverFailed, "frame observer threw");
  }
}

}  // namespace rpckit
