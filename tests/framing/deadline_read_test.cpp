// A read() given a deadline (FrameReader::set_deadline) gives up with kTimedOut and loses
// nothing: the next read() resumes the frame where it stopped, in the header, the body, a
// line, or an over-long frame being skipped. What a thread in Endpoint::call() relies on
// when it reads its own answer within the call's deadline.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <deque>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "resume_support.hpp"
#include "rpckit/framing/content_length_reader.hpp"
#include "rpckit/framing/framing.hpp"
#include "rpckit/framing/interruptible_fd_source.hpp"
#include "rpckit/framing/memory_pipe.hpp"
#include "rpckit/framing/ndjson_reader.hpp"
#include "test_support.hpp"

namespace rpckit::framing {
namespace {

using namespace std::chrono_literals;
using testing::describe;

// Serves scripted steps, one per read(): bytes (at most what is asked; the rest stays for the
// next read), or a timeout where a deadline is set. After the script: the end of the stream.
class TimeoutScript final : public ByteSource {
 public:
  void bytes(std::string data) { steps_.push_back({std::move(data), false}); }
  void timeout() { steps_.push_back({{}, true}); }

  IoResult read(std::span<char> buffer) override {
    if (steps_.empty()) return {};
    Step& step = steps_.front();
    if (step.timeout) {
      EXPECT_TRUE(deadline_.has_value()) << "timed out with no deadline set";
      steps_.pop_front();
      return {0, std::make_error_code(std::errc::stream_timeout)};
    }
    const std::size_t n = std::min(buffer.size(), step.data.size());
    step.data.copy(buffer.data(), n);
    step.data.erase(0, n);
    if (step.data.empty()) steps_.pop_front();
    return {n, {}};
  }
  bool set_deadline(std::optional<std::chrono::steady_clock::time_point> deadline) override {
    deadline_ = deadline;
    return true;
  }

