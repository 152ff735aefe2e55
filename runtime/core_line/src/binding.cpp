// What the core decides before and outside the exchange: the binding's validation (3.3 step
// 1), the request id (section 4), a failure's text.
#include <random>
#include <set>

#include "rpckit/core_line/host.hpp"
#include "whitespace.hpp"

namespace rpckit::core_line {

using detail::blank;
using detail::canonical;

namespace {
constexpr std::string_view kRequestIdPrefix = "plugin_req_";
constexpr std::size_t kRequestIdDigits = 16;  // 8 random bytes
}  // namespace

std::string Failure::describe() const { return std::string(code.wire()) + ": " + detail; }

std::optional<std::string> invalid_specification(const Binding& binding, std::string_view tool_name) {
  // A probe leaves the name and the tool to the manifest; the command is always needed.
  if (!binding.probe && blank(binding.name)) return "the plugin name is blank";
  if (blank(binding.command)) return "the command is blank";
  if (!binding.probe && blank(tool_name)) return "the tool name is blank";
  std::set<std::string, std::less<>> seen;
  for (const std::string& c : binding.allow_list) {
    if (!canonical(c)) return "allow-list entry \"" + c + "\" is empty or padded with whitespace";
    if (!seen.insert(c).second) return "allow-list entry \"" + c + "\" is listed twice";
  }
  return std::nullopt;
}

std::string new_request_id() {
  static constexpr char kHex[] = "0123456789abcdef";
  std::random_device random;
  std::string id(kRequestIdPrefix);
  for (std::size_t i = 0; i < kRequestIdDigits / 2; ++i) {
    auto byte = static_cast<unsigned>(random() & 0xFFU);
    id += kHex[byte >> 4U];
    id += kHex[byte & 0xFU];
  }
  return id;
}

bool is_request_id(std::string_view id) {
  if (id.size() != kRequestIdPrefix.size() + kRequestIdDigits || !id.starts_with(kRequestIdPrefix)) return false;
  for (char c : id.substr(kRequestIdPrefix.size())) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace rpckit::core_line
