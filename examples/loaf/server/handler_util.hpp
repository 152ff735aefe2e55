#pragma once
// What the handlers in loaf_server.cpp and models_history.cpp share: reading an optional
// parameter the spec lets be null, and the spec's error for a failure of the server itself.
#include <optional>
#include <string>

#include "loaf_v1/errors.hpp"
#include "loaf_v1/types.hpp"

namespace loaf_server {

// An optional value; null counts as absent.
template <class T>
std::optional<T> given(const std::optional<rpckit::Nullable<T>>& v) {
  if (!v || !v->has_value()) return std::nullopt;
  return **v;
}

// data {reason: "internal_error"} is the runtime's (the profile's error_data).
[[noreturn]] inline void fail(const std::string& message) {
  throw loaf::v1::make_error(loaf::v1::ErrorCode::kInternalError, message);
}

}  // namespace loaf_server
