// The part both writers share before a frame goes to their FrameSink: the size check.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "rpckit/framing/frame_writer.hpp"

namespace rpckit::framing {

// Returns the refusal when body is over the limit, else nothing.
std::optional<WriteResult> check_size(std::string_view body, std::size_t max_body_bytes);

}  // namespace rpckit::framing
