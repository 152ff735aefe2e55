// Sources, sinks and helpers shared by the framing tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "rpckit/framing/byte_io.hpp"
#include "rpckit/framing/frame_reader.hpp"
#include "rpckit/framing/framing.hpp"

namespace rpckit::framing::testing {

inline constexpr std::size_t kMiB = 1024 * 1024;
inline constexpr std::size_t kProtocolMax = 4 * kMiB;  // what StreamNook passes in

inline std::string cl_frame(std::string_view body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
}

// Hands out one scripted piece per read() (cut to the caller's buffer), then EOF. Reading past
// the script is a test failure when `fail_past_end` is set: that is how a test proves the
// reader did not ask for bytes it must not read (e.g. the body of an oversized frame).
class ScriptedSource final : public ByteSource {
 public:
  explicit ScriptedSource(std::vector<std::string> pieces, bool fail_past_end = false)
      : pieces_(std::move(pieces)), fail_past_end_(fail_past_end) {}

  IoResult read(std::span<char> buffer) override {
    ++read_calls_;
    requested_.push_back(buffer.size());
    while (index_ < pieces_.size() && offset_ == pieces_[index_].size()) {
      ++index_;
      offset_ = 0;
    }
    if (index_ == pieces_.size()) {
      if (fail_past_end_) {
        ADD_FAILURE() << "reader asked for bytes past the scripted input";
        return {0, std::make_error_code(std::errc::io_error)};
      }
      return {};
    }
    const std::string& piece = pieces_[index_];
    const std::size_t n = std::min(buffer.size(), piece.size() - offset_);
    piece.copy(buffer.data(), n, offset_);
    offset_ += n;
    delivered_ += n;
    return {n, {}};
  }

  std::size_t read_calls() const { return read_calls_; }
  std::size_t delivered() const { return delivered_; }
  const std::vector<std::size_t>& requested() const { return requested_; }

 private:
  std::vector<std::string> pieces_;
  bool fail_past_end_;
  std::size_t index_ = 0;
  std::size_t offset_ = 0;
  std::size_t read_calls_ = 0;
  std::size_t delivered_ = 0;
  std::vector<std::size_t> requested_;
};

// An endless stream of one byte value, `chunk` bytes per read: a peer that never stops.
class EndlessSource final : public ByteSource {
 public:
  EndlessSource(std::string prefix, char fill, std::size_t chunk)
      : prefix_(std::move(prefix)), fill_(fill), chunk_(chunk) {}

  IoResult read(std::span<char> buffer) override {
    const std::size_t n = std::min(buffer.size(), chunk_);
    for (std::size_t i = 0; i < n; ++i, ++delivered_) {
      buffer[i] = delivered_ < prefix_.size() ? prefix_[delivered_] : fill_;
    }
    return {n, {}};
  }

  std::size_t delivered() const { return delivered_; }

 private:
  std::string prefix_;
  char fill_;
  std::size_t chunk_;
  std::size_t delivered_ = 0;
};

class FailingSource final : public ByteSource {
 public:
  IoResult read(std::span<char>) override {
    ++read_calls;
    return {0, std::make_error_code(std::errc::connection_reset)};
  }
  std::size_t read_calls = 0;
};

// Reads until the first non-ok result, which is returned last. `limit` guards against a
// reader that never ends.
inline std::vector<ReadResult> read_all(FrameReader& reader, std::size_t limit = 100000) {
  std::vector<ReadResult> results;
  for (std::size_t i = 0; i < limit; ++i) {
    results.push_back(reader.read());
    if (!results.back().ok()) return results;
  }
  ADD_FAILURE() << "reader produced more than " << limit << " frames";
  return results;
}

inline std::vector<std::string> bodies_of(const std::vector<ReadResult>& results) {
  std::vector<std::string> bodies;
  for (const ReadResult& r : results) {
    if (r.ok()) bodies.push_back(r.body);
  }
  return bodies;
}

// Names parameterised tests after the framing ("ContentLength", "Ndjson").
inline std::string framing_test_name(const ::testing::TestParamInfo<Framing>& param) {
  return param.param == Framing::kContentLength ? "ContentLength" : "Ndjson";
}

}  // namespace rpckit::framing::testing

namespace rpckit::framing {
// Lets gtest print a Framing parameter by name.
inline void PrintTo(Framing framing, std::ostream* out) { *out << to_string(framing); }
}  // namespace rpckit::framing
