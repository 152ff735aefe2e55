#include "rpckit/framing/frame_writer.hpp"

namespace rpckit::framing {

WriteResult FrameWriter::write_many(std::span<const std::string_view> bodies) {
  WriteResult first;
  for (std::string_view body : bodies) {
    WriteResult result = write(body);
    if (!result.ok() && first.ok()) first = std::move(result);
  }
  return first;
}

std::string_view to_string(WriteStatus status) {
  switch (status) {
    case WriteStatus::kOk:
      return "ok";
    case WriteStatus::kOversize:
      return "oversize";
    case WriteStatus::kInvalidBody:
      return "invalid-body";
    case WriteStatus::kIoError:
      return "io-error";
  }
  return "unknown";
}

}  // namespace rpckit::framing
