#include "rpckit/framing/read_result.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "rpckit/framing/frame_writer.hpp"

namespace rpckit::framing {
namespace {

constexpr ReadStatus kAll[] = {
    ReadStatus::kOk,
    ReadStatus::kEof,
    ReadStatus::kOversize,
    ReadStatus::kIoError,
    ReadStatus::kTimedOut,
    ReadStatus::kMissingContentLength,
    ReadStatus::kBadContentLength,
    ReadStatus::kConflictingContentLength,
    ReadStatus::kHeaderWithoutColon,
    ReadStatus::kBadLineEnding,
    ReadStatus::kHeaderTooLong,
    ReadStatus::kTruncatedHeader,
    ReadStatus::kTruncatedBody,
};

TEST(ReadStatus, OnlyFramingViolationsAreMalformed) {
  EXPECT_FALSE(is_malformed(ReadStatus::kOk));
  EXPECT_FALSE(is_malformed(ReadStatus::kEof));
  EXPECT_FALSE(is_malformed(ReadStatus::kOversize));
  EXPECT_FALSE(is_malformed(ReadStatus::kIoError));
  EXPECT_FALSE(is_malformed(ReadStatus::kTimedOut));
  int malformed = 0;
  for (const ReadStatus status : kAll) malformed += is_malformed(status) ? 1 : 0;
  EXPECT_EQ(malformed, 8);
}

TEST(ReadStatus, NamesAreDistinct) {
  std::set<std::string> names;
  for (const ReadStatus status : kAll) names.emplace(to_string(status));
  EXPECT_EQ(names.size(), std::size(kAll));
  EXPECT_EQ(to_string(ReadStatus::kHeaderWithoutColon), "header-without-colon");
  EXPECT_EQ(names.count("unknown"), 0u);
}

TEST(ReadResult, OkOnlyForOk) {
  EXPECT_TRUE(ReadResult{}.ok());
  EXPECT_FALSE((ReadResult{ReadStatus::kEof, {}, "end of stream"}.ok()));
}

TEST(WriteStatus, NamesAreDistinct) {
  std::set<std::string> names;
  for (const WriteStatus status : {WriteStatus::kOk, WriteStatus::kOversize,
                                   WriteStatus::kInvalidBody, WriteStatus::kIoError}) {
    names.emplace(to_string(status));
  }
  EXPECT_EQ(names.size(), 4u);
}

}  // namespace
}  // namespace rpckit::framing
