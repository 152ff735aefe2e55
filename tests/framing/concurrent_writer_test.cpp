// Many threads writing at once: every frame must come out whole and parse back intact.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "rpckit/framing/fd_io.hpp"
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
  EXPECT_EQ(sink.write_calls(), std::size_t{kThreads * kFramesPerThread});
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

INSTANTIATE_TEST_SUITE_P(Framings, ConcurrentWriters,
                         ::testing::Values(Framing::kContentLength, Framing::kNewlineDelimited),
                         testing::framing_test_name);

}  // namespace
}  // namespace rpckit::framing
