// Fuzz target: plugin.toml text to a checked manifest (TOML parse, the nesting guard in front
// of toml++, TOML -> JSON, every rule of spec section 7, the generated decoder). Never a
// crash; a manifest that loads has a JSON form that decodes again to the same manifest.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <nlohmann/json.hpp>

#include "rpckit/streamnook/manifest.hpp"

namespace {
void check(bool condition) {
  if (!condition) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  rpckit::streamnook::ManifestResult result = rpckit::streamnook::parse_manifest(text);
  check(result.ok() == result.loaded.has_value());
  if (result.loaded) {
    rpckit::streamnook::ManifestResult again =
        rpckit::streamnook::check_manifest(result.loaded->json);
    check(again.ok());
    check(again.loaded->manifest == result.loaded->manifest);
  }
  return 0;
}
