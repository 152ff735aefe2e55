// What goes out: requests (waiting in call(), or parked in call_async()), notifications,
// written as text in nlohmann's key order, and the call_async() deadlines.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "call_errors.hpp"
#include "rpckit/codec/json_writer.hpp"
#include "rpckit/endpoint/cancellation.hpp"
#include "rpckit/endpoint/endpoint.hpp"

namespace rpckit {
namespace {

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

std::string notification_frame(std::string_view method,
                               std::optional<std::string_view> params_json) {
  std::string frame = "{";
  append_call(frame, method, params_json);
  return frame;
}

}  // namespace

CallResult Endpoint::call(std::string_view method, const std::optional<JsonValue>& params,
                          const CallOptions& options) {
  std::optional<std::string> text = params_text(params);
  return call_encoded(method, text, options);
}

CallResult Endpoint::call_encoded(std::string_view method,
                                  std::optional<std::string_view> params_json,
                                  const CallOptions& options) {
  const auto timeout = options.deadline().value_or(options_.default_deadline.value_or(kNoDeadline));
  const TimePoint sent = std::chrono::steady_clock::now();
  std::int64_t id = 0;
  bool reads = false;  // this thread reads its answer when the role is parked for it
  {
    std::lock_guard lock(mutex_);
    if (reading_done_ || closed_.load()) return detail::disconnected(method, false);
    id = pending_.open(std::string(method), timeout, sent + timeout);
    arm_progress(id, options, sent);
    reads = caller_may_read();
    if (reads) lease_until_ = std::max(lease_until_, sent + options_.reading_lease);
    // A handler that read its own request is not reading now; a role parked for this call
    // stays parked.
    if (!reads || reading_holder_ != kParked) need_reader();
  }
  if (!send_text(call_frame(id, method, params_json, options))) {
    std::lock_guard lock(mutex_);
    pending_.erase(id);
    return detail::send_failed(method);
  }

  std::unique_lock lock(mutex_);
  const bool pump = runs_handlers();
  const auto overdue = [&] {
    pending_.erase(id);
    lock.unlock();
    cancel_overdue(id, method, timeout);
    return detail::timed_out(method, timeout);
  };
  for (;;) {
    detail::PendingCall& pending = *pending_.find(id);
    if (pending.settled()) break;
    if (pending.disconnected || closed_.load()) {
      pending_.erase(id);
      return detail::disconnected(method, true);
    }
    // The thread running handlers keeps serving the peer while it waits (nested requests), but
    // only until the deadline: past it, wait_until() below reports the timeout at once. It
    // also keeps the deadlines of call_async() requests. The deadline is read afresh each
    // time: a progress report may have moved it (CallOptions::reset_on_progress).
    if (pump) {
      expire_async(lock);
      if (std::chrono::steady_clock::now() < pending.until && dispatch_one(lock)) continue;
    }
    if (reading_holder_ == kParked && !reading_done_) {
      if (!reads) {
        need_reader();  // parked since this call began: an endpoint thread reads for it
      } else {
        if (std::chrono::steady_clock::now() >= pending.until) return overdue();
        read_as_caller(lock, pending.until);
        continue;
      }
    }
    const TimePoint until = pending_.find(id)->until;
    auto wake = until;
    if (auto next = pending_.next_async_deadline(); pump && next && *next < wake) wake = *next;
    if (callers_changed_.wait_until(lock, wake) == std::cv_status::timeout &&
        pending_.find(id)->until <= std::chrono::steady_clock::now() &&
        !pending_.find(id)->settled()) {
      return overdue();
    }
  }
  detail::PendingCall done = std::move(*pending_.find(id));
  pending_.erase(id);
  lock.unlock();
  return resolve(method, done);
}

AsyncCall Endpoint::call_async(std::string_view method, const std::optional<JsonValue>& params,
                               Completion done, const CallOptions& options) {
  std::optional<std::string> text = params_text(params);
  return call_async_encoded(method, text, std::move(done), options);
}

AsyncCall Endpoint::call_async_encoded(std::string_view method,
                                       std::optional<std::string_view> params_json, Completion done,
                                       const CallOptions& options) {
  const auto timeout = options.deadline().value_or(options_.default_deadline.value_or(kNoDeadline));
  std::int64_t id = 0;
  Completions completions;
  bool sooner = false;  // than the idle endpoint thread means to wake
  {
    std::lock_guard lock(mutex_);
    if (reading_done_ || closed_.load()) {
      completions.emplace_back(std::move(done), detail::disconnected(method, false));
    } else {
      const TimePoint sent = std::chrono::steady_clock::now();
      id = pending_.open_async(std::move(done), std::string(method), timeout, sent + timeout);
      arm_progress(id, options, sent);
      const TimePoint until = pending_.find(id)->until;
      sooner = until < idle_until_[0] || until < idle_until_[1];
      need_reader();
    }
  }
  if (sooner) workers_changed_.notify_all();  // the idle thread keeps the new deadline
  if (!completions.empty()) {
    complete(std::move(completions));
    return {};
  }
  if (send_text(call_frame(id, method, params_json, options))) return {canceller_, id};
  {
    // Unless the response, the deadline, a cancel or the end of the connection has taken it.
    std::lock_guard lock(mutex_);
    detail::PendingCall* call = pending_.find(id);
    if (call == nullptr) return {};
    completions.emplace_back(std::move(call->done), detail::send_failed(method));
    pending_.erase(id);
  }
  complete(std::move(completions));
  return {};
}

std::string Endpoint::request_frame(std::int64_t id, std::string_view method,
                                    std::optional<std::string_view> params_json) const {
  // The members in nlohmann's key order, so a frame reads the same whichever way it was made.
  std::string frame = "{\"id\":" + pending_.id_text(id) + ",";
  append_call(frame, method, params_json);
  return frame;
}

void Endpoint::arm_progress(std::int64_t id, const CallOptions& options, TimePoint sent) {
  if (!options.wants_progress() || options_.rules.progress.method.empty()) return;
  detail::PendingCall& call = *pending_.find(id);
  if (options.progress_observer()) {
    call.progress_observer =
        std::make_shared<const CallOptions::ProgressObserver>(options.progress_observer());
  }
  if (options.max_total()) {
    call.resets_on_progress = true;
    call.latest = sent + *options.max_total();
    call.until = std::min(call.until, call.latest);
  }
}

std::string Endpoint::call_frame(std::int64_t id, std::string_view method,
                                 std::optional<std::string_view> params_json,
                                 const CallOptions& options) const {
  const ProgressRules& progress = options_.rules.progress;
  if (!options.wants_progress() || progress.method.empty()) {
    return request_frame(id, method, params_json);
  }
  // The request's id is its token, at the profile's path in its params ("_meta.progressToken"),
  // beside what the caller put there. Params that are not an object cannot carry one.
  nlohmann::json params =
      params_json ? nlohmann::json::parse(*params_json, nullptr, false) : nlohmann::json::object();
  if (!params.is_object()) return request_frame(id, method, params_json);
  nlohmann::json* at = &params;
  std::string_view path = progress.request_token;
  while (at->is_object()) {
    const std::size_t dot = path.find('.');
    nlohmann::json& member = (*at)[std::string(path.substr(0, dot))];
    if (dot == std::string_view::npos) {
      member = nlohmann::json::parse(pending_.id_text(id));
      break;
    }
    if (member.is_null()) member = nlohmann::json::object();
    at = &member;
    path.remove_prefix(dot + 1);
  }
  const std::string text = params.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return request_frame(id, method, text);
}

Endpoint::Completions Endpoint::take_async_all() {
  Completions out;
  for (auto& [done, error] : pending_.take_all_async(
           [](const detail::PendingCall& call) { return detail::disconnected(call.method, true); })) {
    out.emplace_back(std::move(done), std::move(error));
  }
  return out;
}

void Endpoint::expire_async(std::unique_lock<std::mutex>& lock) {
  Completions overdue;
  struct GivenUp {
    std::int64_t id;
    std::string method;
    std::chrono::milliseconds timeout;
  };
  std::vector<GivenUp> given_up;  // to cancel, once the lock is released
  for (auto& [done, error] : pending_.take_overdue_async(
           std::chrono::steady_clock::now(), [&given_up](const detail::PendingCall& call) {
             given_up.push_back(GivenUp{call.id, call.method, call.timeout});
             return detail::timed_out(call.method, call.timeout);
           })) {
    overdue.emplace_back(std::move(done), std::move(error));
  }
  if (overdue.empty()) return;
  if (lease_watcher_ != kNoWorker &&
      workers_[lease_watcher_].get_id() == std::this_thread::get_id()) {
    // Busy with completions (which may block, or call()): the other endpoint thread watches.
    lease_watcher_ = kNoWorker;
    lease_watch_ = TimePoint::max();
    workers_changed_.notify_all();
  }
  lock.unlock();
  for (const GivenUp& call : given_up) cancel_overdue(call.id, call.method, call.timeout);
  complete(std::move(overdue));
  lock.lock();
}

void Endpoint::send_cancel(std::int64_t id, std::string_view method, std::string_view reason) {
  const CancelRules& cancel = options_.rules.cancel;
  if (cancel.method.empty() || method == cancel.uncancellable) return;
  std::string params = "{";
  codec::write_json(params, cancel.id_member);
  params += ':' + pending_.id_text(id);
  if (!cancel.reason_member.empty()) {
    params += ',';
    codec::write_json(params, cancel.reason_member);
    params += ':';
    codec::write_json(params, reason);
  }
  params += '}';
  notify_encoded(cancel.method, params);
}

void Endpoint::cancel_overdue(std::int64_t id, std::string_view method,
                              std::chrono::milliseconds timeout) {
  if (!options_.rules.cancel.on_timeout) return;
  send_cancel(
      id, method,
      "no answer to " + std::string(method) + " within " + std::to_string(timeout.count()) + " ms");
}

std::optional<std::pair<Endpoint::Completion, CallResult>> Endpoint::give_up(
    std::int64_t id, std::string_view reason) {
  Completion done;
  std::string method;
  {
    std::lock_guard lock(mutex_);
    detail::PendingCall* call = pending_.find(id);
    if (call == nullptr || !call->done) return std::nullopt;  // answered, expired or closed
    done = std::move(call->done);
    method = std::move(call->method);
    pending_.erase(id);
  }
  send_cancel(id, method, reason);
  return std::pair{std::move(done), CallResult(detail::cancelled(method, reason))};
}

// Completions are the application's code: one that throws must not end the thread it runs on.

void Endpoint::complete(Completions&& completions) {
  // Not part of any request, even when run on a handler's thread waiting in call().
  detail::CurrentRequestScope no_request(nullptr);
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

bool Endpoint::notify(std::string_view method, const std::optional<JsonValue>& params) {
  if (closed_.load()) return false;
  std::optional<std::string> text = params_text(params);
  return notify_encoded(method, text);
}

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

}  // namespace rpckit
