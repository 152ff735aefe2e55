#include "rpckit/framing/frame_writer.hpp"

namespace rpckit::framing {

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
