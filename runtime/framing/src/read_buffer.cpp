#include "rpckit/framing/read_buffer.hpp"

#include <algorithm>
#include <cstring>

namespace rpckit::framing {

namespace {
// After a large frame, give the memory back rather than keep a 4 MiB buffer per connection.
constexpr std::size_t kShrinkFactor = 4;
}  // namespace

ReadBuffer::ReadBuffer(std::size_t chunk_bytes)
    : size_(chunk_bytes == 0 ? 1 : chunk_bytes), chunk_bytes_(size_) {
  reallocate(size_);
}

void ReadBuffer::reallocate(std::size_t capacity) {
  // new char[n], not make_unique<char[]>(n): no value-initialization (that zero-fill is what
  // made every reader hold its whole chunk in memory from the start).
  std::unique_ptr<char[]> fresh(new char[capacity]);
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
  if (begin_ == end_ && size_ > kShrinkFactor * chunk_bytes_) {
    reallocate(chunk_bytes_);
    size_ = chunk_bytes_;
  }
  if (size_ - end_ < chunk_bytes_ && begin_ > 0) {
    std::memmove(storage_.get(), storage_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (size_ - end_ < chunk_bytes_) {
    size_ = end_ + chunk_bytes_;
    // Capacity grows geometrically (a frame of n bytes costs O(n) copies); a read never asks
    // for more than size_ - end_, so what is held stays what the readers document.
    if (size_ > capacity_) reallocate(std::max(capacity_ * 2, size_));
  }
  IoResult result = source.read({storage_.get() + end_, size_ - end_});
  if (result.error) {
    result.bytes = 0;
  } else if (result.bytes > size_ - end_) {
    result.bytes = size_ - end_;  // defend against a source that over-reports
  }
  end_ += result.bytes;
  return result;
}

}  // namespace rpckit::framing
