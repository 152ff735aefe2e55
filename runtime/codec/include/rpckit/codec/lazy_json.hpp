#pragma once
// LazyJson: a JSON value kept as the text it arrived in until someone asks for its DOM. An
// endpoint hands a message's params on this way, so a typed handler decodes the text straight
// into its struct (codec::decode_text) and no DOM is built; code that wants the DOM uses it
// as the `const nlohmann::json*` it used to be (null when absent), parsed once on first use.
#include <memory>
#include <optional>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace rpckit {

class LazyJson {
 public:
  LazyJson() = default;  // absent
  // A DOM someone holds (it must outlive this); null: absent.
  LazyJson(const nlohmann::json* dom) : dom_(dom) {}  // NOLINT(google-explicit-constructor)
  // Text of one JSON value already validated (the endpoint's scan); it must outlive this.
  static LazyJson of_text(std::string_view text);

  bool present() const { return dom_ != nullptr || text_.has_value(); }
  // The wire text, when this was made from text.
  std::optional<std::string_view> text() const { return text_; }
  // The DOM (parsed from the text on first use, then kept); nullptr when absent.
  const nlohmann::json* get() const;

  operator const nlohmann::json*() const { return get(); }  // NOLINT(google-explicit-constructor)
  const nlohmann::json* operator->() const { return get(); }
  const nlohmann::json& operator*() const { return *get(); }

 private:
  const nlohmann::json* dom_ = nullptr;
  std::optional<std::string_view> text_;
  mutable std::shared_ptr<const nlohmann::json> parsed_;  // shared by copies
};

}  // namespace rpckit
