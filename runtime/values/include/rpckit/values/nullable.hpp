#pragma once
// Nullable<T>: a value that may be JSON null. A type distinct from std::optional<T> so that
// the shapes of a field stay distinct in C++:
//   T                              required, never null
//   std::optional<T>               may be absent, never null
//   Nullable<T>                    always present, may be null
//   std::optional<Nullable<T>>     may be absent, may be null, may be a value
// It reads like std::optional (has_value, *, ->, value_or, reset, emplace) but wraps one
// instead of deriving from it: std::optional's comparison templates are ambiguous for a
// derived class.
#include <optional>
#include <type_traits>
#include <utility>

namespace rpckit {

template <class T>
class Nullable {
 public:
  Nullable() = default;  // null
  Nullable(std::nullopt_t) noexcept {}  // NOLINT(google-explicit-constructor)
  // `field = nullptr` makes it null (it must never reach T: std::string(nullptr) is UB).
  Nullable(std::nullptr_t) noexcept {}  // NOLINT(google-explicit-constructor)
  // No copy or move constructor hidden: the requires-clause leaves Nullable itself out.
  // NOLINTBEGIN(google-explicit-constructor,bugprone-forwarding-reference-overload)
  template <class U = T>
    requires(!std::is_same_v<std::remove_cvref_t<U>, Nullable> &&
             !std::is_same_v<std::remove_cvref_t<U>, std::nullopt_t> &&
             !std::is_same_v<std::remove_cvref_t<U>, std::nullptr_t> &&
             std::is_constructible_v<T, U &&>)
  Nullable(U&& value) : value_(std::forward<U>(value)) {}
  // NOLINTEND(google-explicit-constructor,bugprone-forwarding-reference-overload)

  bool has_value() const noexcept { return value_.has_value(); }
  bool is_null() const noexcept { return !value_.has_value(); }
  explicit operator bool() const noexcept { return value_.has_value(); }

  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& value() & { return value_.value(); }
  const T& value() const& { return value_.value(); }
  template <class U>
  T value_or(U&& fallback) const& {
    return value_.value_or(std::forward<U>(fallback));
  }

  void reset() noexcept { value_.reset(); }
  template <class... Args>
  T& emplace(Args&&... args) {
    return value_.emplace(std::forward<Args>(args)...);
  }
  const std::optional<T>& as_optional() const noexcept { return value_; }

  friend bool operator==(const Nullable& a, const Nullable& b) { return a.value_ == b.value_; }
  friend bool operator==(const Nullable& a, std::nullopt_t) noexcept { return !a.has_value(); }
  friend bool operator==(const Nullable& a, std::nullptr_t) noexcept { return !a.has_value(); }
  friend bool operator==(const Nullable& a, const T& b) { return a.value_ == b; }

 private:
  std::optional<T> value_;
};

}  // namespace rpckit
