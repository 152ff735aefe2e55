#include "rpckit/framing/read_buffer.hpp"

#include <cstring>

namespace rpckit::framing {

namespace {
// After a large frame, give the memory back rather than keep a 4 MiB buffer per connection.
constexpr std::size_t kShrinkFactor = 4;
}  // namespace

ReadBuffer::ReadBuffer(std::size_t chunk_bytes)
    : storage_(chunk_bytes == 0 ? 1 : chunk_bytes), chunk_bytes_(storage_.size()) {}

void ReadBuffer::consume(std::size_t bytes) {
  begin_ += bytes < size() ? bytes : size();
  if (begin_ == end_) begin_ = end_ = 0;
}

IoResult ReadBuffer::fill(ByteSource& source) {
  if (begin_ == end_ && storage_.size() > kShrinkFactor * chunk_bytes_) {
    storage_ = decltype(storage_)(chunk_bytes_);
  }
  if (storage_.size() - end_ < chunk_bytes_ && begin_ > 0) {
    std::memmove(storage_.data(), storage_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (storage_.size() - end_ < chunk_bytes_) storage_.resize(end_ + chunk_bytes_);
  IoResult result = source.read({storage_.data() + end_, storage_.size() - end_});
  if (result.error) {
    result.bytes = 0;
  } else if (result.bytes > storage_.size() - end_) {
    result.bytes = storage_.size() - end_;  // defend against a source that over-reports
  }
  end_ += result.bytes;
  return result;
}

}  // namespace rpckit::framing
