// NdjsonReader with ReaderOptions::resume_after_oversize: an over-long line is reported once as
// kOversize, dropped as it arrives, and the line after it is read as usual.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "resume_support.hpp"
#include "rpckit/framing/memory_io.hpp"
#include "rpckit/framing/ndjson_reader.hpp"
#include "test_support.hpp"

namespace rpckit::framing {
namespace {

using ::testing::HasSubstr;
using testing::describe_all;
using testing::outline;
using testing::read_through;
using testing::RecordingSource;
using testing::ScriptedSource;
using Texts = std::vector<std::string>;

ReaderOptions resuming(std::size_t chunk_bytes = ReaderOptions{}.chunk_bytes) {
  ReaderOptions options;
  options.chunk_bytes = chunk_bytes;
  options.resume_after_oversize = true;
  return options;
}

// The whole input in one read.
std::vector<ReadResult> read_whole(std::string input, std::size_t max, ReaderOptions options) {
  MemorySource source(std::move(input));
  NdjsonReader reader(source, max, options);
  return read_through(reader);
}

// The input handed out `piece` bytes per read.
std::vector<ReadResult> read_in_pieces(std::string input, std::size_t piece, std::size_t max,
                                       ReaderOptions options) {
  MemorySource source(std::move(input), piece);
  NdjsonReader reader(source, max, options);
  return read_through(reader);
}

const std::string kLong20(20, 'x');

TEST(NdjsonResume, OverlongLineIsReportedOnceWithItsSizeThenTheNextLineIsRead) {
  EXPECT_EQ(describe_all(read_whole("{1}\n" + kLong20 + "\n{2}\n", 10, resuming())),
            (Texts{"ok:{1}", "oversize:line of 20 bytes exceeds the 10-byte limit", "ok:{2}",
                   "eof:end of stream"}));
}

TEST(NdjsonResume, WithoutTheOptionOversizeIsFinal) {
  MemorySource source("{1}\n" + kLong20 + "\n{2}\n");
  NdjsonReader reader(source, 10);
  EXPECT_EQ(reader.read().body, "{1}");
  EXPECT_EQ(reader.read().status, ReadStatus::kOversize);
  EXPECT_EQ(reader.read().status, ReadStatus::kOversize);
  EXPECT_EQ(source.read_calls(), 1u);
}

TEST(NdjsonResume, LinesArrivingByteByByteGiveTheSameFrames) {
  // Byte by byte the reader cannot wait for the newline: it reports the line as soon as 11
  // bytes without one are buffered, and says so.
  EXPECT_EQ(describe_all(read_in_pieces("{1}\n" + kLong20 + "\n{2}\n", 1, 10, resuming())),
            (Texts{"ok:{1}",
                   "oversize:line exceeds the 10-byte limit (11 bytes buffered without a newline)",
                   "ok:{2}", "eof:end of stream"}));
}

TEST(NdjsonResume, EveryChunkingGivesTheSameFrames) {
  const std::string input = "{1}\n" + kLong20 + "\n{2}\n" + std::string(11, 'y') + "\r\n{3}\n";
  const Texts expected = {"ok:{1}", "oversize", "ok:{2}", "oversize", "ok:{3}", "eof"};
  for (std::size_t piece = 1; piece <= input.size(); ++piece) {
    for (std::size_t chunk : {std::size_t{1}, std::size_t{4}, std::size_t{64 * 1024}}) {
      SCOPED_TRACE("piece " + std::to_string(piece) + ", chunk_bytes " + std::to_string(chunk));
      const auto results = read_in_pieces(input, piece, 10, resuming(chunk));
      EXPECT_EQ(outline(results), expected);
      for (const ReadResult& r : results) {
        if (r.status == ReadStatus::kOversize) {
          EXPECT_THAT(r.reason, HasSubstr("the 10-byte limit"));
        }
      }
    }
  }
}

TEST(NdjsonResume, OverlongLineSplitAcrossManyReadsIsDroppedAsItArrives) {
  const std::size_t max = 100;
  const std::size_t chunk = 64;
  const std::string line(100000, 'q');
  RecordingSource source("{1}\n" + line + "\n{2}\n", 7);
  NdjsonReader reader(source, max, resuming(chunk));
  ASSERT_EQ(reader.read().body, "{1}");
  const ReadResult skipped = reader.read();
  ASSERT_EQ(skipped.status, ReadStatus::kOversize);
  EXPECT_THAT(skipped.reason, HasSubstr("line exceeds the 100-byte limit ("));
  // Reported from what was buffered: at most max + 1 + chunk bytes of the line were read.
  EXPECT_LE(source.delivered() - 4, max + 1 + chunk);
  EXPECT_EQ(reader.read().body, "{2}");
  EXPECT_EQ(reader.read().status, ReadStatus::kEof);
  EXPECT_EQ(source.delivered(), 4 + line.size() + 5);
  EXPECT_LE(*std::max_element(source.requested().begin(), source.requested().end()),
            max + 1 + chunk);
}

TEST(NdjsonResume, SeveralOverlongLinesInARowAreEachReportedOnce) {
  EXPECT_EQ(describe_all(read_whole("\n" + kLong20 + "\n\n" + std::string(30, 'y') + "\n{2}\n",
                                    10, resuming())),
            (Texts{"oversize:line of 20 bytes exceeds the 10-byte limit",
                   "oversize:line of 30 bytes exceeds the 10-byte limit", "ok:{2}",
                   "eof:end of stream"}));
}

TEST(NdjsonResume, CrLfRightAtTheLimit) {
  const std::string ten(10, 'x');
  const std::string eleven(11, 'x');
  // Ten bytes and CRLF: the line is at the limit, whatever the split.
  EXPECT_EQ(describe_all(read_whole(ten + "\r\n{2}\n", 10, resuming())),
            (Texts{"ok:" + ten, "ok:{2}", "eof:end of stream"}));
  {
    ScriptedSource source({ten, "\r", "\n{2}\n"});
    NdjsonReader reader(source, 10, resuming(1));
    EXPECT_EQ(describe_all(read_through(reader)),
              (Texts{"ok:" + ten, "ok:{2}", "eof:end of stream"}));
  }
  for (std::size_t piece = 1; piece <= 13; ++piece) {
    SCOPED_TRACE("piece " + std::to_string(piece));
    EXPECT_EQ(outline(read_in_pieces(ten + "\r\n{2}\n", piece, 10, resuming(1))),
              (Texts{"ok:" + ten, "ok:{2}", "eof"}));
    // Eleven and CRLF: one over.
    EXPECT_EQ(outline(read_in_pieces(eleven + "\r\n{2}\n", piece, 10, resuming(1))),
              (Texts{"oversize", "ok:{2}", "eof"}));
  }
  EXPECT_EQ(describe_all(read_whole(eleven + "\r\n{2}\n", 10, resuming())),
            (Texts{"oversize:line of 11 bytes exceeds the 10-byte limit", "ok:{2}",
                   "eof:end of stream"}));
  // Without split_on_cr a CR that no LF follows is content: ten bytes, CR, one more is twelve.
  EXPECT_EQ(describe_all(read_whole(ten + "\rx\n{2}\n", 10, resuming())),
            (Texts{"oversize:line of 12 bytes exceeds the 10-byte limit", "ok:{2}",
                   "eof:end of stream"}));
}

TEST(NdjsonResume, OverlongLastLineAtEndOfStream) {
  // Reported once; the stream then ends cleanly (nothing followed it to read).
  EXPECT_EQ(describe_all(read_whole("{1}\n" + kLong20, 10, resuming())),
            (Texts{"ok:{1}",
                   "oversize:line exceeds the 10-byte limit (20 bytes buffered without a newline)",
                   "eof:end of stream"}));
  EXPECT_EQ(describe_all(read_whole("{1}\n" + kLong20 + "\n", 10, resuming())),
            (Texts{"ok:{1}", "oversize:line of 20 bytes exceeds the 10-byte limit",
                   "eof:end of stream"}));
  for (std::size_t piece = 1; piece <= 24; ++piece) {
    SCOPED_TRACE("piece " + std::to_string(piece));
    EXPECT_EQ(outline(read_in_pieces("{1}\n" + kLong20, piece, 10, resuming(4))),
              (Texts{"ok:{1}", "oversize", "eof"}));
  }
}

TEST(NdjsonResume, ReadFailureWhileDroppingIsFinal) {
  // The source fails in the middle of the over-long line: an I/O error, sticky.
  class FailsAfter final : public ByteSource {
   public:
    IoResult read(std::span<char> buffer) override {
      if (calls_++ > 0) return {0, std::make_error_code(std::errc::connection_reset)};
      const std::string first = std::string(20, 'x');
      const std::size_t n = std::min(buffer.size(), first.size());
      first.copy(buffer.data(), n);
      return {n, {}};
    }

   private:
    int calls_ = 0;
  } source;
  NdjsonReader reader(source, 10, resuming());
  EXPECT_EQ(reader.read().status, ReadStatus::kOversize);
  const auto rest = read_through(reader);
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].status, ReadStatus::kIoError);
}

}  // namespace
}  // namespace rpckit::framing
