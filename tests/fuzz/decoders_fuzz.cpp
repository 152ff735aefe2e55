// Fuzz target: every generated decoder of StreamNook v1, reached through its dispatch tables
// (decoders_fuzz.hpp says what each input checks).
#include "decoders_fuzz.hpp"

#include <cstddef>
#include <cstdint>

#include "streamnook_v1/dispatch.hpp"
#include "streamnook_v1/messages.hpp"

namespace {
namespace sn = ::streamnook::v1;
constexpr auto kMessages =
    decoders_fuzz::tables(sn::HostToPlugin::Messages{}, sn::PluginToHost::Messages{});
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return decoders_fuzz::run(kMessages, data, size);
}
