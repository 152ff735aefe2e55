// Many threads writing at once: every frame must come out whole and parse back intact.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "rpckit/framing/fd_io.hpp"
#include "rpckit/framing/frame_sink.hpp"
#include "rpckit/framing/framing.hpp"
#include "rpckit/framing/memory_io.hpp"
#include "rpckit/framing/memory_pipe.hpp"
#include "test_support.hpp"

namespace rpckit::framing {
namespace {

using testing::kProtocolMax;

constexpr int kThreads = 8;
constexpr int kFramesPerThread = 500;

// Distinct, self-describing bodies of varying size (some larger than a pipe's capacity), so a
// torn or interleaved frame cannot parse back into a valid one.
std::string body_for(int thread, int seq) {
  const auto pad = static_cast<std::size_t>((seq * 7919 + thread * 104729) % 3000);
  const std::size_t big = seq % 97 == 0 ? 70000 : 0;
  return "{\"t\":" + std::to_string(thread) + ",\"seq\":" + std::to_string(seq) + ",\"pad\":\"" +
         std::string(pad + big, static_cast<char>('a' + thread)) + "\"}";
}

void write_from_threads(FrameWriter& writer) {
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&writer, t] {
      for (int seq = 0; seq < kFramesPerThread; ++seq) {
        const WriteResult result = writer.write(body_for(t, seq));
        if (!result.ok()) ADD_FAILURE() << result.reason;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
}

// Every frame intact, each thread's frames in the order it sent them, then a clean EOF.
void expect_all_frames(FrameReader& reader) {
  std::map<int, int> next_seq;
  for (int i = 0; i < kThreads * kFramesPerThread; ++i) {
    const ReadResult result = reader.read();
    ASSERT_TRUE(result.ok()) << "frame " << i << ": " << result.reason;
    int thread = -1;
    int seq = -1;
    ASSERT_EQ(std::sscanf(result.body.c_str(), "{\"t\":%d,\"seq\":%d", &thread, &seq), 2);
    ASSERT_EQ(result.body, body_for(thread, seq));
    EXPECT_EQ(seq, next_seq[thread]++);
  }
  EXPECT_EQ(reader.read().status, ReadStatus::kEof);
}

// Appends each part in small pieces with yields in between and no lock of its own: only the
// writer's lock keeps frames whole (and TSan quiet) here.
class UnsynchronisedSink final : public ByteSink {
 public:
  const std::string& contents() const { return data_; }

 private:
  std::error_code write_parts(std::span<const std::string_view> parts) override {
    for (std::string_view part : parts) {
      while (!part.empty()) {
        const std::size_t n = std::min<std::size_t>(part.size(), 512);
        data_.append(part.substr(0, n));
        part.remove_prefix(n);
        std::this_thread::yield();
      }
    }
    return {};
  }

  std::string data_;
};

class ConcurrentWriters : public ::testing::TestWithParam<Framing> {};

TEST_P(ConcurrentWriters, IntoAMemorySink) {
  MemorySink sink;
  auto writer = make_writer(GetParam(), sink, kProtocolMax);
  write_from_threads(*writer);
  // Frames that wait behind a write go out together (FrameSink): never more calls than frames.
  EXPECT_LE(sink.write_calls(), std::size_t{kThreads * kFramesPerThread});
  EXPECT_GE(sink.write_calls(), std::size_t{1});
  MemorySource source(sink.contents());
  auto reader = make_reader(GetParam(), source, kProtocolMax);
  expect_all_frames(*reader);
}

TEST_P(ConcurrentWriters, IntoASinkWithoutItsOwnLock) {
  UnsynchronisedSink sink;
  auto writer = make_writer(GetParam(), sink, kProtocolMax);
  write_from_threads(*writer);
  MemorySource source(sink.contents());
  auto reader = make_reader(GetParam(), source, kProtocolMax);
  expect_all_frames(*reader);
}

TEST_P(ConcurrentWriters, IntoARealPipe) {
  // Frames beyond PIPE_BUF are written in several syscalls: only the lock keeps them whole.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::thread reader_thread([&] {
    FdSource source(fds[0]);
    auto reader = make_reader(GetParam(), source, kProtocolMax);
    expect_all_frames(*reader);
    ::close(fds[0]);  // if the reader stopped early, the writers get EPIPE instead of hanging
  });
  {
    FdSink sink(fds[1]);
    auto writer = make_writer(GetParam(), sink, kProtocolMax);
    write_from_threads(*writer);
    ::close(fds[1]);
  }
  reader_thread.join();
}

TEST_P(ConcurrentWriters, IntoAPipeReadConcurrently) {
  MemoryPipe pipe = make_memory_pipe();
  auto writer = make_writer(GetParam(), *pipe.sink, kProtocolMax);
  std::thread reader_thread([&] {
    auto reader = make_reader(GetParam(), *pipe.source, kProtocolMax);
    expect_all_frames(*reader);
    pipe.source->close();  // if the reader stopped early, fail the writers instead of hanging
  });
  write_from_threads(*writer);
  pipe.sink->close();
  reader_thread.join();
}

// A sink whose first write waits until the test lets it go, and that can be told to fail.
class GateSink final : public ByteSink {
 public:
  void open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  void fail_writes() { fail_ = true; }
  std::size_t entered() const {
    std::lock_guard lock(mutex_);
    return entered_;
  }
  std::vector<std::string> writes() const {
    std::lock_guard lock(mutex_);
    return writes_;
  }

