#pragma once
// Nullable<T> to nlohmann::json: null or the value (nlohmann 3.11 has no std::optional
// support). For codec implementations; public headers stay on json_fwd.hpp.
#include <nlohmann/json.hpp>

#include "rpckit/values/nullable.hpp"

namespace rpckit {

template <class T>
void to_json(nlohmann::json& j, const Nullable<T>& v) {
  if (v.has_value()) {
    j = *v;
  } else {
    j = nullptr;
  }
}

}  // namespace rpckit
