// Choosing the framing per connection.
#include <gtest/gtest.h>

#include "rpckit/framing/framing.hpp"
#include "rpckit/framing/memory_io.hpp"
#include "test_support.hpp"

namespace rpckit::framing {
namespace {

TEST(Framing, NamesRoundTrip) {
  for (const Framing framing : {Framing::kContentLength, Framing::kNewlineDelimited}) {
    EXPECT_EQ(parse_framing(to_string(framing)), framing);
  }
  EXPECT_EQ(to_string(Framing::kContentLength), "content-length");
  EXPECT_EQ(to_string(Framing::kNewlineDelimited), "ndjson");
  EXPECT_EQ(parse_framing("Content-Length"), Framing::kContentLength);
  EXPECT_EQ(parse_framing("newline-delimited"), Framing::kNewlineDelimited);
  EXPECT_EQ(parse_framing("NDJSON"), Framing::kNewlineDelimited);
  EXPECT_EQ(parse_framing("lsp"), std::nullopt);
  EXPECT_EQ(parse_framing(""), std::nullopt);
}

class FactoryRoundTrip : public ::testing::TestWithParam<Framing> {};

TEST_P(FactoryRoundTrip, WriterOutputParsesBack) {
  MemorySink sink;
  auto writer = make_writer(GetParam(), sink, 100);
  const std::vector<std::string> bodies = {"{}", "[1,2]", "\"\xE2\x9C\x93\"",
                                           std::string(100, 'x')};
  for (const std::string& body : bodies) ASSERT_TRUE(writer->write(body).ok());
  EXPECT_EQ(writer->write(std::string(101, 'x')).status, WriteStatus::kOversize);

  MemorySource source(sink.contents(), 3);
  auto reader = make_reader(GetParam(), source, 100);
  const auto results = testing::read_all(*reader);
  EXPECT_EQ(testing::bodies_of(results), bodies);
  EXPECT_EQ(results.back().status, ReadStatus::kEof);
}

TEST_P(FactoryRoundTrip, ReaderEnforcesTheGivenMaximum) {
  MemorySink sink;
  ASSERT_TRUE(make_writer(GetParam(), sink, 100)->write(std::string(11, 'x')).ok());
  MemorySource source(sink.contents());
  EXPECT_EQ(make_reader(GetParam(), source, 10)->read().status, ReadStatus::kOversize);
}

TEST(Framing, ReadersDoNotUnderstandEachOther) {
  MemorySink sink;
  ASSERT_TRUE(make_writer(Framing::kNewlineDelimited, sink, 100)->write("{\"a\":1}").ok());
  MemorySource source(sink.contents());
  EXPECT_TRUE(is_malformed(make_reader(Framing::kContentLength, source, 100)->read().status));
}

INSTANTIATE_TEST_SUITE_P(Framings, FactoryRoundTrip,
                         ::testing::Values(Framing::kContentLength, Framing::kNewlineDelimited),
                         testing::framing_test_name);

}  // namespace
}  // namespace rpckit::framing
