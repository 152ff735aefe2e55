#include "rpckit/framing/ndjson_reader.hpp"

#include <string>

#include "text.hpp"

namespace rpckit::framing {

namespace {
std::string limit_text(std::size_t limit) { return "the " + std::to_string(limit) + "-byte limit"; }
}  // namespace

NdjsonReader::NdjsonReader(ByteSource& source, std::size_t max_body_bytes, ReaderOptions options)
    : source_(source),
      max_body_bytes_(max_body_bytes),
      deliver_blank_lines_(options.deliver_blank_lines),
      accept_unterminated_last_line_(options.accept_unterminated_last_line),
      buffer_(options.chunk_bytes) {}

ReadResult NdjsonReader::fail(ReadStatus status, std::string reason) {
  terminal_ = ReadResult{status, {}, std::move(reason)};
  return *terminal_;
}

bool NdjsonReader::strips_lines() const {
  return deliver_blank_lines_ || accept_unterminated_last_line_;
}

ReadResult NdjsonReader::read() {
  if (terminal_) return *terminal_;
  std::size_t scan_from = 0;  // the buffered line has no '\n' before this offset
  for (;;) {
    const std::string_view data = buffer_.data();
    const std::size_t lf = data.find('\n', scan_from);
    if (lf != std::string_view::npos) {
      std::string_view line = data.substr(0, lf);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (text::is_blank(line) && !deliver_blank_lines_) {
        buffer_.consume(lf + 1);
        scan_from = 0;
        continue;
      }
      if (line.size() > max_body_bytes_) {
        return fail(ReadStatus::kOversize, "line of " + std::to_string(line.size()) +
                                               " bytes exceeds " + limit_text(max_body_bytes_));
      }
      ReadResult result{ReadStatus::kOk, std::string(strips_lines() ? text::strip(line) : line), {}};
      buffer_.consume(lf + 1);
      return result;
    }
    // No newline yet. One byte over the limit may still be the '\r' of a CRLF; more may not.
    if (data.size() > max_body_bytes_ + 1 ||
        (data.size() == max_body_bytes_ + 1 && data.back() != '\r')) {
      return fail(ReadStatus::kOversize, "line exceeds " + limit_text(max_body_bytes_) + " (" +
                                             std::to_string(data.size()) +
                                             " bytes buffered without a newline)");
    }
    scan_from = data.size();
    const IoResult got = buffer_.fill(source_);
    if (got.error) return fail(ReadStatus::kIoError, "read failed: " + got.error.message());
    if (got.eof()) {
      if (text::is_blank(buffer_.data())) return fail(ReadStatus::kEof, "end of stream");
      if (accept_unterminated_last_line_) {
        ReadResult last{ReadStatus::kOk, std::string(text::strip(buffer_.data())), {}};
        buffer_.consume(buffer_.size());
        return last;  // the next read() finds the buffer empty at EOF: kEof
      }
      return fail(ReadStatus::kTruncatedBody, "stream ended inside a line after " +
                                                  std::to_string(buffer_.size()) +
                                                  " bytes without a newline");
    }
  }
}

}  // namespace rpckit::framing
