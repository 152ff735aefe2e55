// TranscriptStream: a recorded transcript read entry by entry from a file or a buffer, holding
// at most one frame (or line) and one read chunk at a time.
#include "rpckit/validate/transcript_stream.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>

#include "rpckit/framing/framing.hpp"
#include "rpckit/validate/transcript.hpp"

namespace rpckit::validate {

using nlohmann::json;

namespace {

constexpr std::size_t kChunk = std::size_t{64} * 1024;
// A raw Content-Length stream's frames are read whole whatever their size (as the checker sees
// live ones) and the checker reports those over the protocol's cap; this only stops a
// corrupted length from asking for more than any real recording holds.
constexpr std::size_t kMaxRecordedFrame = std::size_t{1} << 30;

class IstreamSource final : public framing::ByteSource {
 public:
  explicit IstreamSource(std::istream& in) : in_(in) {}
  framing::IoResult read(std::span<char> buffer) override {
    in_.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const auto n = static_cast<std::size_t>(in_.gcount());
    if (n == 0 && in_.bad()) return {0, std::make_error_code(std::errc::io_error)};
    return {n, {}};
  }

 private:
  std::istream& in_;
};

class ViewSource final : public framing::ByteSource {
 public:
  explicit ViewSource(std::string_view bytes) : bytes_(bytes) {}
  framing::IoResult read(std::span<char> buffer) override {
    const std::size_t n = std::min(buffer.size(), bytes_.size() - offset_);
    std::memcpy(buffer.data(), bytes_.data() + offset_, n);
    offset_ += n;
    return {n, {}};
  }

 private:
  std::string_view bytes_;
  std::size_t offset_ = 0;
};

// The bytes already looked at to detect the format, then the rest of the source.
class PrefixSource final : public framing::ByteSource {
 public:
  PrefixSource(std::string& head, framing::ByteSource& rest) : head_(head), rest_(rest) {}
  framing::IoResult read(std::span<char> buffer) override {
    if (head_.empty()) return rest_.read(buffer);
    const std::size_t n = std::min(buffer.size(), head_.size());
    std::memcpy(buffer.data(), head_.data(), n);
    head_.erase(0, n);
    return {n, {}};
  }

 private:
  std::string& head_;
  framing::ByteSource& rest_;
};

Finding framing_problem(std::size_t frame, std::size_t line, std::string expected,
                        std::string found) {
  Finding f;
  f.frame = frame;
  f.line = line;
  f.violation = {Violation::Severity::kError, "", "", "framing", std::move(expected),
                 std::move(found)};
  return f;
}

bool blank(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

}  // namespace

struct TranscriptStream::Impl {
  std::unique_ptr<framing::ByteSource> source;
  TranscriptFormat format = TranscriptFormat::kNdjson;
  std::string from;
  // Line forms: bytes read and not yet consumed, from `pos`; `consumed` counts the bytes
  // before buf[0] in the whole input.
  std::string buf;
  std::size_t pos = 0, consumed = 0, line = 0;
  bool eof = false;
  // Content-Length: the framing reader over the detection head, then the source.
  std::unique_ptr<PrefixSource> prefixed;
  std::unique_ptr<framing::FrameReader> reader;
  bool stopped = false;
  std::size_t frames = 0;

  bool fill() {
    if (eof) return false;
    if (pos > 0 && pos >= buf.size() / 2) {
      consumed += pos;
      buf.erase(0, pos);
      pos = 0;
    }
    const std::size_t old = buf.size();
    buf.resize(old + kChunk);
    const framing::IoResult r = source->read({buf.data() + old, kChunk});
    buf.resize(old + r.bytes);
    if (r.bytes == 0) eof = true;
    return r.bytes > 0;
  }

  // Reads until the first line with content is whole (or 15 bytes of it say Content-Length).
  void detect(std::optional<TranscriptFormat> given) {
    while (true) {
      const auto first = buf.find_first_not_of(" \t\r\n");
      if (first != std::string::npos &&
          (buf.find('\n', first) != std::string::npos || buf.size() - first >= 15)) {
        std::string head = buf.substr(first, 15);
        std::transform(head.begin(), head.end(), head.begin(),
                       [](unsigned char c) { return std::tolower(c); });
        if (head == "content-length:" || buf.find('\n', first) != std::string::npos) break;
      }
      if (!fill()) break;
    }
    format = given ? *given : detect_transcript_format(buf);
    if (format == TranscriptFormat::kContentLength) {
      prefixed = std::make_unique<PrefixSource>(buf, *source);
      reader = framing::make_reader(framing::Framing::kContentLength, *prefixed, kMaxRecordedFrame);
    }
  }

