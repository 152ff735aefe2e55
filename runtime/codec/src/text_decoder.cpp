#include "rpckit/codec/text_decoder.hpp"

#include <nlohmann/json.hpp>

namespace rpckit::codec {
namespace {

// Integer syntax: no fraction, no exponent (what nlohmann stores as an integer).
bool integer_syntax(std::string_view number) {
  for (char c : number) {  // a loop: find_first_of is a memchr per byte
    if (c == '.' || c == 'e' || c == 'E') return false;
  }
  return true;
}

template <class N>
bool parse_all(std::string_view text, N& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

bool read_json(JsonReader& in, std::string& out) {
  if (in.peek() != JsonKind::kString) return false;
  in.read_string(out);
  return true;
}

bool read_json(JsonReader& in, bool& out) {
  if (in.peek() != JsonKind::kBool) return false;
  out = in.read_bool();
  return true;
}

bool read_json(JsonReader& in, double& out) {
  if (in.peek() != JsonKind::kNumber) return false;
  std::string_view number = in.read_number();
  // As nlohmann: an integer that fits 64 bits is read exactly and then converted (so "-0"
  // is 0.0, not -0.0); anything else is read as a double, correctly rounded.
  if (integer_syntax(number)) {
    if (number.front() == '-') {
      std::int64_t v = 0;
      if (parse_all(number, v)) {
        out = static_cast<double>(v);
        return true;
      }
    } else {
      std::uint64_t v = 0;
      if (parse_all(number, v)) {
        out = static_cast<double>(v);
        return true;
      }
    }
  }
  return parse_all(number, out);
}

bool read_json(JsonReader& in, std::nullptr_t& out) {
  if (in.peek() != JsonKind::kNull) return false;
  in.read_null();
  out = nullptr;
  return true;
}

bool read_json(JsonReader& in, JsonValue& out) {
  // Free-form: the reader has validated the text it skipped, within its depth limit.
  out = JsonValue(nlohmann::json::parse(in.skip_value()));
  return true;
}

bool read_int64(JsonReader& in, std::int64_t min, std::int64_t max, std::int64_t& out) {
  if (in.peek() != JsonKind::kNumber) return false;
  std::string_view number = in.read_number();
  std::int64_t v = 0;
  if (!integer_syntax(number) || !parse_all(number, v) || v < min || v > max) return false;
  out = v;
  return true;
}

bool read_const_string(JsonReader& in, std::string_view expected) {
  if (in.peek() != JsonKind::kString) return false;
  std::string value;
  in.read_string(value);
  return value == expected;
}

bool read_const_json(JsonReader& in, std::string_view expected_json) {
  return nlohmann::json::parse(in.skip_value()) == nlohmann::json::parse(expected_json);
}

std::optional<std::string> peek_member_string(const JsonReader& in, std::string_view key) {
  JsonReader ahead = in;
  if (ahead.peek() != JsonKind::kObject) return std::nullopt;
  ahead.begin_object();
  std::string_view name;
  while (ahead.next_member(name)) {
    if (name == key) {
      if (ahead.peek() != JsonKind::kString) return std::nullopt;
      std::string value;
      ahead.read_string(value);
      return value;  // a repeated key: the DOM keeps the last; the slow path will see to it
    }
    ahead.skip_value();
  }
  return std::nullopt;
}

bool is_null_text(std::string_view text) {
  constexpr std::string_view kSpace = " \t\n\r";
  const std::size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return false;
  const std::size_t last = text.find_last_not_of(kSpace);
  return text.substr(first, last - first + 1) == "null";
}

namespace detail {

JsonValue parse_for_decode(std::string_view text, std::string_view root) {
  try {
    validate_json(text);
  } catch (const JsonError& e) {
    throw DecodeError(std::string(root.empty() ? "(root)" : root), std::string("invalid JSON: ") + e.what());
  }
  return JsonValue(nlohmann::json::parse(text));
}

}  // namespace detail
}  // namespace rpckit::codec
