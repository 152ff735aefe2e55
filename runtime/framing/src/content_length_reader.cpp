#include "rpckit/framing/content_length_reader.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "content_length_header.hpp"
#include "text.hpp"

namespace rpckit::framing {

ContentLengthReader::ContentLengthReader(ByteSource& source, std::size_t max_body_bytes,
                                         ReaderOptions options)
    : source_(source),
      max_body_bytes_(max_body_bytes),
      options_(options),
      buffer_(options.chunk_bytes) {
  options_.chunk_bytes = std::max<std::size_t>(options_.chunk_bytes, 1);
}

ReadResult ContentLengthReader::read() {
  if (terminal_) return *terminal_;
  if (skip_remaining_ > 0) {
    if (std::optional<ReadResult> stopped = skip_body()) return *std::move(stopped);
  }
  if (!body_) {
    std::size_t body_bytes = 0;
    ReadResult header = read_header(body_bytes);
    if (!header.ok()) return header;
    body_.emplace(body_bytes, '\0');
    body_filled_ = 0;
  }
  return read_body();
}

ReadResult ContentLengthReader::fail(ReadStatus status, std::string reason) {
  terminal_ = ReadResult{status, {}, std::move(reason)};
  return *terminal_;
}

// The frame starts at the front of the buffer. Lines are checked as soon as they are complete,
// so a peer writing unframed JSON is reported at its first line instead of after the cap.
ReadResult ContentLengthReader::read_header(std::size_t& body_bytes) {
  ContentLengthHeader header;
  std::size_t line_start = 0;
  std::size_t scan_from = 0;
  for (;;) {
    const std::string_view data = buffer_.data();
    for (std::size_t lf; (lf = data.find('\n', scan_from)) != std::string_view::npos;) {
      if (lf == line_start || data[lf - 1] != '\r') {
        return fail(ReadStatus::kBadLineEnding,
                    "header line " + std::to_string(header.lines() + 1) +
                        " ends with a bare '\\n' (header lines end with \"\\r\\n\")");
      }
      const std::string_view line = data.substr(line_start, lf - 1 - line_start);
      line_start = scan_from = lf + 1;
      if (line_start > options_.max_header_bytes) break;
      if (line.empty()) {
        buffer_.consume(line_start);
        if (!header.content_length()) {
          return fail(ReadStatus::kMissingContentLength,
                      "header section has no Content-Length field");
        }
        const std::uint64_t length = *header.content_length();
        if (length > max_body_bytes_) {
          std::string reason = "Content-Length " + std::to_string(length) + " exceeds " +
                               text::byte_limit(max_body_bytes_);
          if (!options_.resume_after_oversize) return fail(ReadStatus::kOversize, reason);
          skip_remaining_ = length;  // dropped as it arrives, at the next read()
          return ReadResult{ReadStatus::kOversize, {}, std::move(reason)};
        }
        body_bytes = static_cast<std::size_t>(length);
        return {};
      }
      if (auto bad = header.add_line(line)) return fail(bad->status, std::move(bad->reason));
    }
    // Whatever comes next, the blank line would end past the cap.
    if (line_start > options_.max_header_bytes || data.size() >= options_.max_header_bytes) {
      return fail(ReadStatus::kHeaderTooLong,
                  "header section exceeds " + text::byte_limit(options_.max_header_bytes));
    }
    scan_from = data.size();
    const IoResult got = buffer_.fill(source_);
    if (got.timed_out()) return ReadResult::timed_out();  // the header stays buffered
    if (got.error) return fail(ReadStatus::kIoError, "read failed: " + got.error.message());
    if (got.eof()) {
      if (buffer_.size() == 0) return fail(ReadStatus::kEof, "end of stream");
      return fail(ReadStatus::kTruncatedHeader, "stream ended inside the header section after " +
                                                    std::to_string(buffer_.size()) +
                                                    " bytes: " + text::quote(buffer_.data()));
    }
  }
}

// Drops the body of a frame over the limit: nullopt once it is gone, else what read()
// returns (the stream ended or failed first, or the deadline passed).
std::optional<ReadResult> ContentLengthReader::skip_body() {
  while (skip_remaining_ > 0) {
    if (buffer_.size() > 0) {
      const std::size_t take =
          static_cast<std::size_t>(std::min<std::uint64_t>(skip_remaining_, buffer_.size()));
      buffer_.consume(take);
      skip_remaining_ -= take;
      continue;
    }
    const IoResult got = buffer_.fill(source_);
    if (got.timed_out()) return ReadResult::timed_out();
    if (got.error) return fail(ReadStatus::kIoError, "read failed: " + got.error.message());
    if (got.eof()) return fail(ReadStatus::kTruncatedBody, "stream ended inside an over-long body");
  }
  return std::nullopt;
}

ReadResult ContentLengthReader::read_body() {
  std::string& body = *body_;
  const std::size_t body_bytes = body.size();
  while (body_filled_ < body_bytes) {
    const std::size_t missing = body_bytes - body_filled_;
    if (buffer_.size() > 0) {
      const std::size_t take = std::min(missing, buffer_.size());
      buffer_.data().copy(body.data() + body_filled_, take);
      buffer_.consume(take);
      body_filled_ += take;
      continue;
    }
    // A big remainder is read straight into the body; a small one through the buffer, so the
    // same read can pick up the frames behind it.
    const IoResult got = missing >= options_.chunk_bytes
                             ? source_.read({body.data() + body_filled_, missing})
                             : buffer_.fill(source_);
    if (got.timed_out()) return ReadResult::timed_out();  // body_ keeps what has arrived
    if (got.error) return fail(ReadStatus::kIoError, "read failed: " + got.error.message());
    if (got.eof()) {
      return fail(ReadStatus::kTruncatedBody, "stream ended after " + std::to_string(body_filled_) +
                                                  " of " + std::to_string(body_bytes) +
                                                  " body bytes");
    }
    if (missing >= options_.chunk_bytes) body_filled_ += std::min(got.bytes, missing);
  }
  ReadResult result{ReadStatus::kOk, std::move(body), {}};
  body_.reset();
  return result;
}

}  // namespace rpckit::framing
