// Raw-byte fixtures for the Content-Length reader: every rule, with the reason text asserted.
#include "rpckit/framing/content_length_reader.hpp"

#include <gtest/gtest.h>

#include <string>

#include "rpckit/framing/memory_io.hpp"
#include "test_support.hpp"

namespace rpckit::framing {
namespace {

using testing::cl_frame;
using testing::kMiB;
using testing::kProtocolMax;
using testing::read_all;
using testing::ScriptedSource;

ReadResult read_one(std::string input, std::size_t max = kProtocolMax) {
  MemorySource source(std::move(input));
  ContentLengthReader reader(source, max);
  return reader.read();
}

void expect_failure(const std::string& input, ReadStatus status, const std::string& reason) {
  SCOPED_TRACE(input.substr(0, 80));
  const ReadResult result = read_one(input);
  EXPECT_EQ(to_string(result.status), to_string(status));
  EXPECT_EQ(result.reason, reason);
  EXPECT_TRUE(result.body.empty());
}

TEST(ContentLengthReader, ReadsOneFrameThenEof) {
  MemorySource source("Content-Length: 17\r\n\r\n{\"jsonrpc\":\"2.0\"}");
  ContentLengthReader reader(source, kProtocolMax);
  const ReadResult frame = reader.read();
  ASSERT_TRUE(frame.ok()) << frame.reason;
  EXPECT_EQ(frame.body, "{\"jsonrpc\":\"2.0\"}");
  EXPECT_TRUE(frame.reason.empty());
  const ReadResult end = reader.read();
  EXPECT_EQ(end.status, ReadStatus::kEof);
  EXPECT_EQ(end.reason, "end of stream");
}

TEST(ContentLengthReader, EmptyStreamIsEof) { EXPECT_EQ(read_one("").status, ReadStatus::kEof); }

TEST(ContentLengthReader, ZeroLengthBodyIsAFrame) {
  MemorySource source("Content-Length: 0\r\n\r\n" + cl_frame("{}"));
  ContentLengthReader reader(source, kProtocolMax);
  const auto results = read_all(reader);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_TRUE(results[0].ok());
  EXPECT_EQ(results[0].body, "");
  EXPECT_EQ(results[1].body, "{}");
  EXPECT_EQ(results[2].status, ReadStatus::kEof);
}

TEST(ContentLengthReader, LengthCountsBytesNotCharacters) {
  // 4 code points of 2, 3, 4 and 1 bytes: 10 bytes, 4 characters.
  const std::string text = "\xC3\xA9\xE2\x9C\x93\xF0\x9F\x98\x80!";
  const std::string body = "{\"s\":\"" + text + "\"}";
  ASSERT_EQ(text.size(), 10u);
  MemorySource source(cl_frame(body) + cl_frame("[1]"));
  ContentLengthReader reader(source, kProtocolMax);
  const ReadResult first = reader.read();
  ASSERT_TRUE(first.ok()) << first.reason;
  EXPECT_EQ(first.body, body);
  EXPECT_EQ(reader.read().body, "[1]");  // the byte count left the stream in sync
}

TEST(ContentLengthReader, CharacterCountDesynchronisesTheStream) {
  // A peer that counts characters (4 + 8) instead of bytes (10 + 8) cuts the body short; the
  // remaining bytes then fail as a header, not as a silently wrong frame later on.
  const std::string body = "{\"s\":\"\xC3\xA9\xE2\x9C\x93\xF0\x9F\x98\x80!\"}";
  MemorySource source("Content-Length: 12\r\n\r\n" + body + cl_frame("[1]"));
  ContentLengthReader reader(source, kProtocolMax);
  EXPECT_TRUE(reader.read().ok());
  EXPECT_TRUE(is_malformed(reader.read().status));
}

TEST(ContentLengthReader, HeaderNamesAreCaseInsensitive) {
  for (const char* name :
       {"Content-Length", "content-length", "CONTENT-LENGTH", "cOnTeNt-LeNgTh"}) {
    SCOPED_TRACE(name);
    const ReadResult result = read_one(std::string(name) + ": 2\r\n\r\n{}");
    ASSERT_TRUE(result.ok()) << result.reason;
    EXPECT_EQ(result.body, "{}");
  }
}

TEST(ContentLengthReader, UnknownHeadersAreIgnored) {
  const ReadResult result = read_one(
      "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
      "Content-Length: 2\r\n"
      "X-Trace: a:b:c\r\n"
      "\r\n{}");
  ASSERT_TRUE(result.ok()) << result.reason;
  EXPECT_EQ(result.body, "{}");
}

TEST(ContentLengthReader, WhitespaceAroundNameAndValueIsTolerated) {
  for (const char* header : {"Content-Length:2", "Content-Length:   2   ", "Content-Length:\t2\t",
                             "Content-Length : 2", " Content-Length: 2"}) {
    SCOPED_TRACE(header);
    const ReadResult result = read_one(std::string(header) + "\r\n\r\n{}");
    ASSERT_TRUE(result.ok()) << result.reason;
    EXPECT_EQ(result.body, "{}");
  }
}

TEST(ContentLengthReader, LeadingZerosAreDecimal) {
  EXPECT_EQ(read_one("Content-Length: 002\r\n\r\n{}").body, "{}");
}

TEST(ContentLengthReader, RepeatedContentLengthWithSameValueIsAccepted) {
  const ReadResult result = read_one("Content-Length: 2\r\ncontent-length: 2\r\n\r\n{}");
  ASSERT_TRUE(result.ok()) << result.reason;
  EXPECT_EQ(result.body, "{}");
}

TEST(ContentLengthReader, ConflictingContentLengthIsMalformed) {
  expect_failure("Content-Length: 2\r\nContent-Length: 3\r\n\r\n{} ",
                 ReadStatus::kConflictingContentLength,
                 "Content-Length given twice with different values (2 and 3)");
}

TEST(ContentLengthReader, MissingContentLength) {
  expect_failure("Content-Type: application/json\r\n\r\n{}", ReadStatus::kMissingContentLength,
                 "header section has no Content-Length field");
  expect_failure("\r\n{}", ReadStatus::kMissingContentLength,
                 "header section has no Content-Length field");
}

TEST(ContentLengthReader, NonNumericContentLength) {
  expect_failure("Content-Length: abc\r\n\r\n", ReadStatus::kBadContentLength,
                 "Content-Length \"abc\" is not a decimal byte count");
  expect_failure("Content-Length: +5\r\n\r\n", ReadStatus::kBadContentLength,
                 "Content-Length \"+5\" is not a decimal byte count");
  expect_failure("Content-Length: 0x10\r\n\r\n", ReadStatus::kBadContentLength,
                 "Content-Length \"0x10\" is not a decimal byte count");
  expect_failure("Content-Length: 1 2\r\n\r\n", ReadStatus::kBadContentLength,
                 "Content-Length \"1 2\" is not a decimal byte count");
  expect_failure("Content-Length: 2.0\r\n\r\n", ReadStatus::kBadContentLength,
                 "Content-Length \"2.0\" is not a decimal byte count");
  expect_failure("Content-Length:\r\n\r\n", ReadStatus::kBadContentLength,
                 "Content-Length has an empty value");
}

TEST(ContentLengthReader, NegativeContentLength) {
  expect_failure("Content-Length: -5\r\n\r\nabcde", ReadStatus::kBadContentLength,
                 "Content-Length \"-5\" is negative");
}

TEST(ContentLengthReader, OverflowingContentLength) {
  expect_failure("Content-Length: 18446744073709551616\r\n\r\n", ReadStatus::kBadContentLength,
                 "Content-Length \"18446744073709551616\" overflows a 64-bit count");
  // Fits in 64 bits: merely too big.
  expect_failure("Content-Length: 18446744073709551615\r\n\r\n", ReadStatus::kOversize,
                 "Content-Length 18446744073709551615 exceeds the 4194304-byte limit");
}

TEST(ContentLengthReader, HeaderLineWithoutColon) {
  expect_failure("Content-Length: 2\r\ngarbage\r\n\r\n{}", ReadStatus::kHeaderWithoutColon,
                 "header line 2 has no ':' (got \"garbage\")");
  // Binary garbage is escaped in the reason.
  expect_failure(std::string("\x01\xff\"x\r\n", 6), ReadStatus::kHeaderWithoutColon,
                 "header line 1 has no ':' (got \"\\x01\xff\\\"x\")");
}

TEST(ContentLengthReader, BareLineFeedIsMalformed) {
  expect_failure("Content-Length: 2\n\n{}", ReadStatus::kBadLineEnding,
                 "header line 1 ends with a bare '\\n' (header lines end with \"\\r\\n\")");
  expect_failure("Content-Length: 2\r\n\n{}", ReadStatus::kBadLineEnding,
                 "header line 2 ends with a bare '\\n' (header lines end with \"\\r\\n\")");
}

TEST(ContentLengthReader, UnframedJsonFailsAtTheFirstLine) {
  // A peer speaking NDJSON to a Content-Length reader is caught without waiting for the cap.
  ScriptedSource source({"{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}\n"}, /*fail_past_end=*/true);
  ContentLengthReader reader(source, kProtocolMax);
  EXPECT_EQ(reader.read().status, ReadStatus::kBadLineEnding);
}

TEST(ContentLengthReader, TruncatedBody) {
  expect_failure("Content-Length: 10\r\n\r\nabc", ReadStatus::kTruncatedBody,
                 "stream ended after 3 of 10 body bytes");
  expect_failure("Content-Length: 10\r\n\r\n", ReadStatus::kTruncatedBody,
                 "stream ended after 0 of 10 body bytes");
}

TEST(ContentLengthReader, TruncatedHeader) {
  expect_failure("Content-Length: 10\r\n", ReadStatus::kTruncatedHeader,
                 "stream ended inside the header section after 20 bytes: "
                 "\"Content-Length: 10\\r\\n\"");
  expect_failure("Content-Len", ReadStatus::kTruncatedHeader,
                 "stream ended inside the header section after 11 bytes: \"Content-Len\"");
}

TEST(ContentLengthReader, TruncatedHeaderAfterAGoodFrame) {
  MemorySource source(cl_frame("{}") + "Content-Length: 2\r\n\r");
  ContentLengthReader reader(source, kProtocolMax);
  EXPECT_TRUE(reader.read().ok());
  EXPECT_EQ(reader.read().status, ReadStatus::kTruncatedHeader);
}

TEST(ContentLengthReader, StrayLineBreakBetweenFramesIsMalformed) {
  // Strict framing: a CRLF after a body starts an empty header section.
  MemorySource source(cl_frame("{}") + "\r\n" + cl_frame("{}"));
  ContentLengthReader reader(source, kProtocolMax);
  EXPECT_TRUE(reader.read().ok());
  EXPECT_EQ(reader.read().status, ReadStatus::kMissingContentLength);
}

TEST(ContentLengthReader, HeaderSectionIsCapped) {
  const std::string pad(9000, 'a');
  expect_failure("Content-Length: 2\r\nX-Pad: " + pad + "\r\n\r\n{}", ReadStatus::kHeaderTooLong,
                 "header section exceeds the 8192-byte limit");
}

TEST(ContentLengthReader, HeaderSectionOfExactlyTheCapIsAccepted) {
  const std::string head = "Content-Length: 2\r\nX-Pad: ";
  const std::size_t cap = ReaderOptions{}.max_header_bytes;
  const std::string pad(cap - head.size() - 4, 'p');
  EXPECT_TRUE(read_one(head + pad + "\r\n\r\n{}").ok());
  EXPECT_EQ(read_one(head + pad + "p\r\n\r\n{}").status, ReadStatus::kHeaderTooLong);
}

TEST(ContentLengthReader, EndlessHeaderIsNotBufferedWithoutBound) {
  for (const char fill : {'a', ':', '\r'}) {
    SCOPED_TRACE(fill);
    testing::EndlessSource source("Content-Length: 2\r\nX: ", fill, 1000);
    ContentLengthReader reader(source, kProtocolMax);
    EXPECT_EQ(reader.read().status, ReadStatus::kHeaderTooLong);
    EXPECT_LE(source.delivered(), ReaderOptions{}.max_header_bytes + 1000);
  }
}

TEST(ContentLengthReader, ExactlyTheMaximumIsAccepted) {
  const std::string header = "Content-Length: 4194304\r\n\r\n";
  const std::string body(kProtocolMax, 'x');
  ScriptedSource source({header, body});
  ContentLengthReader reader(source, kProtocolMax);
  const ReadResult result = reader.read();
  ASSERT_TRUE(result.ok()) << result.reason;
  EXPECT_EQ(result.body.size(), kProtocolMax);
  EXPECT_EQ(reader.read().status, ReadStatus::kEof);
}

TEST(ContentLengthReader, OneOverTheMaximumIsRejectedBeforeTheBodyIsRead) {
  // The source holds only the header: any read for body bytes fails the test.
  ScriptedSource source({"Content-Length: 4194305\r\n\r\n"}, /*fail_past_end=*/true);
  ContentLengthReader reader(source, kProtocolMax);
  const ReadResult result = reader.read();
  EXPECT_EQ(result.status, ReadStatus::kOversize);
  EXPECT_FALSE(is_malformed(result.status));
  EXPECT_EQ(result.reason, "Content-Length 4194305 exceeds the 4194304-byte limit");
  EXPECT_EQ(source.read_calls(), 1u);
}

TEST(ContentLengthReader, OversizeLeavesTheBodyUnread) {
  // With the body in the same source, the reader still stops at the header.
  MemorySource source("Content-Length: 4194305\r\n\r\n" + std::string(kProtocolMax + 1, 'x'), 64);
  ContentLengthReader reader(source, kProtocolMax);
  EXPECT_EQ(reader.read().status, ReadStatus::kOversize);
  EXPECT_EQ(source.bytes_delivered(), 64u);
}

TEST(ContentLengthReader, MaximumIsAConstructorParameter) {
  MemorySource source(cl_frame("12345") + cl_frame("123456"));
  ContentLengthReader reader(source, 5);
  EXPECT_EQ(reader.read().body, "12345");
  const ReadResult result = reader.read();
  EXPECT_EQ(result.status, ReadStatus::kOversize);
  EXPECT_EQ(result.reason, "Content-Length 6 exceeds the 5-byte limit");
}

TEST(ContentLengthReader, FailuresAreStickyAndStopReading) {
  ScriptedSource source({"Content-Length: 2\r\ngarbage\r\n\r\n{}", cl_frame("{}")});
  ContentLengthReader reader(source, kProtocolMax);
  const ReadResult first = reader.read();
  EXPECT_EQ(first.status, ReadStatus::kHeaderWithoutColon);
  const std::size_t calls = source.read_calls();
  for (int i = 0; i < 3; ++i) {
    const ReadResult again = reader.read();
    EXPECT_EQ(again.status, first.status);
    EXPECT_EQ(again.reason, first.reason);
  }
  EXPECT_EQ(source.read_calls(), calls);
}

TEST(ContentLengthReader, OversizeIsSticky) {
  MemorySource source("Content-Length: 6\r\n\r\n123456" + cl_frame("1"));
  ContentLengthReader reader(source, 5);
  EXPECT_EQ(reader.read().status, ReadStatus::kOversize);
  EXPECT_EQ(reader.read().status, ReadStatus::kOversize);
}

TEST(ContentLengthReader, EofIsSticky) {
  MemorySource source(cl_frame("{}"));
  ContentLengthReader reader(source, kProtocolMax);
  EXPECT_TRUE(reader.read().ok());
  EXPECT_EQ(reader.read().status, ReadStatus::kEof);
  EXPECT_EQ(reader.read().status, ReadStatus::kEof);
}

TEST(ContentLengthReader, SourceErrorIsAnIoErrorNotMalformed) {
  testing::FailingSource source;
  ContentLengthReader reader(source, kProtocolMax);
  const ReadResult result = reader.read();
  EXPECT_EQ(result.status, ReadStatus::kIoError);
  EXPECT_FALSE(is_malformed(result.status));
  EXPECT_EQ(result.reason,
            "read failed: " + std::make_error_code(std::errc::connection_reset).message());
  EXPECT_EQ(reader.read().status, ReadStatus::kIoError);
  EXPECT_EQ(source.read_calls, 1u);
}

TEST(ContentLengthReader, SeveralFramesInOneRead) {
  std::string input;
  for (int i = 0; i < 100; ++i) input += cl_frame("{\"id\":" + std::to_string(i) + "}");
  ScriptedSource source({input});
  ContentLengthReader reader(source, kProtocolMax);
  for (int i = 0; i < 100; ++i) {
    const ReadResult result = reader.read();
    ASSERT_TRUE(result.ok()) << result.reason;
    EXPECT_EQ(result.body, "{\"id\":" + std::to_string(i) + "}");
  }
  EXPECT_EQ(reader.read().status, ReadStatus::kEof);
  EXPECT_EQ(source.read_calls(), 2u);  // one read for all frames, one to see EOF
}

TEST(ContentLengthReader, ReadsInLargeChunksNeverByteByByte) {
  std::string input;
  for (int i = 0; i < 50; ++i) input += cl_frame(std::string(static_cast<std::size_t>(i), 'a'));
  input += cl_frame(std::string(kMiB, 'b'));  // one body bigger than a chunk
  input += cl_frame("{}");
  ScriptedSource source({input});
  ContentLengthReader reader(source, kProtocolMax);
  const auto results = read_all(reader);
  ASSERT_EQ(results.size(), 53u);
  EXPECT_EQ(results[50].body.size(), kMiB);
  EXPECT_EQ(results[51].body, "{}");
  for (const std::size_t requested : source.requested()) {
    EXPECT_GE(requested, ReaderOptions{}.chunk_bytes);
  }
  EXPECT_LE(source.read_calls(), 4u);
}

TEST(ContentLengthReader, LargeBodyArrivingInSmallReads) {
  const std::string body(3 * kMiB + 17, 'z');
  MemorySource source(cl_frame(body) + cl_frame("{}"), 4096);
  ContentLengthReader reader(source, kProtocolMax);
  const ReadResult result = reader.read();
  ASSERT_TRUE(result.ok()) << result.reason;
  EXPECT_EQ(result.body, body);
  EXPECT_EQ(reader.read().body, "{}");
}

TEST(ContentLengthReader, TruncatedLargeBodyReportsBytesRead) {
  MemorySource source("Content-Length: 200000\r\n\r\n" + std::string(150000, 'x'), 7000);
  ContentLengthReader reader(source, kProtocolMax);
  const ReadResult result = reader.read();
  EXPECT_EQ(result.status, ReadStatus::kTruncatedBody);
  EXPECT_EQ(result.reason, "stream ended after 150000 of 200000 body bytes");
}

}  // namespace
}  // namespace rpckit::framing
