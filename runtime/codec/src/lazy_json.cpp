#include "rpckit/codec/lazy_json.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

namespace rpckit {

LazyJson LazyJson::of_text(std::string_view text) {
  LazyJson out;
  out.text_ = text;
  return out;
}

const nlohmann::json* LazyJson::get() const {
  if (dom_ != nullptr || !text_) return dom_;
  if (!parsed_) {
    // Validated text: nlohmann failing on it would be a disagreement between the two
    // parsers, reported as an error of this message rather than ending the thread.
    nlohmann::json value = nlohmann::json::parse(*text_, nullptr, /*allow_exceptions=*/false);
    if (value.is_discarded()) throw std::runtime_error("params could not be parsed");
    parsed_ = std::make_shared<const nlohmann::json>(std::move(value));
  }
  return parsed_.get();
}

}  // namespace rpckit
