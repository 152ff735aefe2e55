// The part both writers share: the size check, the lock, the sticky I/O failure.
#pragma once

#include <cstddef>
#include <mutex>
#include <optional>
#include <span>
#include <string_view>

#include "rpckit/framing/byte_io.hpp"
#include "rpckit/framing/frame_writer.hpp"

namespace rpckit::framing {

// Returns the refusal when body is over the limit, else nothing.
std::optional<WriteResult> check_size(std::string_view body, std::size_t max_body_bytes);

// Writes the parts of one frame under `mutex`, recording and replaying an I/O failure.
WriteResult write_locked(ByteSink& sink, std::span<const std::string_view> parts, std::mutex& mutex,
                         std::optional<WriteResult>& failure);

}  // namespace rpckit::framing
