// What arrives, by JSON-RPC's rules and the profile's (WireRules): requests and notifications
// to the handler, responses to the calls they answer, and the answers the endpoint gives
// itself to input it cannot take (-32700, -32600, with the profile's ids and error data).
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "call_errors.hpp"
#include "in_flight.hpp"
#include "reply_outbox.hpp"
#include "rpckit/codec/codec.hpp"
#include "rpckit/codec/json_reader.hpp"
#include "rpckit/endpoint/endpoint.hpp"
#include "validated_json.hpp"

namespace rpckit {
namespace {

// `omit_null_id`: an unknown (null) id is left out rather than written as null.
std::string response_frame(const nlohmann::json& id, bool is_error, const nlohmann::json& value,
                           bool omit_null_id) {
  constexpr auto kReplace = nlohmann::json::error_handler_t::replace;
  std::string frame = "{";
  if (is_error) frame += "\"error\":" + value.dump(-1, ' ', false, kReplace) + ",";
  if (!(omit_null_id && id.is_null())) frame += "\"id\":" + id.dump(-1, ' ', false, kReplace) + ",";
  frame += "\"jsonrpc\":\"2.0\"";
  if (!is_error) frame += ",\"result\":" + value.dump(-1, ' ', false, kReplace);
  frame += '}';
  return frame;
}

// Text scan_envelope() has validated (depth and numbers within limits), so nothing that walks
// the result recurses deeper than max_depth. Never throws: should nlohmann ever disagree with
// the scan, the value is treated as unparseable rather than ending the thread.

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

// The members of a notification's params object, each handed to `member` (which reads or
// skips its value); false when the params are absent or not an object. Only what `member`
// reads is built: on the reading thread, params as large as the frame cap must not become a
// DOM. Never throws: the scan validated the text already; should a limit still differ, the
// params are taken as unreadable.
template <class Member>
bool read_members(const detail::ReceivedFrame& notification, std::size_t max_depth,
                  Member&& member) {
  if (!notification.envelope.params) return false;
  try {
    codec::JsonReader reader(notification.envelope.params->in(notification.frame),
                             {.max_depth = max_depth});
    if (reader.peek() != codec::JsonReader::Kind::kObject) return false;
    reader.begin_object();
    std::string_view key;
    while (reader.next_member(key)) member(key, reader);
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

// A member naming a request by its id: a string, or an integer written as an id is (7, not
// 7.0 or 7e0); nullopt for anything else (the last member of a name counts, as when parsed).
std::optional<nlohmann::json> read_id(codec::JsonReader& reader) {
  const codec::JsonReader::Kind kind = reader.peek();
  if (kind == codec::JsonReader::Kind::kString) {
    std::string text;
    reader.read_string(text);
    return nlohmann::json(std::move(text));
  }
  if (kind == codec::JsonReader::Kind::kNumber) {
    nlohmann::json number = nlohmann::json::parse(reader.read_number());
    if (number.is_number_integer()) return number;
    return std::nullopt;
  }
  reader.skip_value();
  return std::nullopt;
}

}  // namespace

ScanRules Endpoint::scan_rules() const {
  const WireRules& rules = options_.rules;
  return {rules.max_depth, rules.envelope.jsonrpc_optional, rules.envelope.blank_method_invalid,
          contains(rules.accepted_ids, IdKind::kNull)};
}

void Endpoint::handle_frame(int worker, std::string body) {
  const WireRules& rules = options_.rules;
  auto scanned = scan_envelope(body, scan_rules());
  if (auto* problem = std::get_if<EnvelopeProblem>(&scanned)) {
    switch (problem->kind) {
      case EnvelopeProblem::Kind::kParseError:
        if (rules.receive.not_json == OnNotJson::kLog) {
          diagnose_dropped(Diagnostic::Kind::kParseError, dropped_not_json_,
                           "frame is not JSON, dropped: " + problem->reason);
          return;
        }
        // Answered every time; logged at a falling rate, as a flood of them may come.
        diagnose_dropped(Diagnostic::Kind::kParseError, dropped_not_json_,
                         "frame is not JSON: " + problem->reason);
        send_error(nullptr, with_reason(RpcError(jsonrpc_code::kParseError,
                                                 "Parse error: " + problem->reason)));
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
  Received received{std::move(body), std::move(std::get<Envelope>(scanned)), nullptr, nullptr};
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
  if (in_flight_) {
    // Here, on the reading thread: a cancel must reach a request queued or running.
    const Envelope& envelope = received.envelope;
    if (envelope.kind == Envelope::Kind::kRequest &&
        envelope.method != rules.cancel.uncancellable) {
      received.cancellation = in_flight_->open(envelope.id.get().dump());
    } else if (envelope.kind == Envelope::Kind::kNotification &&
               envelope.method == rules.cancel.method) {
      note_cancel(received);  // and handled as any notification: the application may log it
    }
  }
  if (received.envelope.kind == Envelope::Kind::kNotification && !rules.progress.method.empty() &&
      received.envelope.method == rules.progress.method) {
    note_progress(received);  // here too: a handler that runs long must not delay the deadline
  }
  accept_incoming(worker, std::move(received));
}

void Endpoint::note_cancel(const Received& notification) {
  // One that names no request in flight, or names it wrongly, is ignored (MCP: "SHOULD
  // ignore"): the request finished first, or the peer is confused; neither is an error.
  const CancelRules& cancel = options_.rules.cancel;
  std::optional<nlohmann::json> id;
  std::string reason;
  const bool read = read_members(
      notification, options_.rules.max_depth, [&](std::string_view key, codec::JsonReader& reader) {
        if (key == cancel.id_member) {
          id = read_id(reader);
        } else if (!cancel.reason_member.empty() && key == cancel.reason_member &&
                   reader.peek() == codec::JsonReader::Kind::kString) {
          reader.read_string(reason);
        } else {
          if (!cancel.reason_member.empty() && key == cancel.reason_member) reason.clear();
          reader.skip_value();
        }
      });
  if (read && id) in_flight_->cancel(id->dump(), std::move(reason));
}

void Endpoint::note_progress(Received& notification) {
  // A token that names no call of ours that asked for progress: an ordinary notification.
  const std::string_view token_member = options_.rules.progress.token_member;
  std::optional<nlohmann::json> token;
  const bool read = read_members(notification, options_.rules.max_depth,
                                 [&](std::string_view key, codec::JsonReader& reader) {
                                   if (key == token_member) {
                                     token = read_id(reader);
                                   } else {
                                     reader.skip_value();
                                   }
                                 });
  if (!read || !token) return;
  std::optional<std::int64_t> own = pending_.own_id(*token);
  if (!own) return;
  std::lock_guard lock(mutex_);
  notification.progress_observer = pending_.progressed(*own, std::chrono::steady_clock::now());
}

void Endpoint::fail_pending(const nlohmann::json& id, const std::string& reason) {
  Completions completions;
  if (auto own = pending_.own_id(id)) {
    std::lock_guard lock(mutex_);
    detail::PendingCall* call = pending_.find(*own);
    if (call != nullptr && !call->settled()) {
      if (call->done) {
        completions.emplace_back(std::move(call->done), detail::unusable(call->method, reason));
        pending_.erase(*own);
      } else {
        call->unreadable = reason;
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
  if (auto own = pending_.own_id(id)) {
    if (pending_.in_other_form(id)) {
      // Accepted (the profile's ids.match), yet not the id as sent: the peer's deviation.
      diagnose_dropped(Diagnostic::Kind::kLenientEnvelope, other_form_ids_,
                       "response id " + id_text + " is not the request's id as sent; matched "
                       "by its string form");
    }
    std::unique_lock lock(mutex_);
    detail::PendingCall* call = pending_.find(*own);
    if (call != nullptr && !call->settled()) {
      call->response = std::move(response);
      if (!call->done) {
        lock.unlock();  // the caller wakes to a free mutex
        callers_changed_.notify_all();
        return;
      }
      detail::PendingCall async = std::move(*call);
      pending_.erase(*own);
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
  // Logged at a falling rate: a flood of them may come.
  diagnose_dropped(Diagnostic::Kind::kUnknownResponseId, stray_responses_,
                   "response with id " + id_text + " matches no pending call");
}

void Endpoint::handle_incoming(Received& message) {
  const Envelope& envelope = message.envelope;
  Incoming incoming;
  incoming.method = envelope.method;
  if (envelope.kind == Envelope::Kind::kRequest) incoming.id = envelope.id;
  // Cancelled while it waited in the queue: not run, not answered.
  if (message.cancellation && message.cancellation->requested()) {
    in_flight_->close(envelope.id.get().dump(), message.cancellation.get());
    return;
  }
  incoming.cancellation = message.cancellation;
  if (envelope.params) {
    incoming.params_text = envelope.params->in(message.frame);
    incoming.params = LazyJson::of_text(incoming.params_text);  // validated by the scan
  }
  if (!incoming.is_request()) {
    if (message.progress_observer) {  // a report on a call that has an observer for it
      try {
        detail::CurrentRequestScope current(nullptr);
        (*message.progress_observer)(incoming);
      } catch (const std::exception& e) {
        diagnose(Diagnostic::Kind::kObserverFailed, "progress observer: " + std::string(e.what()));
      } catch (...) {
        diagnose(Diagnostic::Kind::kObserverFailed, "progress observer threw");
      }
      return;
    }
    try {
      detail::CurrentRequestScope current(nullptr);  // no request: nothing to cancel
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
  incoming.deferrer = [this, &incoming, &deferred, &message]() -> Reply {
    if (deferred) return Reply();
    deferred = true;
    return Reply(outbox_, *incoming.id, incoming.method, message.cancellation);
  };
  std::optional<JsonValue> result;
  std::optional<RpcError> error;
  try {
    if (!handler_) {
      throw RpcError(jsonrpc_code::kMethodNotFound, "Method not found: " + incoming.method);
    }
    detail::CurrentRequestScope current(incoming.cancellation, &incoming.deferrer, incoming.method);
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
  if (message.cancellation) {
    in_flight_->close(incoming.id->get().dump(), message.cancellation.get());
    if (message.cancellation->requested()) return;  // the peer no longer waits for it
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
    sent = send_text(response_frame(id, false, result != nullptr ? *result : nlohmann::json(),
                                    options_.rules.envelope.unknown_id_omitted));
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

CallResult Endpoint::resolve(std::string_view method, const detail::PendingCall& done) const {
  if (done.unreadable) return detail::unusable(method, *done.unreadable);
  const Received& response = *done.response;
  if (!response.envelope.error) {
    // Kept as text: a typed call decodes it straight into its struct.
    return CallResult::from_text(std::string(response.envelope.result->in(response.frame)));
  }
  std::optional<nlohmann::json> value =
      detail::parse_validated(response.envelope.error->in(response.frame));
  if (!value) return detail::unusable(method, "");
  return CallError{CallError::Kind::kRemote, RpcError::from_json(*value, options_.rules.error_objects)};
}

bool Endpoint::send_error(const nlohmann::json& id, const RpcError& error) {
  return send_text(
      response_frame(id, true, error.to_json(), options_.rules.envelope.unknown_id_omitted));
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

namespace {

// What the `count`-th of a flood says, or nullopt when it is not logged: the first ten, then
// the 100th, 1000th, ...
std::optional<std::string> at_falling_rate(std::uint64_t count, const std::string& what) {
  if (count <= 10) {
    return what + (count == 10 ? " (more are counted, and logged at every power of ten)" : "");
  }
  for (std::uint64_t at = 100; at <= count && at != 0; at *= 10) {
    if (at == count) return std::to_string(count) + " such frames so far; the last: " + what;
    if (at > UINT64_MAX / 10) break;
  }
  return std::nullopt;
}

}  // namespace

void Endpoint::diagnose_dropped(Diagnostic::Kind kind, std::uint64_t& count,
                                const std::string& what) {
  if (auto line = at_falling_rate(++count, what)) diagnose(kind, std::move(*line));
}

void Endpoint::report(Diagnostic::Kind kind, const std::string& detail) {
  if (auto line = at_falling_rate(reported_.fetch_add(1) + 1, detail)) {
    diagnose(kind, std::move(*line));
  }
}

}  // namespace rpckit
