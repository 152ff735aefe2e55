// ContentLengthReader with ReaderOptions::resume_after_oversize: a frame whose Content-Length
// is over the limit is reported once as kOversize, its body dropped as it arrives, and the
// frame after it read as usual.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "resume_support.hpp"
#include "rpckit/framing/content_length_reader.hpp"
#include "rpckit/framing/memory_io.hpp"
#include "test_support.hpp"

namespace rpckit::framing {
namespace {

using testing::cl_frame;
using testing::describe_all;
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

const std::string kOverlong = "Content-Length: 20\r\n\r\n" + std::string(20, 'x');
const Texts kExpected = {"ok:{1}", "oversize:Content-Length 20 exceeds the 10-byte limit",
                         "ok:{2}", "eof:end of stream"};

TEST(ContentLengthResume, BodySkippedThenTheNextFrameRead) {
  MemorySource source(cl_frame("{1}") + kOverlong + cl_frame("{2}"));
  ContentLengthReader reader(source, 10, resuming());
  EXPECT_EQ(describe_all(read_through(reader)), kExpected);
}

TEST(ContentLengthResume, WithoutTheOptionOversizeIsFinal) {
  MemorySource source(kOverlong + cl_frame("{2}"));
  ContentLengthReader reader(source, 10);
  EXPECT_EQ(reader.read().status, ReadStatus::kOversize);
  EXPECT_EQ(reader.read().status, ReadStatus::kOversize);
}

TEST(ContentLengthResume, EveryChunkingGivesTheSameFrames) {
  const std::string input = cl_frame("{1}") + kOverlong + cl_frame("{2}");
  for (std::size_t piece = 1; piece <= input.size(); ++piece) {
    for (std::size_t chunk : {std::size_t{1}, std::size_t{5}, std::size_t{64 * 1024}}) {
      SCOPED_TRACE("piece " + std::to_string(piece) + ", chunk_bytes " + std::to_string(chunk));
      MemorySource source(input, piece);
      ContentLengthReader reader(source, 10, resuming(chunk));
      EXPECT_EQ(describe_all(read_through(reader)), kExpected);
    }
  }
}

TEST(ContentLengthResume, BodySplitAcrossReadsWithTheNextHeaderInTheLastOne) {
  ScriptedSource source({cl_frame("{1}") + "Content-Length: 20\r\n\r\nxxx", "xxxxxxx", "x",
                         "xxxxxxxx", "x" + cl_frame("{2}").substr(0, 7),
                         cl_frame("{2}").substr(7)});
  ContentLengthReader reader(source, 10, resuming(4));
  EXPECT_EQ(describe_all(read_through(reader)), kExpected);
}

TEST(ContentLengthResume, AFrameInsideTheSkippedBodyIsNotRead) {
  // The dropped body holds what looks like a frame: it is bytes of the body, never a frame.
  const std::string inner = cl_frame("{}") + "       ";
  MemorySource source("Content-Length: " + std::to_string(inner.size()) + "\r\n\r\n" + inner +
                      cl_frame("{2}"));
  ContentLengthReader reader(source, 10, resuming());
  EXPECT_EQ(describe_all(read_through(reader)),
            (Texts{"oversize:Content-Length 30 exceeds the 10-byte limit", "ok:{2}",
                   "eof:end of stream"}));
}

TEST(ContentLengthResume, OverlongFramesInARowAreEachReportedOnce) {
  MemorySource source(kOverlong + "Content-Length: 11\r\n\r\n" + std::string(11, 'y') +
                      cl_frame("{2}"));
  ContentLengthReader reader(source, 10, resuming());
  EXPECT_EQ(describe_all(read_through(reader)),
            (Texts{"oversize:Content-Length 20 exceeds the 10-byte limit",
                   "oversize:Content-Length 11 exceeds the 10-byte limit", "ok:{2}",
                   "eof:end of stream"}));
}

TEST(ContentLengthResume, EndOfStreamInsideTheSkippedBody) {
  for (std::size_t piece : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
    SCOPED_TRACE("piece " + std::to_string(piece));
    MemorySource source("Content-Length: 20\r\n\r\nxxxxx", piece);
    ContentLengthReader reader(source, 10, resuming());
    EXPECT_EQ(describe_all(read_through(reader)),
              (Texts{"oversize:Content-Length 20 exceeds the 10-byte limit",
                     "truncated-body:stream ended inside an over-long body"}));
  }
  // Right after the header: no body byte at all.
  MemorySource source("Content-Length: 20\r\n\r\n");
  ContentLengthReader reader(source, 10, resuming());
  EXPECT_EQ(describe_all(read_through(reader)),
            (Texts{"oversize:Content-Length 20 exceeds the 10-byte limit",
                   "truncated-body:stream ended inside an over-long body"}));
}

TEST(ContentLengthResume, AHugeBodyIsDroppedWithoutBeingHeld) {
  // 1 TiB declared, 200 KiB sent: the reader never asks for more than its chunk at a time
  // (it empties its buffer before every read), and says the stream ended inside the body.
  const std::size_t chunk = 64;
  const std::string header = "Content-Length: 1099511627776\r\n\r\n";
  RecordingSource source(header + std::string(200 * 1024, 'z'));
  ContentLengthReader reader(source, 10, resuming(chunk));
  EXPECT_EQ(describe_all(read_through(reader)),
            (Texts{"oversize:Content-Length 1099511627776 exceeds the 10-byte limit",
                   "truncated-body:stream ended inside an over-long body"}));
  EXPECT_LE(*std::max_element(source.requested().begin(), source.requested().end()), chunk);
  EXPECT_EQ(source.delivered(), header.size() + 200 * 1024);
}

}  // namespace
}  // namespace rpckit::framing
