// Raw-byte fixtures for the newline-delimited JSON reader.
#include "rpckit/framing/ndjson_reader.hpp"

#include <gtest/gtest.h>

#include <string>

#include "rpckit/framing/memory_io.hpp"
#include "test_support.hpp"

namespace rpckit::framing {
namespace {

using testing::bodies_of;
using testing::kProtocolMax;
using testing::read_all;
using testing::ScriptedSource;
using Bodies = std::vector<std::string>;

std::vector<ReadResult> read_all_of(std::string input, std::size_t max = kProtocolMax) {
  MemorySource source(std::move(input));
  NdjsonReader reader(source, max);
  return read_all(reader);
}

// Strict lines (a one-shot exchange's "lines": "strict", core line plugins).
std::vector<ReadResult> read_strictly(std::string input, std::size_t max = kProtocolMax) {
  MemorySource source(std::move(input));
  ReaderOptions options;
  options.deliver_blank_lines = true;
  options.accept_unterminated_last_line = true;
  NdjsonReader reader(source, max, options);
  return read_all(reader);
}

TEST(NdjsonReader, StrictLinesDeliverBlankLinesAsEmptyBodies) {
  const auto results = read_strictly("{}\n\n \t\r\n[]\n");
  EXPECT_EQ(bodies_of(results), (Bodies{"{}", "", "", "[]"}));
  EXPECT_EQ(results.back().status, ReadStatus::kEof);
}

TEST(NdjsonReader, StrictLinesStripSurroundingWhitespace) {
  EXPECT_EQ(bodies_of(read_strictly("  {\"a\": 1} \t\r\n\t[ 2 ]\n")), (Bodies{"{\"a\": 1}", "[ 2 ]"}));
}

TEST(NdjsonReader, StrictLinesTakeALastLineEndedByEof) {
  const auto results = read_strictly("{}\n [3] ");
  EXPECT_EQ(bodies_of(results), (Bodies{"{}", "[3]"}));
  EXPECT_EQ(results.back().status, ReadStatus::kEof);
  // Only blanks after the last newline are a clean end, as without the option.
  EXPECT_EQ(read_strictly("{}\n  ").back().status, ReadStatus::kEof);
  EXPECT_EQ(bodies_of(read_strictly("{}\n  ")), (Bodies{"{}"}));
}

TEST(NdjsonReader, StrictLinesKeepTheLimit) {
  const auto results = read_strictly(std::string(11, 'x'), 10);
  ASSERT_FALSE(results.empty());
  EXPECT_EQ(results.back().status, ReadStatus::kOversize);
  EXPECT_EQ(bodies_of(read_strictly(std::string(10, 'x'), 10)), (Bodies{std::string(10, 'x')}));
}

TEST(NdjsonReader, OneBodyPerLine) {
  const auto results = read_all_of("{\"a\":1}\n[2]\n\"three\"\n");
  EXPECT_EQ(bodies_of(results), (Bodies{"{\"a\":1}", "[2]", "\"three\""}));
  EXPECT_EQ(results.back().status, ReadStatus::kEof);
  EXPECT_EQ(results.back().reason, "end of stream");
}

TEST(NdjsonReader, CrLfIsTolerated) {
  EXPECT_EQ(bodies_of(read_all_of("{\"a\":1}\r\n[2]\r\n")), (Bodies{"{\"a\":1}", "[2]"}));
}

TEST(NdjsonReader, BlankLinesAreSkipped) {
  const auto results = read_all_of("\n\r\n{}\n\n  \t\n[]\r\n\r\n\n");
  EXPECT_EQ(bodies_of(results), (Bodies{"{}", "[]"}));
  EXPECT_EQ(results.back().status, ReadStatus::kEof);
}

TEST(NdjsonReader, InnerWhitespaceAndCarriageReturnsAreKept) {
  EXPECT_EQ(bodies_of(read_all_of(" { \"a\" : 1 } \n{\"b\":\r2}\n")),
            (Bodies{" { \"a\" : 1 } ", "{\"b\":\r2}"}));
}

TEST(NdjsonReader, Utf8BodiesAreBytes) {
  const std::string body = "{\"s\":\"\xC3\xA9\xE2\x9C\x93\xF0\x9F\x98\x80\"}";
  EXPECT_EQ(bodies_of(read_all_of(body + "\n", body.size())), (Bodies{body}));
  const auto too_small = read_all_of(body + "\n", body.size() - 1);
  EXPECT_EQ(too_small.back().status, ReadStatus::kOversize);
}

TEST(NdjsonReader, EmptyStreamIsEof) { EXPECT_EQ(read_all_of("").back().status, ReadStatus::kEof); }

TEST(NdjsonReader, EofInsideANonEmptyLineIsTruncated) {
  const auto results = read_all_of("{}\n{\"a\":");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[1].status, ReadStatus::kTruncatedBody);
  EXPECT_TRUE(is_malformed(results[1].status));
  EXPECT_EQ(results[1].reason, "stream ended inside a line after 5 bytes without a newline");
}

TEST(NdjsonReader, EofAfterTrailingBlanksIsClean) {
  EXPECT_EQ(read_all_of("{}\n  \r").back().status, ReadStatus::kEof);
}

TEST(NdjsonReader, ExactlyTheMaximumIsAccepted) {
  const std::string line(100, 'x');
  EXPECT_EQ(bodies_of(read_all_of(line + "\n", 100)), (Bodies{line}));
  EXPECT_EQ(bodies_of(read_all_of(line + "\r\n", 100)), (Bodies{line}));
  // Same when the line and its terminator arrive separately.
  ScriptedSource source({line, "\r", "\n"});
  NdjsonReader reader(source, 100);
  EXPECT_EQ(reader.read().body, line);
}

TEST(NdjsonReader, OneOverTheMaximumIsRejected) {
  const auto results = read_all_of(std::string(101, 'x') + "\n", 100);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].status, ReadStatus::kOversize);
  EXPECT_FALSE(is_malformed(results[0].status));
  EXPECT_EQ(results[0].reason, "line of 101 bytes exceeds the 100-byte limit");
}

