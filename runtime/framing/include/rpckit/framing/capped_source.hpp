// A source that passes at most `cap` bytes of another through, then fails: a host's cap on
// what it reads from one process (a profile's output_cap).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>

#include "rpckit/framing/byte_io.hpp"

namespace rpckit::framing {

// Thread safety: one reading thread; capped() from any thread.
class CappedSource final : public ByteSource {
 public:
  // `cap` 0: no cap (every byte passes).
  CappedSource(ByteSource& inner, std::uint64_t cap) : inner_(inner), cap_(cap) {}

  // Past the cap: std::errc::file_too_large, now and forever (the bytes over it are dropped).
  IoResult read(std::span<char> buffer) override;
  bool set_deadline(std::optional<std::chrono::steady_clock::time_point> deadline) override {
    return inner_.set_deadline(deadline);
  }
  bool capped() const { return capped_.load(); }
  std::uint64_t bytes_read() const { return total_; }

 private:
  ByteSource& inner_;
  std::uint64_t cap_;
  std::uint64_t total_ = 0;
  std::atomic<bool> capped_{false};
};

}  // namespace rpckit::framing
