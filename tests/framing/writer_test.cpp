// Content-Length and NDJSON writers: exact bytes on the wire, refusals, sticky I/O failures.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rpckit/framing/content_length_writer.hpp"
#include "rpckit/framing/memory_io.hpp"
#include "rpckit/framing/ndjson_writer.hpp"
#include "test_support.hpp"

namespace rpckit::framing {
namespace {

using testing::kProtocolMax;

// Fails every write with the given error, counting the attempts.
class BrokenSink final : public ByteSink {
 public:
  std::size_t calls = 0;

 private:
  std::error_code write_parts(std::span<const std::string_view>) override {
    ++calls;
    return std::make_error_code(std::errc::broken_pipe);
  }
};

TEST(ContentLengthWriter, WritesHeaderAndBody) {
  MemorySink sink;
  ContentLengthWriter writer(sink, kProtocolMax);
  ASSERT_TRUE(writer.write(R"({"id":1})").ok());
  ASSERT_TRUE(writer.write("").ok());
  EXPECT_EQ(sink.contents(), "Content-Length: 8\r\n\r\n{\"id\":1}Content-Length: 0\r\n\r\n");
}

TEST(ContentLengthWriter, OneSinkCallPerFrame) {
  MemorySink sink;
  ContentLengthWriter writer(sink, kProtocolMax);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(writer.write("{}").ok());
  EXPECT_EQ(sink.write_calls(), 5u);
}

TEST(ContentLengthWriter, CountsBytes) {
  MemorySink sink;
  ContentLengthWriter writer(sink, kProtocolMax);
  ASSERT_TRUE(writer.write("\"\xC3\xA9\xF0\x9F\x98\x80\"").ok());  // 2 characters, 8 bytes
  EXPECT_EQ(sink.contents(), "Content-Length: 8\r\n\r\n\"\xC3\xA9\xF0\x9F\x98\x80\"");
}

TEST(ContentLengthWriter, AcceptsExactlyTheMaximum) {
  MemorySink sink;
  ContentLengthWriter writer(sink, kProtocolMax);
  const std::string body(kProtocolMax, 'x');
  ASSERT_TRUE(writer.write(body).ok());
  EXPECT_EQ(sink.contents(), "Content-Length: 4194304\r\n\r\n" + body);
}

TEST(ContentLengthWriter, RefusesOversizeWithoutWriting) {
  MemorySink sink;
  ContentLengthWriter writer(sink, kProtocolMax);
  const WriteResult result = writer.write(std::string(kProtocolMax + 1, 'x'));
  EXPECT_EQ(result.status, WriteStatus::kOversize);
  EXPECT_EQ(result.reason, "body of 4194305 bytes exceeds the 4194304-byte limit");
  EXPECT_EQ(sink.write_calls(), 0u);
  EXPECT_TRUE(writer.write("{}").ok());  // a refusal does not poison the writer
  EXPECT_EQ(sink.contents(), "Content-Length: 2\r\n\r\n{}");
}

TEST(NdjsonWriter, WritesBodyAndNewline) {
  MemorySink sink;
  NdjsonWriter writer(sink, kProtocolMax);
  ASSERT_TRUE(writer.write(R"({"text":"a\nb"})").ok());  // escaped newline: fine
  ASSERT_TRUE(writer.write("[]").ok());
  EXPECT_EQ(sink.contents(), "{\"text\":\"a\\nb\"}\n[]\n");
  EXPECT_EQ(sink.write_calls(), 2u);
}

TEST(NdjsonWriter, RefusesRawNewline) {
  MemorySink sink;
  NdjsonWriter writer(sink, kProtocolMax);
  const WriteResult result = writer.write("{\"a\":\n1}");
  EXPECT_EQ(result.status, WriteStatus::kInvalidBody);
  EXPECT_EQ(result.reason, "body holds a raw newline at byte 5 (NDJSON needs one body per line)");
  EXPECT_EQ(sink.write_calls(), 0u);
  EXPECT_TRUE(writer.write("{}").ok());
}

TEST(NdjsonWriter, RefusesBlankBody) {
  MemorySink sink;
  NdjsonWriter writer(sink, kProtocolMax);
  for (const char* body : {"", "  ", "\r"}) {
    const WriteResult result = writer.write(body);
    EXPECT_EQ(result.status, WriteStatus::kInvalidBody);
    EXPECT_EQ(result.reason, "body is blank (NDJSON readers skip blank lines)");
  }
  EXPECT_EQ(sink.write_calls(), 0u);
}

TEST(NdjsonWriter, MaximumApplies) {
  MemorySink sink;
  NdjsonWriter writer(sink, 10);
  EXPECT_TRUE(writer.write(std::string(10, 'x')).ok());
  const WriteResult result = writer.write(std::string(11, 'x'));
  EXPECT_EQ(result.status, WriteStatus::kOversize);
  EXPECT_EQ(result.reason, "body of 11 bytes exceeds the 10-byte limit");
  EXPECT_EQ(sink.contents(), std::string(10, 'x') + "\n");
}

TEST(FrameWriter, IoFailureIsStickyAndStopsWriting) {
  for (const bool ndjson : {false, true}) {
    BrokenSink sink;
    std::unique_ptr<FrameWriter> writer;
    if (ndjson) {
      writer = std::make_unique<NdjsonWriter>(sink, kProtocolMax);
    } else {
      writer = std::make_unique<ContentLengthWriter>(sink, kProtocolMax);
    }
    const WriteResult first = writer->write("{}");
    EXPECT_EQ(first.status, WriteStatus::kIoError);
    EXPECT_EQ(first.error, std::errc::broken_pipe);
    EXPECT_EQ(first.reason,
              "write failed: " + std::make_error_code(std::errc::broken_pipe).message());
    const WriteResult second = writer->write("{}");
    EXPECT_EQ(second.status, WriteStatus::kIoError);
    EXPECT_EQ(second.error, first.error);
    EXPECT_EQ(sink.calls, 1u);
  }
}

}  // namespace
}  // namespace rpckit::framing
