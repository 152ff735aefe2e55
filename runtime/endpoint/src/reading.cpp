// The Endpoint's two threads: which one holds the reading role, which one runs handlers, and
// how a request is run on the thread that read it (no hand-off) while the other takes over
// reading when a call waits or a handler runs long. Between an application's calls the role
// may be parked for the next call to take (caller_reading.cpp).
#include <algorithm>
#include <utility>

#include "rpckit/endpoint/endpoint.hpp"

namespace rpckit {

void Endpoint::work(int worker) {
  std::unique_lock lock(mutex_);
  // The handler this thread watches while idle (by suspensions_), and since when.
  std::uint64_t watched = 0;
  TimePoint watched_since;
  for (;;) {
    expire_async(lock);
    const bool lease_over = reading_holder_ == kParked && !leased(std::chrono::steady_clock::now());
    if ((reading_holder_ == kNoWorker || lease_over) && !reading_done_) {
      // Free (at start, handed over by a thread running a handler or reading in call(), or
      // parked for a lease now over): this one reads. After close() it only reports the end.
      reading_holder_ = worker;
      reading_suspended_ = false;
      read_while_holding(worker, lock);
      continue;
    }
    // A thread in call() reading still hands what it read (or the end) to this one.
    if (reading_done_ || (closed_.load() && reading_holder_ != kCaller)) return;
    // Idle while the other thread reads or runs a handler it read. call_async() deadlines are
    // kept here. While handlers run in place of reading (armed), this thread looks every
    // reading_takeover: one that has run that long has reading taken over, so read-ahead,
    // back-pressure and the end of the stream do not wait for it. Disarmed once a look finds
    // that none ran since the last, so an idle endpoint's threads sleep.
    TimePoint wake = pending_.next_async_deadline().value_or(TimePoint::max());
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
    // One idle endpoint thread watches the lease and takes the role back when it ends; a
    // caller renews it while it reads, and wakes this one only when it parks the role past
    // this look. A watcher busy with completions hands the watch over (expire_async()).
    const bool lease_open = (reading_holder_ == kParked || reading_holder_ == kCaller) &&
                            lease_until_ > std::chrono::steady_clock::now();
    if (lease_open && lease_watcher_ == kNoWorker) lease_watcher_ = worker;
    const bool watches = lease_open && lease_watcher_ == worker;
    if (watches) wake = std::min(wake, lease_until_);
    if (worker == lease_watcher_) lease_watch_ = watches ? lease_until_ : TimePoint::max();
    idle_until_[worker] = wake;
    if (wake == TimePoint::max()) {
      workers_changed_.wait(lock);
    } else {
      workers_changed_.wait_until(lock, wake);
    }
    idle_until_[worker] = TimePoint::min();
    if (worker == lease_watcher_) lease_watch_ = TimePoint::max();
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
    framing::ReadResult frame;
    bool recorded = false;
    if (handed_) {  // read by a thread in call(): the first frame it did not take
      frame = std::move(handed_->frame);
      recorded = handed_->recorded;
      handed_.reset();
      lock.unlock();
    } else if (leased(std::chrono::steady_clock::now())) {
      reading_holder_ = kParked;  // for the next call() to read; taken back at the lease's end
      lease_watcher_ = worker;
      callers_changed_.notify_all();
      return;
    } else {
      lock.unlock();
      frame = reader_->read();
    }
    if (frame.status == framing::ReadStatus::kOversize &&
        options_.rules.receive.oversize != OnOversize::kClose &&
        reader_->resumes_after_oversize() && !closed_.load()) {
      if (ignoring_input_.load()) {
        lock.lock();
        continue;
      }
      // Skipped by the reader, which reads on. A reader that cannot resume ends the
      // connection below: its kOversize is final, and reading on would spin.
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
      } else if (frame.status == framing::ReadStatus::kIoError ||
                 frame.status == framing::ReadStatus::kTimedOut) {  // no deadline is set here
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
      if (!recorded) record_frame(false, frame.body);
      if (!ignoring_input_.load()) handle_frame(worker, std::move(frame.body));
    }
    lock.lock();
  }
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
  note_handled();
  // What the other thread read meanwhile (it took over reading), in arrival order.
  while (!closed_.load() && dispatch_one(lock)) {
  }
  handler_thread_ = std::thread::id();
  if (reading_holder_ == worker) reading_suspended_ = false;
  handled_.notify_all();
}

void Endpoint::note_handled() {
  ++handled_count_;
  handled_.notify_all();  // under mutex_, so wait_handled() cannot miss it
}

void Endpoint::need_reader() {
  if (reading_done_) return;
  if (reading_holder_ == kParked) {  // an endpoint thread reads from now on
    give_role_to_workers();
    return;
  }
  if (!reading_suspended_) return;
  reading_holder_ = kNoWorker;  // the idle endpoint thread takes it
  reading_suspended_ = false;
  workers_changed_.notify_all();
}

bool Endpoint::dispatch_one(std::unique_lock<std::mutex>& lock) {
  if (queue_.empty()) return false;
  Received message = std::move(queue_.front());
  queue_.pop_front();
  queued_bytes_ -= message.frame.size();
  lock.unlock();
  room_changed_.notify_all();  // room in the queue for the reader
  handle_incoming(message);
  lock.lock();
  note_handled();
  return true;
}

void Endpoint::finish(const CloseReason& reason) {
  Completions completions;
  {
    std::lock_guard lock(mutex_);
    reading_done_ = true;
    if (!close_reason_) close_reason_ = reason;
    completions = take_async_all();
    pending_.disconnect_all();
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

}  // namespace rpckit
