#include "rpckit/endpoint/call_result.hpp"

#include "validated_json.hpp"

namespace rpckit {

CallResult CallResult::from_text(std::string text) {
  CallResult out{JsonValue()};
  out.text_ = std::move(text);
  out.parsed_ = false;
  return out;
}

const nlohmann::json& CallResult::result() const {
  if (!parsed_) {
    // Text the reader validated; should nlohmann ever disagree, the result reads as null.
    value_ = JsonValue(detail::parse_validated(*text_).value_or(nlohmann::json()));
    parsed_ = true;
  }
  return std::get<0>(value_).get();
}

}  // namespace rpckit
