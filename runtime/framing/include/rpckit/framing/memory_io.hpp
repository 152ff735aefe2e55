// In-memory ByteSource/ByteSink for tests and fixtures.
#pragma once

#include <cstddef>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <system_error>

#include "rpckit/framing/byte_io.hpp"

namespace rpckit::framing {

// Serves a fixed string, optionally at most `chunk_bytes` per read() to simulate a peer whose
// frames arrive split across many reads. chunk_bytes == 0 means "as much as asked for".
// Thread safety: one reading thread.
class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::string data, std::size_t chunk_bytes = 0)
      : data_(std::move(data)), chunk_bytes_(chunk_bytes) {}

  IoResult read(std::span<char> buffer) override;

  std::size_t bytes_delivered() const { return offset_; }
  std::size_t read_calls() const { return read_calls_; }

 private:
  std::string data_;
  std::size_t chunk_bytes_;
  std::size_t offset_ = 0;
  std::size_t read_calls_ = 0;
};

// Collects everything written. Thread safety: any threads.
class MemorySink final : public ByteSink {
 public:
  std::string contents() const;
  std::size_t write_calls() const;

 private:
  std::error_code write_parts(std::span<const std::string_view> parts) override;

  mutable std::mutex mutex_;
  std::string data_;
  std::size_t write_calls_ = 0;
};

}  // namespace rpckit::framing