 private:
  struct Step {
    std::string data;
    bool timeout;
  };
  std::deque<Step> steps_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
};

std::unique_ptr<FrameReader> reader_for(Framing framing, ByteSource& source, std::size_t max_body,
                                        ReaderOptions options = {}) {
  if (framing == Framing::kNewlineDelimited)
    return std::make_unique<NdjsonReader>(source, max_body, options);
  return std::make_unique<ContentLengthReader>(source, max_body, options);
}

std::string framed(Framing framing, std::string_view body) {
  return framing == Framing::kNewlineDelimited ? std::string(body) + "\n" : testing::cl_frame(body);
}

// Every read() until the end, timeouts included, described.
std::vector<std::string> read_through_timeouts(FrameReader& reader) {
  std::vector<std::string> seen;
  for (;;) {
    const ReadResult got = reader.read();
    seen.push_back(describe(got));
    if (!got.ok() && got.status != ReadStatus::kTimedOut && got.status != ReadStatus::kOversize) {
      return seen;
    }
  }
}

const std::string kTimedOut = "timed-out:the deadline passed before a whole frame arrived";

TEST(DeadlineRead, ContentLengthResumesInTheHeaderAndTheBody) {
  TimeoutScript source;
  source.bytes("Content-Le");
  source.timeout();
  source.bytes("ngth: 7\r\n\r\n{\"a\"");
  source.timeout();
  source.timeout();
  source.bytes(":1}");
  source.timeout();
  ContentLengthReader reader(source, testing::kProtocolMax);
  ASSERT_TRUE(reader.set_deadline(std::chrono::steady_clock::now()));
  EXPECT_EQ(read_through_timeouts(reader),
            (std::vector<std::string>{kTimedOut, kTimedOut, kTimedOut, "ok:{\"a\":1}", kTimedOut,
                                      "eof:end of stream"}));
}

TEST(DeadlineRead, ContentLengthResumesABodyReadStraightIntoPlace) {
  // A remainder of at least chunk_bytes is read into the body itself, not the buffer.
  const std::string body = "{\"text\":\"" + std::string(40, 'x') + "\"}";
  TimeoutScript source;
  source.bytes("Content-Length: " + std::to_string(body.size()) + "\r\n\r\n");
  for (std::size_t at = 0; at < body.size(); at += 9) {
    source.bytes(body.substr(at, 9));
    source.timeout();
  }
  ReaderOptions options;
  options.chunk_bytes = 8;
  ContentLengthReader reader(source, testing::kProtocolMax, options);
  reader.set_deadline(std::chrono::steady_clock::now());
  std::vector<std::string> frames;
  std::size_t timeouts = 0;
  for (const std::string& seen : read_through_timeouts(reader)) {
    if (seen == kTimedOut) {
      ++timeouts;
    } else {
      frames.push_back(seen);
    }
  }
  EXPECT_EQ(frames, (std::vector<std::string>{"ok:" + body, "eof:end of stream"}));
  EXPECT_EQ(timeouts, 6u);  // one per piece of the body
}

TEST(DeadlineRead, NdjsonResumesALine) {
  TimeoutScript source;
  source.bytes("{\"a\"");
  source.timeout();
  source.bytes(":1}\n{\"b\":");
  source.timeout();
  source.bytes("2}\n");
  NdjsonReader reader(source, testing::kProtocolMax);
  reader.set_deadline(std::chrono::steady_clock::now());
  EXPECT_EQ(read_through_timeouts(reader),
            (std::vector<std::string>{kTimedOut, "ok:{\"a\":1}", kTimedOut, "ok:{\"b\":2}",
                                      "eof:end of stream"}));
}

TEST(DeadlineRead, AnOverLongFrameIsStillSkippedAcrossATimeout) {
  for (const Framing framing : {Framing::kNewlineDelimited, Framing::kContentLength}) {
    SCOPED_TRACE(framing == Framing::kNewlineDelimited ? "ndjson" : "content-length");
    const std::string big = framed(framing, "[" + std::string(100, '1') + "]");
    TimeoutScript source;
    source.bytes(big.substr(0, 60));
    source.timeout();
    source.bytes(big.substr(60));
    source.timeout();
    source.bytes(framed(framing, "{}"));
    ReaderOptions options;
    options.resume_after_oversize = true;
    options.chunk_bytes = 16;
    std::unique_ptr<FrameReader> reader = reader_for(framing, source, 50, options);
    reader->set_deadline(std::chrono::steady_clock::now());
    std::vector<std::string> statuses;
    for (const std::string& seen : read_through_timeouts(*reader))
      statuses.push_back(seen.substr(0, seen.find(':')));
    EXPECT_EQ(statuses,
              (std::vector<std::string>{"oversize", "timed-out", "timed-out", "ok", "eof"}))
        << ::testing::PrintToString(read_through_timeouts(*reader));
  }
}

// Whatever the pieces and wherever the timeouts fall, the frames are those read without any.
TEST(DeadlineRead, TimeoutsAnywhereChangeNoFrame) {
  for (const Framing framing : {Framing::kNewlineDelimited, Framing::kContentLength}) {
    std::string wire;
    std::vector<std::string> expected;
    for (int i = 0; i < 40; ++i) {
      std::string body = "{\"n\":" + std::to_string(i) + ",\"pad\":\"" +
                         std::string(static_cast<std::size_t>(i * 7 % 90), 'p') + "\"}";
      wire += framed(framing, body);
      expected.push_back("ok:" + body);
    }
    expected.push_back("eof:end of stream");
    for (unsigned seed = 1; seed <= 25; ++seed) {
      SCOPED_TRACE(seed);
      std::mt19937 random(seed);
      TimeoutScript source;
      for (std::size_t at = 0; at < wire.size();) {
        const std::size_t n = 1 + random() % 40;
        source.bytes(wire.substr(at, n));
        at += n;
        if (random() % 3 == 0) source.timeout();
      }
      ReaderOptions options;
      options.chunk_bytes = 1 + random() % 64;
      std::unique_ptr<FrameReader> reader =
          reader_for(framing, source, testing::kProtocolMax, options);
      reader->set_deadline(std::chrono::steady_clock::now());
      std::vector<std::string> frames;
      for (const std::string& seen : read_through_timeouts(*reader)) {
        if (seen != kTimedOut) frames.push_back(seen);
      }
      EXPECT_EQ(frames, expected);
    }
  }
}

TEST(DeadlineRead, AReaderOverASourceWithoutDeadlinesSaysSo) {
  testing::RecordingSource source("");
  ContentLengthReader reader(source, testing::kProtocolMax);
  EXPECT_FALSE(reader.set_deadline(std::chrono::steady_clock::now()));
  EXPECT_EQ(reader.read().status, ReadStatus::kEof);  // and reads for ever, as before
}

// The two sources that keep a deadline, on real waits: an empty pipe times out at the
// deadline, not before, and a frame written afterwards is read whole.
TEST(DeadlineRead, APipeDescriptorTimesOutThenReadsTheFrame) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  InterruptibleFdSource source(fds[0]);
  ContentLengthReader reader(source, testing::kProtocolMax);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(reader.set_deadline(start + 30ms));
  const std::string frame = testing::cl_frame("{\"late\":true}");
  ASSERT_EQ(::write(fds[1], frame.data(), 10), 10);  // a part: still a timeout
  EXPECT_EQ(reader.read().status, ReadStatus::kTimedOut);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 30ms);
  ASSERT_EQ(::write(fds[1], frame.data() + 10, frame.size() - 10),
            static_cast<ssize_t>(frame.size() - 10));
  reader.set_deadline(std::nullopt);
  EXPECT_EQ(describe(reader.read()), "ok:{\"late\":true}");
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST(DeadlineRead, AMemoryPipeTimesOutThenReadsTheFrame) {
  MemoryPipe pipe = make_memory_pipe();
  NdjsonReader reader(*pipe.source, testing::kProtocolMax);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(reader.set_deadline(start + 30ms));
  ASSERT_FALSE(pipe.sink->write_all("{\"la"));
  EXPECT_EQ(reader.read().status, ReadStatus::kTimedOut);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 30ms);
  ASSERT_FALSE(pipe.sink->write_all("te\":true}\n"));
  EXPECT_EQ(describe(reader.read()), "ok:{\"late\":true}");
}

}  // namespace
}  // namespace rpckit::framing
