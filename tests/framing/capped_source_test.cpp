// CappedSource: a host's cap on the bytes it reads from one process (a profile's output_cap).
#include "rpckit/framing/capped_source.hpp"

#include <gtest/gtest.h>

#include <string>
#include <system_error>
#include <vector>

#include "resume_support.hpp"
#include "rpckit/framing/memory_io.hpp"
#include "rpckit/framing/ndjson_reader.hpp"
#include "test_support.hpp"

namespace rpckit::framing {
namespace {

using testing::describe_all;
using testing::read_through;
using Texts = std::vector<std::string>;

const std::error_code kTooLarge = std::make_error_code(std::errc::file_too_large);

// Reads `source` through a buffer of `buffer_size` until EOF or an error; the bytes that
// passed, and the last result.
struct Drained {
  std::string bytes;
  IoResult last;
};
Drained drain(ByteSource& source, std::size_t buffer_size = 64) {
  Drained out;
  std::vector<char> buffer(buffer_size);
  for (int i = 0; i < 100000; ++i) {
    out.last = source.read(buffer);
    if (out.last.bytes == 0) return out;
    out.bytes.append(buffer.data(), out.last.bytes);
  }
  ADD_FAILURE() << "source never ended";
  return out;
}

TEST(CappedSource, ExactlyAtTheCapPasses) {
  for (std::size_t piece : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
    SCOPED_TRACE("piece " + std::to_string(piece));
    MemorySource inner("0123456789", piece);
    CappedSource capped(inner, 10);
    const Drained got = drain(capped);
    EXPECT_EQ(got.bytes, "0123456789");
    EXPECT_TRUE(got.last.eof());
    EXPECT_FALSE(capped.capped());
    EXPECT_EQ(capped.bytes_read(), 10u);
  }
}

TEST(CappedSource, OneByteOverFailsWithFileTooLargeForeverAfter) {
  MemorySource inner("0123456789A", 1);
  CappedSource capped(inner, 10);
  const Drained got = drain(capped);
  EXPECT_EQ(got.bytes, "0123456789");  // the ten within the cap passed, one read at a time
  EXPECT_EQ(got.last.error, kTooLarge);
  EXPECT_EQ(got.last.bytes, 0u);
  EXPECT_TRUE(capped.capped());
  const std::size_t inner_reads = inner.read_calls();
  for (int i = 0; i < 3; ++i) {
    char byte = 0;
    const IoResult again = capped.read({&byte, 1});
    EXPECT_EQ(again.error, kTooLarge);
    EXPECT_EQ(again.bytes, 0u);
  }
  EXPECT_EQ(inner.read_calls(), inner_reads) << "past the cap the inner source is not read";
}

TEST(CappedSource, AReadThatCrossesTheCapFailsAndNoMoreThanTheCapEverPasses) {
  for (std::size_t piece : {std::size_t{0}, std::size_t{4}, std::size_t{7}}) {
    SCOPED_TRACE("piece " + std::to_string(piece));
    MemorySource inner(std::string(25, 'q'), piece);
    CappedSource capped(inner, 10);
    const Drained got = drain(capped);
    EXPECT_LE(got.bytes.size(), 10u);
    EXPECT_EQ(got.last.error, kTooLarge);
    EXPECT_TRUE(capped.capped());
  }
}

TEST(CappedSource, CapZeroIsNoCap) {
  const std::string data(1 << 20, 'z');
  MemorySource inner(data, 65536);
  CappedSource capped(inner, 0);
  const Drained got = drain(capped, 65536);
  EXPECT_EQ(got.bytes.size(), data.size());
  EXPECT_TRUE(got.last.eof());
  EXPECT_FALSE(capped.capped());
  EXPECT_EQ(capped.bytes_read(), data.size());
}

TEST(CappedSource, InnerFailuresPassThrough) {
  testing::FailingSource inner;
  CappedSource capped(inner, 10);
  char byte = 0;
  EXPECT_EQ(capped.read({&byte, 1}).error, std::make_error_code(std::errc::connection_reset));
  EXPECT_FALSE(capped.capped());
}

TEST(CappedSource, AReaderOverItSeesTheCapAsAReadFailure) {
  // Two 4-byte lines are 10 bytes with their newlines: at the cap they are read, and the end
  // of the stream is clean.
  {
    MemorySource inner("{1}\n{22}\n\n", 1);
    CappedSource capped(inner, 10);
    NdjsonReader reader(capped, 100);
    EXPECT_EQ(describe_all(read_through(reader)),
              (Texts{"ok:{1}", "ok:{22}", "eof:end of stream"}));
  }
  // One byte more and the reader fails once it reaches it.
  {
    MemorySource inner("{1}\n{22}\n\n\n", 1);
    CappedSource capped(inner, 10);
    NdjsonReader reader(capped, 100);
    EXPECT_EQ(describe_all(read_through(reader)),
              (Texts{"ok:{1}", "ok:{22}",
                     "io-error:read failed: " + kTooLarge.message()}));
  }
}

}  // namespace
}  // namespace rpckit::framing
