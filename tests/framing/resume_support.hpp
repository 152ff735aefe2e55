// Helpers for the readers' wire-rule options (resume_after_oversize, split_on_cr): a reader
// that skips an over-long frame goes on after kOversize, so reading ends at kEof or a failure.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "rpckit/framing/byte_io.hpp"
#include "rpckit/framing/frame_reader.hpp"
#include "rpckit/framing/read_result.hpp"

namespace rpckit::framing::testing {

// Reads until the stream ends (kEof or any failure but kOversize); the end is the last
// result. Checks that the end is sticky: the next read() returns it again.
inline std::vector<ReadResult> read_through(FrameReader& reader, std::size_t limit = 100000) {
  std::vector<ReadResult> results;
  for (std::size_t i = 0; i < limit; ++i) {
    results.push_back(reader.read());
    const ReadResult& last = results.back();
    if (last.ok() || last.status == ReadStatus::kOversize) continue;
    const ReadResult again = reader.read();
    EXPECT_EQ(to_string(again.status), to_string(last.status)) << "the end is not sticky";
    EXPECT_EQ(again.reason, last.reason);
    return results;
  }
  ADD_FAILURE() << "reader produced more than " << limit << " results";
  return results;
}

// One result as text, for comparing whole sequences: "ok:<body>", "oversize:<reason>", ...
inline std::string describe(const ReadResult& result) {
  if (result.ok()) return "ok:" + result.body;
  return std::string(to_string(result.status)) + ":" + result.reason;
}

inline std::vector<std::string> describe_all(const std::vector<ReadResult>& results) {
  std::vector<std::string> out;
  for (const ReadResult& r : results) out.push_back(describe(r));
  return out;
}

// The statuses only ("ok:<body>" for frames, the status name otherwise): the same sequence
// whatever the chunking, where the oversize reason may differ (how much was buffered).
inline std::vector<std::string> outline(const std::vector<ReadResult>& results) {
  std::vector<std::string> out;
  for (const ReadResult& r : results) {
    out.push_back(r.ok() ? "ok:" + r.body : std::string(to_string(r.status)));
  }
  return out;
}

// Serves `data` at most `piece` bytes per read() (0: as much as asked) and records the size of
// every buffer it is asked to fill, and how many bytes it had handed out when asked.
class RecordingSource final : public ByteSource {
 public:
  explicit RecordingSource(std::string data, std::size_t piece = 0)
      : data_(std::move(data)), piece_(piece) {}

  IoResult read(std::span<char> buffer) override {
    requested_.push_back(buffer.size());
    std::size_t n = std::min(buffer.size(), data_.size() - offset_);
    if (piece_ > 0) n = std::min(n, piece_);
    data_.copy(buffer.data(), n, offset_);
    offset_ += n;
    return {n, {}};
  }

  std::size_t delivered() const { return offset_; }
  const std::vector<std::size_t>& requested() const { return requested_; }

 private:
  std::string data_;
  std::size_t piece_;
  std::size_t offset_ = 0;
  std::vector<std::size_t> requested_;
};

}  // namespace rpckit::framing::testing
