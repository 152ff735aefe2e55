#include "rpckit/framing/read_buffer.hpp"

#include <algorithm>
#include <cstring>

namespace rpckit::framing {

namespace {
// After a large frame, give the memory back rather than keep a 4 MiB buffer per connection.
constexpr std::size_t kShrinkFactor = 4;
}  // namespace

ReadBuffer::ReadBuffer(std::size_t chunk_bytes)
    : chunk_bytes_(std::max<std::size_t>(chunk_bytes, 1)) {
  reallocate(chunk_bytes_);
  limit_ = chunk_bytes_;
}

void ReadBuffer::reallocate(std::size_t capacity) {
  auto fresh = std::make_unique_for_overwrite<char[]>(capacity);
  if (end_ > begin_) std::memcpy(fresh.get(), storage_.get() + begin_, end_ - begin_);
  end_ -= begin_;
  begin_ = 0;
  storage_ = std::move(fresh);
  capacity_ = capacity;
}

void ReadBuffer::consume(std::size_t bytes) {
  begin_ += bytes < size() ? bytes : size();
  if (begin_ == end_) begin_ = end_ = 0;
}

IoResult ReadBuffer::fill(ByteSource& source) {
  if (begin_ == end_ && capacity_ > kShrinkFactor * chunk_bytes_) {
    reallocate(chunk_bytes_);
    limit_ = chunk_bytes_;
  }
  if (limit_ - end_ < chunk_bytes_ && begin_ > 0) {
    std::memmove(storage_.get(), storage_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (limit_ - end_ < chunk_bytes_) {
    limit_ = end_ + chunk_bytes_;
    // The allocation at least doubles (a frame of n bytes costs O(n) copies in all); reads
    // still fill only up to limit_, so what is held stays what the readers document.
    if (limit_ > capacity_) reallocate(std::max(limit_, 2 * capacity_));
  }
  IoResult result = source.read({storage_.get() + end_, limit_ - end_});
  if (result.error) {
    result.bytes = 0;
  } else if (result.bytes > limit_ - end_) {
    result.bytes = limit_ - end_;  // defend against a source that over-reports
  }
  end_ += result.bytes;
  return result;
}

}  // namespace rpckit::framing
