// InterruptibleFdSource: an fd source whose blocked read another thread can cancel.
#include "rpckit/framing/interruptible_fd_source.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "rpckit/framing/framing.hpp"
#include "test_support.hpp"

namespace rpckit::framing {
namespace {

using namespace std::chrono_literals;

class PipeFds {
 public:
  PipeFds() { EXPECT_EQ(::pipe(fds_), 0); }
  ~PipeFds() {
    for (const int fd : fds_) {
      if (fd >= 0) ::close(fd);
    }
  }
  PipeFds(const PipeFds&) = delete;
  PipeFds& operator=(const PipeFds&) = delete;

  int read_fd() const { return fds_[0]; }
  int write_fd() const { return fds_[1]; }
  void close_write() {
    ::close(fds_[1]);
    fds_[1] = -1;
  }

 private:
  int fds_[2] = {-1, -1};
};

TEST(InterruptibleFdSource, ReadsDataThenEof) {
  PipeFds pipe;
  ASSERT_EQ(::write(pipe.write_fd(), "abc", 3), 3);
  pipe.close_write();
  InterruptibleFdSource source(pipe.read_fd());
  char buffer[16];
  const IoResult got = source.read(buffer);
  EXPECT_EQ(std::string_view(buffer, got.bytes), "abc");
  EXPECT_TRUE(source.read(buffer).eof());
}

TEST(InterruptibleFdSource, InterruptWakesABlockedRead) {
  PipeFds pipe;
  InterruptibleFdSource source(pipe.read_fd());
  IoResult got;
  std::thread reader([&] {
    char buffer[16];
    got = source.read(buffer);
  });
  std::this_thread::sleep_for(20ms);
  source.interrupt();
  reader.join();
  EXPECT_EQ(got.error, std::errc::operation_canceled);
  EXPECT_EQ(got.bytes, 0u);
}

TEST(InterruptibleFdSource, InterruptIsPermanentAndIdempotent) {
  PipeFds pipe;
  ASSERT_EQ(::write(pipe.write_fd(), "abc", 3), 3);
  InterruptibleFdSource source(pipe.read_fd());
  source.interrupt();
  source.interrupt();
  char buffer[16];
  EXPECT_EQ(source.read(buffer).error, std::errc::operation_canceled);  // despite data waiting
  EXPECT_EQ(source.read(buffer).error, std::errc::operation_canceled);
}

TEST(InterruptibleFdSource, StopsAFrameReaderThread) {
  PipeFds pipe;
  InterruptibleFdSource source(pipe.read_fd());
  ReadResult last;
  std::thread reader_thread([&] {
    auto reader = make_reader(Framing::kContentLength, source, testing::kProtocolMax);
    for (last = reader->read(); last.ok(); last = reader->read()) {
    }
  });
  const std::string frame = testing::cl_frame("{}");
  ASSERT_EQ(::write(pipe.write_fd(), frame.data(), frame.size()),
            static_cast<ssize_t>(frame.size()));
  std::this_thread::sleep_for(20ms);
  source.interrupt();
  reader_thread.join();
  EXPECT_EQ(last.status, ReadStatus::kIoError);
  EXPECT_EQ(last.reason,
            "read failed: " + std::make_error_code(std::errc::operation_canceled).message());
}

}  // namespace
}  // namespace rpckit::framing