  // The next line (without '\n' and a trailing '\r'), its start offset; false at the end.
  bool next_line(std::string& text, std::size_t& offset) {
    while (true) {
      const auto end = buf.find('\n', pos);
      if (end != std::string::npos) {
        offset = consumed + pos;
        text.assign(buf, pos, end - pos);
        pos = end + 1;
        break;
      }
      if (!fill()) {
        if (pos >= buf.size()) return false;
        offset = consumed + pos;
        text.assign(buf, pos, std::string::npos);
        pos = buf.size();
        break;
      }
    }
    ++line;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    return true;
  }

  bool next_content_length(TranscriptEntry& e, std::vector<Finding>& problems) {
    if (stopped) return false;
    framing::ReadResult r = reader->read();
    if (r.status == framing::ReadStatus::kEof) return false;
    if (!r.ok()) {
      problems.push_back(framing_problem(frames + 1, 0, "a Content-Length frame",
                                         std::string(framing::to_string(r.status)) + ": " +
                                             r.reason + " (reading stops here)"));
      stopped = true;
      return false;
    }
    e.frame = {++frames, 0, "", from, std::move(r.body), 0};
    return true;
  }

  bool next_ndjson(TranscriptEntry& e) {
    std::size_t offset = 0;
    while (next_line(e.line, offset)) {
      if (blank(e.line)) continue;  // blank lines carry no frame
      e.frame = {++frames, line, "", from, e.line, offset};
      return true;
    }
    return false;
  }

  bool next_json_lines(TranscriptEntry& e, std::vector<Finding>& problems) {
    std::size_t offset = 0;
    while (next_line(e.line, offset)) {
      if (blank(e.line)) continue;
      e.entry = json::parse(e.line, nullptr, false);
      if (e.entry.is_discarded() || !e.entry.is_object()) {
        problems.push_back(framing_problem(0, line, "a JSON-lines transcript entry",
                                           "a line that is not a JSON object"));
        continue;
      }
      if (e.entry.value("type", "") != "frame") {  // lifecycle and host notes
        e.is_frame = false;
        e.frame.line = line;
        e.frame.offset = offset;
        e.frame.peer = e.entry.value("plugin", "");
        return true;
      }
      const std::string direction = e.entry.value("direction", "");
      const auto to = direction.find("_to_");
      const json& message = e.entry.contains("message") ? e.entry["message"] : json();
      // An unparsable frame was kept as the string of its bytes.
      std::string body = message.is_string() ? message.get<std::string>() : message.dump();
      e.frame = {++frames, line, e.entry.value("plugin", ""),
                 to == std::string::npos ? "" : direction.substr(0, to), std::move(body), offset};
      return true;
    }
    return false;
  }
};

TranscriptStream::TranscriptStream(std::istream& in, std::optional<TranscriptFormat> format,
                                   std::string from)
    : impl_(std::make_unique<Impl>()) {
  impl_->source = std::make_unique<IstreamSource>(in);
  impl_->from = std::move(from);
  impl_->detect(format);
}

TranscriptStream::TranscriptStream(std::string_view bytes, std::optional<TranscriptFormat> format,
                                   std::string from)
    : impl_(std::make_unique<Impl>()) {
  impl_->source = std::make_unique<ViewSource>(bytes);
  impl_->from = std::move(from);
  impl_->detect(format);
}

TranscriptStream::~TranscriptStream() = default;

TranscriptFormat TranscriptStream::format() const { return impl_->format; }

bool TranscriptStream::next(TranscriptEntry& entry, std::vector<Finding>& problems) {
  entry.is_frame = true;
  entry.frame = {};
  entry.line.clear();
  entry.entry = nullptr;
  switch (impl_->format) {
    case TranscriptFormat::kContentLength: return impl_->next_content_length(entry, problems);
    case TranscriptFormat::kNdjson: return impl_->next_ndjson(entry);
    case TranscriptFormat::kJsonLines: return impl_->next_json_lines(entry, problems);
  }
  return false;
}

}  // namespace rpckit::validate
