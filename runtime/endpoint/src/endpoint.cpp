// Endpoint: its lifetime (construction, start, close, wait) and the observers. What the two
// endpoint threads do is in reading.cpp, what arrives in incoming.cpp, what goes out in
// outgoing.cpp, the calls in flight in pending_calls.cpp.
#include "rpckit/endpoint/endpoint.hpp"

#include <algorithm>
#include <utility>

#include "call_canceller.hpp"
#include "reply_outbox.hpp"
#include "rpckit/framing/fd_io.hpp"

namespace rpckit {

Endpoint::Endpoint(std::unique_ptr<framing::FrameReader> reader,
                   std::unique_ptr<framing::FrameWriter> writer, Options options)
    : reader_(std::move(reader)),
      writer_(std::move(writer)),
      options_(std::move(options)),
      pending_(options_.rules.sent_ids, options_.rules.envelope.id_match),
      outbox_(std::make_shared<detail::ReplyOutbox>()),
      canceller_(std::make_shared<detail::CallCanceller>()) {
  reader_times_out_ = reader_ && reader_->set_deadline(std::nullopt);
  if (!options_.rules.cancel.method.empty()) {
    in_flight_ = std::make_shared<detail::InFlightRequests>();
    outbox_->in_flight = in_flight_;
  }
  outbox_->send = [this](const nlohmann::json& id, const std::string& method,
                         const nlohmann::json* result, const RpcError* error) {
    return respond(id, method, result, error);
  };
  canceller_->take = [this](std::int64_t id, std::string_view reason) {
    return give_up(id, reason);
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

void Endpoint::close() {
  if (closed_.exchange(true)) return;
  Completions completions;
  {
    std::lock_guard lock(mutex_);
    if (!close_reason_) close_reason_ = CloseReason{};
    completions = take_async_all();
    pending_.disconnect_all();
  }
  callers_changed_.notify_all();
  workers_changed_.notify_all();
  room_changed_.notify_all();
  handled_.notify_all();
  {
    std::lock_guard lock(outbox_->mutex);  // waits out a reply being sent
    outbox_->send = nullptr;
  }
  {
    std::lock_guard lock(canceller_->mutex);  // waits out a cancel under way
    canceller_->take = nullptr;
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

bool Endpoint::wait_handled(std::chrono::milliseconds stall, std::chrono::milliseconds bound) {
  const TimePoint give_up = std::chrono::steady_clock::now() + bound;
  std::unique_lock lock(mutex_);
  const auto served = [this] {
    return closed_.load() || (queue_.empty() && handler_thread_ == std::thread::id());
  };
  while (!served()) {
    const std::uint64_t seen = handled_count_;
    const TimePoint until = std::min(std::chrono::steady_clock::now() + stall, give_up);
    if (!handled_.wait_until(lock, until, [&] { return served() || handled_count_ != seen; })) {
      return false;
    }
  }
  return true;
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
