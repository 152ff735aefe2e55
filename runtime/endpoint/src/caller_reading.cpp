// A thread waiting in call() reads its own answer, so a round trip wakes two threads (the
// peer's, then the caller) rather than three (the peer's, an endpoint thread, the caller).
//
// After a call() returns, an endpoint thread that finds nothing else to do parks the reading
// role for Options::reading_lease instead of reading (reading.cpp). The next call() from a
// thread of the application takes it and reads, with the call's deadline on the reader. It
// takes only a response to a call() of its own kind; anything else it reads (a request, a
// notification, a call_async() response, a bad frame, the end) goes to the endpoint threads
// with the role, in order, and it waits as any caller does. Handlers, completions and the
// close observer therefore still run on the endpoint threads.
#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "rpckit/endpoint/endpoint.hpp"

namespace rpckit {

namespace {
// A caller reads in slices of this at most, so that close() ends its call soon even where
// interrupt_reader cannot cut a read short.
constexpr std::chrono::milliseconds kReadSlice{100};
}  // namespace

bool Endpoint::leased(TimePoint now) const {
  return lease_until_ > now && reader_times_out_ && !closed_.load() && !reading_done_ &&
         handler_thread_ == std::thread::id() && queue_.empty() && !handed_ &&
         !pending_.has_async();
}

bool Endpoint::caller_may_read() const {
  // Without interrupt_reader, close() could not cut the caller's read short.
  if (!reader_times_out_ || !options_.interrupt_reader || options_.reading_lease.count() <= 0) {
    return false;
  }
  const std::thread::id self = std::this_thread::get_id();
  return self != workers_[0].get_id() && self != workers_[1].get_id();
}

void Endpoint::read_as_caller(std::unique_lock<std::mutex>& lock, TimePoint until) {
  reading_holder_ = kCaller;
  lock.unlock();
  framing::ReadResult frame;
  Taken taken = Taken::kNo;
  try {
    reader_->set_deadline(std::min(until, std::chrono::steady_clock::now() + kReadSlice));
    frame = reader_->read();
    reader_->set_deadline(std::nullopt);
    if (frame.ok() && !closed_.load() && !ignoring_input_.load()) taken = take_response(frame.body);
  } catch (...) {  // std::bad_alloc: the role goes to the endpoint threads, the frame is lost
    reader_->set_deadline(std::nullopt);
    lock.lock();
    give_role_to_workers();
    throw;
  }
  lock.lock();
  if (taken != Taken::kYes && frame.status != framing::ReadStatus::kTimedOut) {
    handed_ = Handed{std::move(frame), taken == Taken::kRecordedOnly};
    give_role_to_workers();
    return;
  }
  release_as_caller();
}

Endpoint::Taken Endpoint::take_response(std::string& body) {
  auto scanned = scan_envelope(body, scan_rules());
  auto* envelope = std::get_if<Envelope>(&scanned);
  if (envelope == nullptr || envelope->kind != Envelope::Kind::kResponse) return Taken::kNo;
  if (envelope->jsonrpc_absent && !lenient_logged_) return Taken::kNo;  // logged by handle_frame
  const std::optional<std::int64_t> own = pending_.own_id(envelope->id.get());
  if (!own || pending_.in_other_form(envelope->id.get())) return Taken::kNo;  // diagnosed there
  const auto waiting = [&] {
    const detail::PendingCall* call = pending_.find(*own);
    return call != nullptr && !call->done && !call->settled();
  };
  {
    std::lock_guard lock(mutex_);
    if (!waiting()) return Taken::kNo;
  }
  record_frame(false, body);  // observed before its call can return, as an endpoint thread does
  {
    std::lock_guard lock(mutex_);
    // Its call may have timed out meanwhile: then the endpoint threads report a stray response.
    if (!waiting()) return Taken::kRecordedOnly;
    pending_.find(*own)->response =
        Received{std::move(body), std::move(*envelope), nullptr, nullptr};
  }
  callers_changed_.notify_all();
  return Taken::kYes;
}

void Endpoint::release_as_caller() {
  const TimePoint now = std::chrono::steady_clock::now();
  lease_until_ = std::max(lease_until_, now + options_.reading_lease);
  if (leased(now)) {
    reading_holder_ = kParked;
    callers_changed_.notify_all();  // another call() may be waiting to read
    if (lease_watch_ > lease_until_) workers_changed_.notify_all();  // no one looks in time
    return;
  }
  give_role_to_workers();
}

void Endpoint::give_role_to_workers() {
  reading_holder_ = kNoWorker;
  lease_until_ = TimePoint::min();
  workers_changed_.notify_all();
}

}  // namespace rpckit
