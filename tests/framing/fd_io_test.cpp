// File-descriptor source and sink on real pipe(2)s: round trips, EPIPE, EINTR, O_NONBLOCK.
#include "rpckit/framing/fd_io.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "rpckit/framing/framing.hpp"
#include "test_support.hpp"

namespace rpckit::framing {
namespace {

using namespace std::chrono_literals;
using testing::kProtocolMax;

// A pipe whose ends close themselves.
class Pipe {
 public:
  Pipe() { EXPECT_EQ(::pipe(fds_), 0); }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;

  int read_fd() const { return fds_[0]; }
  int write_fd() const { return fds_[1]; }
  void close_read() { close_fd(fds_[0]); }
  void close_write() { close_fd(fds_[1]); }
  void set_nonblocking() {
    for (const int fd : fds_) ASSERT_EQ(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK), 0);
  }

 private:
  static void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  int fds_[2] = {-1, -1};
};

bool sigpipe_pending() {
  sigset_t pending;
  sigemptyset(&pending);
  sigpending(&pending);
  return sigismember(&pending, SIGPIPE) == 1;
}

bool sigpipe_blocked() {
  sigset_t mask;
  sigemptyset(&mask);
  pthread_sigmask(SIG_BLOCK, nullptr, &mask);
  return sigismember(&mask, SIGPIPE) == 1;
}

// Puts the default (process-killing) SIGPIPE action in place for the test's duration, so a
// leaked SIGPIPE would end the test binary rather than go unnoticed.
class DefaultSigpipe {
 public:
  DefaultSigpipe() { old_ = signal(SIGPIPE, SIG_DFL); }
  ~DefaultSigpipe() { signal(SIGPIPE, old_); }
  DefaultSigpipe(const DefaultSigpipe&) = delete;
  DefaultSigpipe& operator=(const DefaultSigpipe&) = delete;

 private:
  void (*old_)(int);
};

// Installs a SIGUSR1 handler without SA_RESTART, so blocking syscalls fail with EINTR.
std::atomic<int> g_interrupts{0};
class InterruptingSignal {
 public:
  InterruptingSignal() {
    struct sigaction action {};
    action.sa_handler = [](int) { g_interrupts.fetch_add(1); };
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    sigaction(SIGUSR1, &action, &old_);
  }
  ~InterruptingSignal() { sigaction(SIGUSR1, &old_, nullptr); }
  InterruptingSignal(const InterruptingSignal&) = delete;
  InterruptingSignal& operator=(const InterruptingSignal&) = delete;

 private:
  struct sigaction old_ {};
};

std::string frame_body(int i) {
  // Up to ~300 KB: several times a pipe's capacity, so writes are partial.
  const auto size = static_cast<std::size_t>((i * 7919) % 5000 + (i % 50 == 0 ? 300000 : 0));
  return "{\"i\":" + std::to_string(i) + ",\"s\":\"" + std::string(size, 'x') + "\"}";
}

class FdRoundTrip : public ::testing::TestWithParam<Framing> {};

TEST_P(FdRoundTrip, WriterThreadToReaderThread) {
  Pipe pipe;
  constexpr int kFrames = 1000;
  std::thread writer_thread([&] {
    FdSink sink(pipe.write_fd());
    auto writer = make_writer(GetParam(), sink, kProtocolMax);
    for (int i = 0; i < kFrames; ++i) {
      const WriteResult result = writer->write(frame_body(i));
      if (!result.ok()) {
        ADD_FAILURE() << result.reason;
        break;
      }
    }
    pipe.close_write();
  });
  std::thread reader_thread([&] {
    FdSource source(pipe.read_fd());
    auto reader = make_reader(GetParam(), source, kProtocolMax);
    for (int i = 0; i < kFrames; ++i) {
      const ReadResult result = reader->read();
      ASSERT_TRUE(result.ok()) << "frame " << i << ": " << result.reason;
      ASSERT_EQ(result.body, frame_body(i));
    }
    EXPECT_EQ(reader->read().status, ReadStatus::kEof);
  });
  reader_thread.join();
  pipe.close_read();  // unblocks the writer with EPIPE if the reader gave up early
  writer_thread.join();
}

TEST_P(FdRoundTrip, NonBlockingDescriptorsWaitInsteadOfFailing) {
  Pipe pipe;
  pipe.set_nonblocking();
  constexpr int kFrames = 200;
  std::thread writer_thread([&] {
    FdSink sink(pipe.write_fd());
    auto writer = make_writer(GetParam(), sink, kProtocolMax);
    for (int i = 0; i < kFrames; ++i) EXPECT_TRUE(writer->write(frame_body(i)).ok());
    pipe.close_write();
  });
  FdSource source(pipe.read_fd());
  auto reader = make_reader(GetParam(), source, kProtocolMax);
  for (int i = 0; i < kFrames; ++i) {
    const ReadResult result = reader->read();
    ASSERT_TRUE(result.ok()) << result.reason;
    EXPECT_EQ(result.body, frame_body(i));
  }
  EXPECT_EQ(reader->read().status, ReadStatus::kEof);
  writer_thread.join();
}

INSTANTIATE_TEST_SUITE_P(Framings, FdRoundTrip,
                         ::testing::Values(Framing::kContentLength, Framing::kNewlineDelimited),
                         testing::framing_test_name);

TEST(FdSink, EpipeIsReportedAndDoesNotKillTheProcess) {
  const DefaultSigpipe default_action;
  Pipe pipe;
  pipe.close_read();
  FdSink sink(pipe.write_fd());
  EXPECT_EQ(sink.write_all("x"), std::errc::broken_pipe);
  EXPECT_FALSE(sigpipe_pending());  // the SIGPIPE the write raised was consumed
  EXPECT_FALSE(sigpipe_blocked());  // and the thread's mask is back as it was

  auto writer = make_writer(Framing::kContentLength, sink, kProtocolMax);
  const WriteResult result = writer->write("{}");
  EXPECT_EQ(result.status, WriteStatus::kIoError);
  EXPECT_EQ(result.error, std::errc::broken_pipe);
}

TEST(FdSink, EpipeInTheMiddleOfALargeFrame) {
  const DefaultSigpipe default_action;
  Pipe pipe;
  WriteResult result;
  std::thread writer_thread([&] {
    FdSink sink(pipe.write_fd());
    result = make_writer(Framing::kContentLength, sink, kProtocolMax)
                 ->write(std::string(kProtocolMax, 'x'));
  });
  char buffer[1000];
  EXPECT_GT(::read(pipe.read_fd(), buffer, sizeof buffer), 0);  // the writer has started
  pipe.close_read();
  writer_thread.join();
  EXPECT_EQ(result.status, WriteStatus::kIoError);
  EXPECT_EQ(result.error, std::errc::broken_pipe);
}

// The runtime's own threads block SIGPIPE once and write without the guard: EPIPE, no death,
// and no SIGPIPE left pending in the thread.
TEST(FdSink, AThreadThatBlocksSigpipeWritesWithoutTheGuard) {
  const DefaultSigpipe default_action;
  Pipe pipe;
  pipe.close_read();
  bool pending_after = true;
  bool blocked_after = false;
  std::error_code error;
  std::thread writer([&] {
    block_sigpipe_in_this_thread();
    FdSink sink(pipe.write_fd());
    error = sink.write_all("x");
    pending_after = sigpipe_pending();
    blocked_after = sigpipe_blocked();
  });
  writer.join();
  EXPECT_EQ(error, std::errc::broken_pipe);
  EXPECT_FALSE(pending_after);  // the SIGPIPE the write raised was taken
  EXPECT_TRUE(blocked_after);   // and the thread keeps it blocked, for good
  EXPECT_FALSE(sigpipe_blocked());  // this thread's mask was never touched
}

TEST(FdSink, LeavesAnEarlierPendingSigpipeAndTheCallersMaskAlone) {
  // A caller that blocks SIGPIPE and has one pending keeps both.
  sigset_t pipe_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  sigset_t old_mask;
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_mask);
  pthread_kill(pthread_self(), SIGPIPE);
  ASSERT_TRUE(sigpipe_pending());

