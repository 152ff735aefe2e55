// In-memory source, sink and pipe.
#include "rpckit/framing/memory_io.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "rpckit/framing/framing.hpp"
#include "rpckit/framing/memory_pipe.hpp"
#include "test_support.hpp"

namespace rpckit::framing {
namespace {

using namespace std::chrono_literals;

std::string read_everything(ByteSource& source, std::size_t buffer_size = 7) {
  std::string out;
  std::string buffer(buffer_size, '\0');
  for (;;) {
    const IoResult got = source.read(buffer);
    EXPECT_FALSE(got.error) << got.error.message();
    if (got.bytes == 0) return out;
    out.append(buffer, 0, got.bytes);
  }
}

TEST(MemorySource, DeliversEverythingThenEof) {
  MemorySource source("hello world");
  EXPECT_EQ(read_everything(source, 64), "hello world");
  EXPECT_EQ(source.read_calls(), 2u);
  char c = 0;
  EXPECT_TRUE(source.read({&c, 1}).eof());
}

TEST(MemorySource, ChunkSizeCapsEachRead) {
  MemorySource source("abcdefghij", 3);
  char buffer[64];
  EXPECT_EQ(source.read(buffer).bytes, 3u);
  EXPECT_EQ(source.read({buffer, 2}).bytes, 2u);
  EXPECT_EQ(read_everything(source, 64), "fghij");
  EXPECT_EQ(source.bytes_delivered(), 10u);
}

TEST(MemorySink, CollectsParts) {
  MemorySink sink;
  EXPECT_FALSE(sink.write_all("ab"));
  const std::string_view parts[] = {"cd", "", "ef"};
  EXPECT_FALSE(sink.write_all(parts));
  EXPECT_EQ(sink.contents(), "abcdef");
  EXPECT_EQ(sink.write_calls(), 2u);
}

TEST(MemoryPipe, ReadBlocksUntilDataArrives) {
  MemoryPipe pipe = make_memory_pipe();
  std::atomic<bool> written = false;
  std::thread writer([&] {
    std::this_thread::sleep_for(20ms);
    written = true;
    EXPECT_FALSE(pipe.sink->write_all("late"));
  });
  char buffer[16];
  const IoResult got = pipe.source->read(buffer);
  EXPECT_TRUE(written);
  EXPECT_EQ(std::string_view(buffer, got.bytes), "late");
  writer.join();
}

TEST(MemoryPipe, SinkCloseGivesEofAfterDraining) {
  MemoryPipe pipe = make_memory_pipe();
  EXPECT_FALSE(pipe.sink->write_all("rest"));
  pipe.sink->close();
  EXPECT_EQ(read_everything(*pipe.source), "rest");
  EXPECT_EQ(pipe.sink->write_all("more"), std::errc::bad_file_descriptor);
}

TEST(MemoryPipe, DestroyingTheSinkClosesIt) {
  MemoryPipe pipe = make_memory_pipe();
  EXPECT_FALSE(pipe.sink->write_all("x"));
  pipe.sink.reset();
  EXPECT_EQ(read_everything(*pipe.source), "x");
}

TEST(MemoryPipe, SourceCloseMakesWritesFailWithBrokenPipe) {
  MemoryPipe pipe = make_memory_pipe();
  pipe.source->close();
  EXPECT_EQ(pipe.sink->write_all("x"), std::errc::broken_pipe);
}

TEST(MemoryPipe, SourceCloseWakesABlockedWriter) {
  MemoryPipe pipe = make_memory_pipe(16);
  std::error_code error;
  std::thread writer([&] { error = pipe.sink->write_all(std::string(100, 'x')); });
  std::this_thread::sleep_for(20ms);  // let it fill the pipe and block
  pipe.source->close();
  writer.join();
  EXPECT_EQ(error, std::errc::broken_pipe);
}

TEST(MemoryPipe, SourceCloseWakesABlockedReaderWithEof) {
  MemoryPipe pipe = make_memory_pipe();
  IoResult got{1, {}};
  std::thread reader([&] {
    char buffer[8];
    got = pipe.source->read(buffer);
  });
  std::this_thread::sleep_for(20ms);
  pipe.source->close();
  reader.join();
  EXPECT_TRUE(got.eof());
}

TEST(MemoryPipe, SmallCapacityStillCarriesEverything) {
  MemoryPipe pipe = make_memory_pipe(5);
  std::string data;
  for (int i = 0; i < 5000; ++i) data += static_cast<char>('a' + i % 26);
  std::thread writer([&] {
    EXPECT_FALSE(pipe.sink->write_all(data));
    pipe.sink->close();
  });
  EXPECT_EQ(read_everything(*pipe.source, 3), data);
  writer.join();
}

TEST(MemoryPipe, TwoPipesConnectTwoEndpoints) {
  // The shape endpoint tests use: each side reads one pipe and writes the other.
  MemoryPipe to_server = make_memory_pipe();
  MemoryPipe to_client = make_memory_pipe();
  std::thread server([&] {
    auto reader = make_reader(Framing::kContentLength, *to_server.source, 1024);
    auto writer = make_writer(Framing::kContentLength, *to_client.sink, 1024);
    for (ReadResult request = reader->read(); request.ok(); request = reader->read()) {
      EXPECT_TRUE(writer->write("echo:" + request.body).ok());
    }
    to_client.sink->close();
  });
  auto writer = make_writer(Framing::kContentLength, *to_server.sink, 1024);
  auto reader = make_reader(Framing::kContentLength, *to_client.source, 1024);
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(writer->write(std::to_string(i)).ok());
    EXPECT_EQ(reader->read().body, "echo:" + std::to_string(i));
  }
  to_server.sink->close();
  EXPECT_EQ(reader->read().status, ReadStatus::kEof);
  server.join();
}

}  // namespace
}  // namespace rpckit::framing
