#include "rpckit/framing/framing.hpp"

#include "rpckit/framing/content_length_reader.hpp"
#include "rpckit/framing/content_length_writer.hpp"
#include "rpckit/framing/ndjson_reader.hpp"
#include "rpckit/framing/ndjson_writer.hpp"
#include "text.hpp"

namespace rpckit::framing {

std::string_view to_string(Framing framing) {
  switch (framing) {
    case Framing::kContentLength:
      return "content-length";
    case Framing::kNewlineDelimited:
      return "ndjson";
  }
  return "unknown";
}

std::optional<Framing> parse_framing(std::string_view name) {
  if (text::iequals(name, "content-length")) return Framing::kContentLength;
  if (text::iequals(name, "ndjson") || text::iequals(name, "newline-delimited")) {
    return Framing::kNewlineDelimited;
  }
  return std::nullopt;
}

std::unique_ptr<FrameReader> make_reader(Framing framing, ByteSource& source,
                                         std::size_t max_body_bytes, ReaderOptions options) {
  switch (framing) {
    case Framing::kContentLength:
      return std::make_unique<ContentLengthReader>(source, max_body_bytes, options);
    case Framing::kNewlineDelimited:
      return std::make_unique<NdjsonReader>(source, max_body_bytes, options);
  }
  return nullptr;
}

std::unique_ptr<FrameWriter> make_writer(Framing framing, ByteSink& sink,
                                         std::size_t max_body_bytes) {
  switch (framing) {
    case Framing::kContentLength:
      return std::make_unique<ContentLengthWriter>(sink, max_body_bytes);
    case Framing::kNewlineDelimited:
      return std::make_unique<NdjsonWriter>(sink, max_body_bytes);
  }
  return nullptr;
}

}  // namespace rpckit::framing
