// Fuzz target: rpckit::codec::JsonReader against nlohmann's parser on any text. What the
// reader accepts, nlohmann accepts, never deeper than the limit; what the reader calls a
// syntax error, nlohmann rejects; skip_value() returns exactly the value's text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <utility>
#include <vector>
#include <algorithm>

#include <nlohmann/json.hpp>

#include "rpckit/codec/json_reader.hpp"

namespace {

constexpr std::size_t kDepth = 32;

void check(bool condition) {
  if (!condition) std::abort();
}

std::size_t depth_of(const nlohmann::json& j) {
  // Iterative: the fuzzer may hand nlohmann something deep (when the reader rejects it).
  std::size_t deepest = 0;
  std::vector<std::pair<const nlohmann::json*, std::size_t>> stack{{&j, 0}};
  while (!stack.empty()) {
    auto [value, depth] = stack.back();
    stack.pop_back();
    if (!value->is_structured()) continue;
    deepest = std::max(deepest, depth + 1);
    for (const auto& child : *value) stack.emplace_back(&child, depth + 1);
  }
  return deepest;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  rpckit::codec::JsonReader::Options options;
  options.max_depth = kDepth;
  try {
    rpckit::codec::JsonReader reader(text, options);
    std::string_view value = reader.skip_value();
    reader.expect_end();
    nlohmann::json parsed = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    check(!parsed.is_discarded());
    check(depth_of(parsed) <= kDepth);
    check(nlohmann::json::parse(value, nullptr, false) == parsed);
  } catch (const rpckit::codec::JsonError& e) {
    // Where nlohmann is lenient and this reader is not, its verdict is no reference: it skips
    // a leading UTF-8 byte order mark (RFC 8259 lets a parser do that; no BOM belongs in a
    // JSON-RPC frame), and it takes a NUL byte outside strings for the end of the input, so
    // "{}\0garbage" passes (found by this target; tests/fuzz/regressions/json_reader).
    const bool bom = text.substr(0, 3) == "\xEF\xBB\xBF";
    const bool nul = text.find('\0') != std::string_view::npos;
    if (e.kind() == rpckit::codec::JsonError::Kind::kSyntax && !bom && !nul) {
      check(!nlohmann::json::accept(text));
    }
    check(e.offset() <= size);
  }
  return 0;
}
