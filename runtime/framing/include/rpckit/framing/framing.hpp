// Choosing the framing per connection. Including this header brings in the whole public API
// a connection needs: the reader/writer interfaces and the byte I/O abstraction.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>

#include "rpckit/framing/byte_io.hpp"
#include "rpckit/framing/frame_reader.hpp"
#include "rpckit/framing/frame_writer.hpp"

namespace rpckit::framing {

enum class Framing { kContentLength, kNewlineDelimited };

// "content-length" / "ndjson".
std::string_view to_string(Framing framing);
// Accepts the names above, case-insensitively, plus "newline-delimited".
std::optional<Framing> parse_framing(std::string_view name);

// max_body_bytes is the protocol's limit (e.g. 4 MiB); the framing layer has no default.
// The source/sink must outlive the returned reader/writer.
std::unique_ptr<FrameReader> make_reader(Framing framing, ByteSource& source,
                                         std::size_t max_body_bytes, ReaderOptions options = {});
std::unique_ptr<FrameWriter> make_writer(Framing framing, ByteSink& sink,
                                         std::size_t max_body_bytes);

}  // namespace rpckit::framing
