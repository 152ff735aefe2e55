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

WriteResult write_locked(ByteSink& sink, std::span<const std::string_view> parts, std::mutex& mutex,
                         std::optional<WriteResult>& failure) {
  const std::lock_guard lock(mutex);
  if (failure) return *failure;
  if (const std::error_code error = sink.write_all(parts)) {
    failure = WriteResult{WriteStatus::kIoError, error, "write failed: " + error.message()};
    return *failure;
  }
  return {};
}

}  // namespace rpckit::framing
