#pragma once
// OpenEnum: what every generated string enum shares. A protocol's string enums are open: a
// peer may send a value this version does not list, which must survive decoding and
// re-encode unchanged. The generated `Values` holds the enumerators (`enum Value`, kUnknown =
// 0, then the listed values from 1 in schema order) and kWire, their wire texts in that order;
// the generated class derives from OpenEnum<Itself, Values> and so has them as its own:
//
//   struct UiCapabilityValues {
//     enum Value : std::uint8_t { kUnknown = 0, kPanel = 1 };
//     static constexpr std::string_view kWire[] = {"panel"};
//   };
//   class UiCapability : public rpckit::OpenEnum<UiCapability, UiCapabilityValues> {
//    public:
//     using OpenEnum::OpenEnum;
//   };
//
//   UiCapability::from_wire("panel") == UiCapability::kPanel
//   UiCapability::from_wire("overlay").wire() == "overlay", .is_known() == false
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>

namespace rpckit {

template <class Derived, class Values>
class OpenEnum : public Values {
 public:
  using Value = typename Values::Value;

  OpenEnum() = default;  // the first listed value
  OpenEnum(Value value) : value_(value) {}  // NOLINT(google-explicit-constructor)

  // The listed value with this wire text, else kUnknown keeping the text.
  static Derived from_wire(std::string_view text) {
    for (std::size_t i = 0; i < std::size(Values::kWire); ++i) {
      if (Values::kWire[i] == text) return Derived(static_cast<Value>(i + 1));
    }
    Derived unknown(Values::kUnknown);
    static_cast<OpenEnum&>(unknown).unknown_ = std::string(text);
    return unknown;
  }

  std::string_view wire() const noexcept {
    if (value_ == Values::kUnknown) return unknown_;
    return Values::kWire[static_cast<std::size_t>(value_) - 1];
  }
  Value value() const noexcept { return value_; }
  bool is_known() const noexcept { return value_ != Values::kUnknown; }

  friend bool operator==(const OpenEnum& a, const OpenEnum& b) noexcept {
    return a.value_ == b.value_ && a.unknown_ == b.unknown_;
  }
  // By wire text, so ordered containers sort the way the wire reads.
  friend bool operator<(const OpenEnum& a, const OpenEnum& b) noexcept {
    return a.wire() < b.wire();
  }

 private:
  Value value_ = static_cast<Value>(1);
  std::string unknown_;  // the wire text when value_ == kUnknown
};

}  // namespace rpckit