TEST(NdjsonReader, OversizeIsReportedBeforeTheNewlineArrives) {
  // 101 bytes without '\r' cannot become a 100-byte line: no further read is needed.
  ScriptedSource source({std::string(101, 'x')}, /*fail_past_end=*/true);
  NdjsonReader reader(source, 100);
  const ReadResult result = reader.read();
  EXPECT_EQ(result.status, ReadStatus::kOversize);
  EXPECT_EQ(result.reason,
            "line exceeds the 100-byte limit (101 bytes buffered without a newline)");
}

TEST(NdjsonReader, OversizeIsDetectedWithoutBufferingTheWholeLine) {
  testing::EndlessSource source("", 'x', 1000);
  const std::size_t chunk = 4096;
  NdjsonReader reader(source, 100000, ReaderOptions{.chunk_bytes = chunk});
  EXPECT_EQ(reader.read().status, ReadStatus::kOversize);
  EXPECT_LE(source.delivered(), 100000 + 1 + chunk);
}

TEST(NdjsonReader, OversizeIsStickyAndStopsReading) {
  ScriptedSource source({std::string(20, 'x') + "\n{}\n"});
  NdjsonReader reader(source, 10);
  EXPECT_EQ(reader.read().status, ReadStatus::kOversize);
  EXPECT_EQ(reader.read().status, ReadStatus::kOversize);
  EXPECT_EQ(source.read_calls(), 1u);
}

TEST(NdjsonReader, SeveralLinesInOneRead) {
  std::string input;
  for (int i = 0; i < 100; ++i) input += "{\"id\":" + std::to_string(i) + "}\n";
  ScriptedSource source({input});
  NdjsonReader reader(source, kProtocolMax);
  const auto results = read_all(reader);
  ASSERT_EQ(results.size(), 101u);
  EXPECT_EQ(results[99].body, "{\"id\":99}");
  EXPECT_EQ(source.read_calls(), 2u);
  for (const std::size_t requested : source.requested()) {
    EXPECT_GE(requested, ReaderOptions{}.chunk_bytes);
  }
}

TEST(NdjsonReader, LongLineAcrossManyReads) {
  const std::string line(300000, 'q');
  MemorySource source(line + "\n{}\n", 1000);
  NdjsonReader reader(source, kProtocolMax);
  EXPECT_EQ(reader.read().body, line);
  EXPECT_EQ(reader.read().body, "{}");
}

TEST(NdjsonReader, SourceErrorIsAnIoError) {
  testing::FailingSource source;
  NdjsonReader reader(source, kProtocolMax);
  EXPECT_EQ(reader.read().status, ReadStatus::kIoError);
  EXPECT_EQ(reader.read().status, ReadStatus::kIoError);
  EXPECT_EQ(source.read_calls, 1u);
}

}  // namespace
}  // namespace rpckit::framing
