#include "rpckit/framing/frame_sink.hpp"

#include <utility>

namespace rpckit::framing {

void FrameSink::fail(std::error_code error, std::uint64_t first) {
  if (!failure_) failure_ = WriteResult{WriteStatus::kIoError, error, "write failed: " + error.message()};
  if (first < first_failed_) first_failed_ = first;
}

std::size_t FrameSink::waiting_frames() const {
  std::lock_guard lock(mutex_);
  return waiting_count_;
}

WriteResult FrameSink::write(std::span<const std::string_view> parts) {
  std::unique_lock lock(mutex_);
  if (failure_) return *failure_;
  const std::uint64_t ticket = ++submitted_;
  if (writing_) {
    // Another thread is writing: it sends this frame with the others waiting when it is done.
    for (std::string_view part : parts) waiting_ += part;
    ++waiting_count_;
    written_.wait(lock, [&] { return settled_ >= ticket; });
    if (ticket >= first_failed_) return *failure_;
    return {};
  }
  writing_ = true;
  lock.unlock();
  std::error_code error = sink_.write_all(parts);  // our own frame: no copy
  lock.lock();
  std::optional<WriteResult> own;
  if (error) {
    fail(error, ticket);
    own = failure_;
  }
  settled_ = ticket;
  // Drain what arrived meanwhile, in one gather write per round.
  while (!waiting_.empty()) {
    if (failure_) {  // the stream is broken: what waits fails unwritten
      fail(failure_->error, settled_ + 1);
      waiting_.clear();
      waiting_count_ = 0;
      settled_ = submitted_;
      break;
    }
    std::string batch = std::move(waiting_);
    waiting_.clear();
    waiting_count_ = 0;
    const std::uint64_t first = settled_ + 1;
    const std::uint64_t last = submitted_;
    lock.unlock();
    error = sink_.write_all(std::string_view(batch));
    lock.lock();
    if (error) fail(error, first);
    settled_ = last;
    written_.notify_all();
  }
  writing_ = false;
  written_.notify_all();
  return own.value_or(WriteResult{});
}

}  // namespace rpckit::framing