  Pipe pipe;
  pipe.close_read();
  FdSink sink(pipe.write_fd());
  EXPECT_EQ(sink.write_all("x"), std::errc::broken_pipe);
  EXPECT_TRUE(sigpipe_pending());
  EXPECT_TRUE(sigpipe_blocked());

  const timespec no_wait{};
  EXPECT_EQ(sigtimedwait(&pipe_set, nullptr, &no_wait), SIGPIPE);  // clean up
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
}

TEST(FdSource, ReadRetriesOnEintr) {
  const InterruptingSignal interrupting;
  Pipe pipe;
  const int before = g_interrupts.load();
  IoResult got;
  char buffer[16];
  std::thread reader([&] { got = FdSource(pipe.read_fd()).read(buffer); });
  const pthread_t reader_handle = reader.native_handle();
  for (int i = 0; i < 5; ++i) {
    std::this_thread::sleep_for(10ms);
    pthread_kill(reader_handle, SIGUSR1);
  }
  std::this_thread::sleep_for(10ms);
  ASSERT_EQ(::write(pipe.write_fd(), "data", 4), 4);
  reader.join();
  EXPECT_GT(g_interrupts.load(), before);
  EXPECT_FALSE(got.error) << got.error.message();
  EXPECT_EQ(std::string_view(buffer, got.bytes), "data");
}

TEST(FdSink, WriteSurvivesEintrAndPartialWrites) {
  const InterruptingSignal interrupting;
  Pipe pipe;
  std::string data(1024 * 1024, '\0');
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>('a' + i % 26);
  std::error_code error;
  std::thread writer([&] {
    error = FdSink(pipe.write_fd()).write_all(data);
    pipe.close_write();
  });
  const pthread_t writer_handle = writer.native_handle();
  for (int i = 0; i < 5; ++i) {  // the writer is blocked on a full pipe meanwhile
    std::this_thread::sleep_for(10ms);
    pthread_kill(writer_handle, SIGUSR1);
  }
  std::string received;
  FdSource source(pipe.read_fd());
  char buffer[65536];
  for (IoResult got = source.read(buffer); got.bytes > 0; got = source.read(buffer)) {
    received.append(buffer, got.bytes);
  }
  writer.join();
  EXPECT_FALSE(error) << error.message();
  EXPECT_TRUE(received == data);
}

TEST(FdIo, BadDescriptorIsAnError) {
  char buffer[4];
  EXPECT_EQ(FdSource(-1).read(buffer).error, std::errc::bad_file_descriptor);
  EXPECT_EQ(FdSink(-1).write_all("x"), std::errc::bad_file_descriptor);
}

}  // namespace
}  // namespace rpckit::framing
