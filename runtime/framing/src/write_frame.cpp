#include "write_frame.hpp"

#include <string>

namespace rpckit::framing {

std::optional<WriteResult> check_size(std::string_view body, std::size_t max_body_bytes) {
  if (body.size() <= max_body_bytes) return std::nullopt;
  return WriteResult{WriteStatus::kOversize,
                     {},
                     "body of " + std::to_string(body.size()) + " bytes exceeds the " +
                         std::to_string(max_body_bytes) + "-byte limit"};
}

}  // namespace rpckit::framing