 private:
  std::error_code write_parts(std::span<const std::string_view> parts) override {
    std::unique_lock lock(mutex_);
    ++entered_;
    changed_.wait(lock, [&] { return open_; });
    if (fail_) return std::make_error_code(std::errc::broken_pipe);
    std::string all;
    for (std::string_view part : parts) all += part;
    writes_.push_back(all);
    return {};
  }

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = false;
  std::size_t entered_ = 0;
  std::atomic<bool> fail_{false};
  std::vector<std::string> writes_;
};

// Waits until `n` frames wait behind the write in progress (no timing: the test's own
// timeout is the limit).
void wait_until_waiting(const FrameSink& sink, std::size_t n) {
  while (sink.waiting_frames() < n) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

TEST(FrameSink, FramesThatWaitBehindAWriteGoOutInOneWrite) {
  GateSink bytes;
  FrameSink sink(bytes);
  std::vector<std::thread> writers;
  writers.emplace_back([&] {
    const std::array<std::string_view, 2> parts{"first", "|"};
    EXPECT_TRUE(sink.write(parts).ok());
  });
  // The first writer is inside the byte sink's write, held at the gate.
  while (bytes.entered() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  for (int i = 0; i < 5; ++i) {
    writers.emplace_back([&sink, i] {
      const std::string body = "frame" + std::to_string(i);
      const std::array<std::string_view, 2> parts{body, "|"};
      EXPECT_TRUE(sink.write(parts).ok());
    });
  }
  wait_until_waiting(sink, 5);
  bytes.open();
  for (auto& t : writers) t.join();
  const std::vector<std::string> writes = bytes.writes();
  ASSERT_EQ(writes.size(), 2U);  // the first frame, then the five that waited, together
  EXPECT_EQ(writes[0], "first|");
  EXPECT_EQ(writes[1].size(), 5 * std::string("frameN|").size());
  for (int i = 0; i < 5; ++i) {
    EXPECT_NE(writes[1].find("frame" + std::to_string(i) + "|"), std::string::npos) << writes[1];
  }
}

TEST(FrameSink, AFailedWriteFailsTheFramesThatWaitedAndEveryLaterOne) {
  GateSink bytes;
  bytes.fail_writes();
  FrameSink sink(bytes);
  std::thread first([&] {
    const std::array<std::string_view, 1> parts{"first"};
    EXPECT_EQ(sink.write(parts).status, WriteStatus::kIoError);
  });
  std::vector<std::thread> waiting;
  for (int i = 0; i < 3; ++i) {
    waiting.emplace_back([&] {
      const std::array<std::string_view, 1> parts{"later"};
      WriteResult result = sink.write(parts);
      EXPECT_EQ(result.status, WriteStatus::kIoError);
      EXPECT_EQ(result.error, std::make_error_code(std::errc::broken_pipe));
    });
  }
  wait_until_waiting(sink, 3);
  bytes.open();
  first.join();
  for (auto& t : waiting) t.join();
  const std::array<std::string_view, 1> parts{"after"};
  EXPECT_EQ(sink.write(parts).status, WriteStatus::kIoError);  // sticky
  EXPECT_TRUE(bytes.writes().empty());
}

// A sender draining its queue: every frame in order, in one write to the sink; a body the
// framing refuses is skipped (its error returned) and the others still go out.
TEST_P(ConcurrentWriters, WriteManyIsOneWriteInOrder) {
  MemorySink sink;
  auto writer = make_writer(GetParam(), sink, kProtocolMax);
  const std::vector<std::string> bodies = {body_for(0, 0), body_for(0, 1), body_for(0, 2)};
  const std::vector<std::string_view> views(bodies.begin(), bodies.end());
  ASSERT_TRUE(writer->write_many(views).ok());
  EXPECT_EQ(sink.write_calls(), 1U);

  const std::string oversize(kProtocolMax + 1, ' ');
  const std::vector<std::string_view> with_refused = {bodies[0], oversize, bodies[1]};
  EXPECT_EQ(writer->write_many(with_refused).status, WriteStatus::kOversize);

  MemorySource source(sink.contents());
  auto reader = make_reader(GetParam(), source, kProtocolMax);
  for (const std::string& expected : {bodies[0], bodies[1], bodies[2], bodies[0], bodies[1]}) {
    ReadResult got = reader->read();
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(got.body, expected);
  }
  EXPECT_EQ(reader->read().status, ReadStatus::kEof);
}

INSTANTIATE_TEST_SUITE_P(Framings, ConcurrentWriters,
                         ::testing::Values(Framing::kContentLength, Framing::kNewlineDelimited),
                         testing::framing_test_name);

}  // namespace
}  // namespace rpckit::framing
