#include "rpckit/values/json_value.hpp"

#include <nlohmann/json.hpp>

namespace rpckit {
namespace {
const nlohmann::json kNull;
}  // namespace

JsonValue::JsonValue() = default;
JsonValue::JsonValue(const nlohmann::json& value)
    : value_(std::make_unique<nlohmann::json>(value)) {}
JsonValue::JsonValue(nlohmann::json&& value)
    : value_(std::make_unique<nlohmann::json>(std::move(value))) {}
JsonValue::JsonValue(const JsonValue& other)
    : value_(other.value_ ? std::make_unique<nlohmann::json>(*other.value_) : nullptr) {}
JsonValue::JsonValue(JsonValue&& other) noexcept = default;
JsonValue& JsonValue::operator=(const JsonValue& other) {
  if (this != &other) *this = JsonValue(other);
  return *this;
}
JsonValue& JsonValue::operator=(JsonValue&& other) noexcept = default;
JsonValue::~JsonValue() = default;

const nlohmann::json& JsonValue::get() const noexcept { return value_ ? *value_ : kNull; }
nlohmann::json& JsonValue::get() {
  if (!value_) value_ = std::make_unique<nlohmann::json>();
  return *value_;
}

bool JsonValue::is_null() const noexcept { return get().is_null(); }
std::string JsonValue::dump() const { return get().dump(); }
JsonValue JsonValue::parse(std::string_view text) { return JsonValue(nlohmann::json::parse(text)); }

bool operator==(const JsonValue& a, const JsonValue& b) noexcept { return a.get() == b.get(); }
bool operator==(const JsonValue& a, const nlohmann::json& b) noexcept { return a.get() == b; }

void to_json(nlohmann::json& j, const JsonValue& v) { j = v.get(); }

}  // namespace rpckit
