// Fuzz target: every generated decoder of MCP 2025-11-25, reached through its dispatch tables
// (decoders_fuzz.hpp says what each input checks): content-block unions, open maps,
// JSON-Schema-valued members, the messages both sides send.
#include <cstddef>
#include <cstdint>

#include "decoders_fuzz.hpp"
#include "mcp_2025_11_25/dispatch.hpp"
#include "mcp_2025_11_25/messages.hpp"

namespace {
namespace mcp = ::mcp::v2025_11_25;
constexpr auto kMessages =
    decoders_fuzz::tables(mcp::ClientToServer::Messages{}, mcp::ServerToClient::Messages{});
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return decoders_fuzz::run(kMessages, data, size);
}
