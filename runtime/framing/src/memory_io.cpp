#include "rpckit/framing/memory_io.hpp"

#include <algorithm>

namespace rpckit::framing {

IoResult MemorySource::read(std::span<char> buffer) {
  ++read_calls_;
  std::size_t n = std::min(buffer.size(), data_.size() - offset_);
  if (chunk_bytes_ > 0) n = std::min(n, chunk_bytes_);
  data_.copy(buffer.data(), n, offset_);
  offset_ += n;
  return {n, {}};
}

std::string MemorySink::contents() const {
  const std::lock_guard lock(mutex_);
  return data_;
}

std::size_t MemorySink::write_calls() const {
  const std::lock_guard lock(mutex_);
  return write_calls_;
}

std::error_code MemorySink::write_parts(std::span<const std::string_view> parts) {
  const std::lock_guard lock(mutex_);
  ++write_calls_;
  for (const std::string_view part : parts) data_.append(part);
  return {};
}

}  // namespace rpckit::framing
