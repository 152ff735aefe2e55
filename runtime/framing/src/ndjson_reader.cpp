#include "rpckit/framing/ndjson_reader.hpp"

#include <string>

#include "text.hpp"

namespace rpckit::framing {

NdjsonReader::NdjsonReader(ByteSource& source, std::size_t max_body_bytes, ReaderOptions options)
    : source_(source),
      max_body_bytes_(max_body_bytes),
      deliver_blank_lines_(options.deliver_blank_lines),
      accept_unterminated_last_line_(options.accept_unterminated_last_line),
      resume_after_oversize_(options.resume_after_oversize),
      split_on_cr_(options.split_on_cr),
      buffer_(options.chunk_bytes) {}

ReadResult NdjsonReader::fail(ReadStatus status, std::string reason) {
  terminal_ = ReadResult{status, {}, std::move(reason)};
  return *terminal_;
}

ReadResult NdjsonReader::oversize(std::string reason) {
  if (!resume_after_oversize_) return fail(ReadStatus::kOversize, std::move(reason));
  return ReadResult{ReadStatus::kOversize, {}, std::move(reason)};
}

bool NdjsonReader::strips_lines() const {
  return deliver_blank_lines_ || accept_unterminated_last_line_ || split_on_cr_;
}

// Where the line at the front of `data` ends (the terminator's offset) and how long its
// terminator is, looking from `from`; npos when no terminator is buffered yet. With
// split_on_cr a '\r' ends its line at once, even as the last byte buffered, so a peer that
// ends a message with a lone CR and waits is answered; the '\n' of a CRLF split across reads
// is then dropped by drop_lf_after_cr().
NdjsonReader::LineEnd NdjsonReader::find_end(std::string_view data, std::size_t from) const {
  if (!split_on_cr_) return {data.find('\n', from), 1};
  const std::size_t at = data.find_first_of("\r\n", from);
  if (at == std::string_view::npos || data[at] == '\n') return {at, 1};
  return {at, at + 1 < data.size() && data[at + 1] == '\n' ? std::size_t{2} : std::size_t{1}};
}

// Consumes a line and its terminator; remembers a '\r' that was the last byte buffered, whose
// '\n' (if it is a CRLF) arrives with the next read.
void NdjsonReader::consume_line(std::string_view data, LineEnd end) {
  buffer_.consume(end.at + end.size);
  lf_may_follow_ =
      split_on_cr_ && end.size == 1 && data[end.at] == '\r' && end.at + 1 == data.size();
}

void NdjsonReader::drop_lf_after_cr() {
  if (!lf_may_follow_ || buffer_.size() == 0) return;
  if (buffer_.data().front() == '\n') buffer_.consume(1);
  lf_may_follow_ = false;
}

// Drops the rest of a line that went over the limit, as it arrives: nullopt once its end has
// been consumed, else what read() returns (the end of the stream, a failure, a deadline).
std::optional<ReadResult> NdjsonReader::skip_rest_of_line() {
  for (;;) {
    drop_lf_after_cr();
    const std::string_view data = buffer_.data();
    const LineEnd end = find_end(data, 0);
    if (end.at != std::string_view::npos) {
      consume_line(data, end);
      skipping_ = false;
      return std::nullopt;
    }
    buffer_.consume(data.size());
    const IoResult got = buffer_.fill(source_);
    if (got.timed_out()) return ReadResult::timed_out();  // still skipping at the next read()
    if (got.error) return fail(ReadStatus::kIoError, "read failed: " + got.error.message());
    if (got.eof()) return fail(ReadStatus::kEof, "end of stream");
  }
}

ReadResult NdjsonReader::read() {
  if (terminal_) return *terminal_;
  if (skipping_) {
    if (std::optional<ReadResult> stopped = skip_rest_of_line()) return *std::move(stopped);
  }
  std::size_t scan_from = 0;  // the buffered line has no terminator before this offset
  for (;;) {
    if (lf_may_follow_ && buffer_.size() > 0) {
      drop_lf_after_cr();
      scan_from = 0;
    }
    const std::string_view data = buffer_.data();
    const LineEnd end = find_end(data, scan_from);
    if (end.at != std::string_view::npos) {
      std::string_view line = data.substr(0, end.at);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (text::is_blank(line) && !deliver_blank_lines_) {
        consume_line(data, end);
        scan_from = 0;
        continue;
      }
      if (line.size() > max_body_bytes_) {
        const std::size_t size = line.size();
        consume_line(data, end);
        return oversize("line of " + std::to_string(size) + " bytes exceeds " +
                        text::byte_limit(max_body_bytes_));
      }
      ReadResult result{ReadStatus::kOk, std::string(strips_lines() ? text::strip(line) : line), {}};
      consume_line(data, end);
      return result;
    }
    // No line end yet. One byte over the limit may still be the '\r' of a CRLF; more may not.
    if (data.size() > max_body_bytes_ + 1 ||
        (data.size() == max_body_bytes_ + 1 && data.back() != '\r')) {
      std::string reason = "line exceeds " + text::byte_limit(max_body_bytes_) + " (" +
                           std::to_string(data.size()) + " bytes buffered without a newline)";
      if (resume_after_oversize_) {
        skipping_ = true;
        buffer_.consume(data.size());  // what comes after is dropped as it arrives
      }
      return oversize(std::move(reason));
    }
    scan_from = data.size();
    const IoResult got = buffer_.fill(source_);
    if (got.timed_out()) return ReadResult::timed_out();  // the line stays buffered
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
