#pragma once
// CallResult: what a call on an Endpoint gives back: the peer's result, or why there is none.
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json_fwd.hpp>

#include "rpckit/endpoint/rpc_error.hpp"
#include "rpckit/values/json_value.hpp"

namespace rpckit {

// The result of call(): the peer's result, or why there is none.
class CallResult {
 public:
  CallResult(JsonValue result) : value_(std::move(result)) {}  // NOLINT
  CallResult(CallError error) : value_(std::move(error)) {}     // NOLINT
  // A result kept as its wire text (validated JSON): typed calls decode the text, result()
  // parses it on first use. Not for concurrent use from several threads.
  static CallResult from_text(std::string text);

  bool ok() const { return value_.index() == 0; }
  const nlohmann::json& result() const;
  // The result's wire text, when it came from the wire.
  std::optional<std::string_view> result_text() const {
    if (!text_) return std::nullopt;
    return std::string_view(*text_);
  }
  const CallError& error() const { return std::get<1>(value_); }

 private:
  mutable std::variant<JsonValue, CallError> value_;
  std::optional<std::string> text_;
  mutable bool parsed_ = true;  // value_ holds the result (false: only text_ does yet)
};

}  // namespace rpckit
