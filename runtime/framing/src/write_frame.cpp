#include "write_frame.hpp"

#include <string>

#include "text.hpp"

namespace rpckit::framing {

std::optional<WriteResult> check_size(std::string_view body, std::size_t max_body_bytes) {
  if (body.size() <= max_body_bytes) return std::nullopt;
  return WriteResult{WriteStatus::kOversize,
                     {},
                     "body of " + std::to_string(body.size()) + " bytes exceeds " +
                         text::byte_limit(max_body_bytes)};
}

}  // namespace rpckit::framing
