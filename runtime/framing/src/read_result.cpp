#include "rpckit/framing/read_result.hpp"

namespace rpckit::framing {

bool is_malformed(ReadStatus status) {
  switch (status) {
    case ReadStatus::kOk:
    case ReadStatus::kEof:
    case ReadStatus::kOversize:
    case ReadStatus::kIoError:
    case ReadStatus::kTimedOut:
      return false;
    case ReadStatus::kMissingContentLength:
    case ReadStatus::kBadContentLength:
    case ReadStatus::kConflictingContentLength:
    case ReadStatus::kHeaderWithoutColon:
    case ReadStatus::kBadLineEnding:
    case ReadStatus::kHeaderTooLong:
    case ReadStatus::kTruncatedHeader:
    case ReadStatus::kTruncatedBody:
      return true;
  }
  return false;
}

std::string_view to_string(ReadStatus status) {
  switch (status) {
    case ReadStatus::kOk:
      return "ok";
    case ReadStatus::kEof:
      return "eof";
    case ReadStatus::kOversize:
      return "oversize";
    case ReadStatus::kIoError:
      return "io-error";
    case ReadStatus::kTimedOut:
      return "timed-out";
    case ReadStatus::kMissingContentLength:
      return "missing-content-length";
    case ReadStatus::kBadContentLength:
      return "bad-content-length";
    case ReadStatus::kConflictingContentLength:
      return "conflicting-content-length";
    case ReadStatus::kHeaderWithoutColon:
      return "header-without-colon";
    case ReadStatus::kBadLineEnding:
      return "bad-line-ending";
    case ReadStatus::kHeaderTooLong:
      return "header-too-long";
    case ReadStatus::kTruncatedHeader:
      return "truncated-header";
    case ReadStatus::kTruncatedBody:
      return "truncated-body";
  }
  return "unknown";
}

}  // namespace rpckit::framing
