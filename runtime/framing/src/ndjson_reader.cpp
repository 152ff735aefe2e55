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
// terminator is, looking from `from`; npos when no complete terminator is buffered yet (a '\r'
// at the very end may be the first half of a CRLF).
NdjsonReader::LineEnd NdjsonReader::find_end(std::string_view data, std::size_t from,
                                             bool at_eof) const {
  if (!split_on_cr_) {
    const std::size_t lf = data.find('\n', from);
    return {lf, 1};
  }
  const std::size_t at = data.find_first_of("\r\n", from);
  if (at == std::string_view::npos || data[at] == '\n') return {at, 1};
  if (at + 1 < data.size()) return {at, data[at + 1] == '\n' ? std::size_t{2} : std::size_t{1}};
  return at_eof ? LineEnd{at, 1} : LineEnd{std::string_view::npos, 0};
}

// Drops the rest of a line that went over the limit, as it arrives; true once its end has
// been consumed, false at the end of the stream (or a failure, which is then terminal_).
bool NdjsonReader::skip_rest_of_line() {
  for (;;) {
    const std::string_view data = buffer_.data();
    const LineEnd end = find_end(data, 0, false);
    if (end.at != std::string_view::npos) {
      buffer_.consume(end.at + end.size);
      skipping_ = false;
      return true;
    }
    // Keep a trailing '\r' (half of a CRLF); drop the rest.
    const bool keep_cr = split_on_cr_ && !data.empty() && data.back() == '\r';
    buffer_.consume(data.size() - (keep_cr ? 1 : 0));
    const IoResult got = buffer_.fill(source_);
    if (got.error) {
      fail(ReadStatus::kIoError, "read failed: " + got.error.message());
      return false;
    }
    if (got.eof()) {
      fail(ReadStatus::kEof, "end of stream");
      return false;
    }
  }
}

ReadResult NdjsonReader::read() {
  if (terminal_) return *terminal_;
  if (skipping_ && !skip_rest_of_line()) return *terminal_;
  std::size_t scan_from = 0;  // the buffered line has no terminator before this offset
  for (;;) {
    const std::string_view data = buffer_.data();
    const LineEnd end = find_end(data, scan_from, false);
    if (end.at != std::string_view::npos) {
      std::string_view line = data.substr(0, end.at);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (text::is_blank(line) && !deliver_blank_lines_) {
        buffer_.consume(end.at + end.size);
        scan_from = 0;
        continue;
      }
      if (line.size() > max_body_bytes_) {
        const std::size_t size = line.size();
        buffer_.consume(end.at + end.size);
        return oversize("line of " + std::to_string(size) + " bytes exceeds " +
                        limit_text(max_body_bytes_));
      }
      ReadResult result{ReadStatus::kOk, std::string(strips_lines() ? text::strip(line) : line), {}};
      buffer_.consume(end.at + end.size);
      return result;
    }
    // No line end yet. One byte over the limit may still be the '\r' of a CRLF; more may not.
    if (data.size() > max_body_bytes_ + 1 ||
        (data.size() == max_body_bytes_ + 1 && data.back() != '\r')) {
      std::string reason = "line exceeds " + limit_text(max_body_bytes_) + " (" +
                           std::to_string(data.size()) + " bytes buffered without a newline)";
      if (resume_after_oversize_) {
        skipping_ = true;
        buffer_.consume(data.size());  // what comes after is dropped as it arrives
      }
      return oversize(std::move(reason));
    }
    scan_from = data.empty() ? 0 : data.size() - (split_on_cr_ && data.back() == '\r' ? 1 : 0);
    const IoResult got = buffer_.fill(source_);
    if (got.error) return fail(ReadStatus::kIoError, "read failed: " + got.error.message());
    if (got.eof()) {
      if (split_on_cr_ && buffer_.size() > 0 && buffer_.data().back() == '\r') {
        // A lone CR at the very end ends the last line.
        const std::string_view rest = buffer_.data();
        std::string_view line = rest.substr(0, rest.size() - 1);
        if (!text::is_blank(line) && line.size() <= max_body_bytes_) {
          ReadResult last{ReadStatus::kOk, std::string(text::strip(line)), {}};
          buffer_.consume(rest.size());
          return last;
        }
        buffer_.consume(rest.size());
      }
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
