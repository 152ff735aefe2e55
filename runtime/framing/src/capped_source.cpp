#include "rpckit/framing/capped_source.hpp"

namespace rpckit::framing {

IoResult CappedSource::read(std::span<char> buffer) {
  if (capped_.load()) return {0, std::make_error_code(std::errc::file_too_large)};
  IoResult got = inner_.read(buffer);
  total_ += got.bytes;
  if (cap_ != 0 && total_ > cap_) {
    capped_ = true;
    return {0, std::make_error_code(std::errc::file_too_large)};
  }
  return got;
}

}  // namespace rpckit::framing
