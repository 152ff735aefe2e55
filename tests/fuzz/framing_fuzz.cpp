// Fuzz target: the Content-Length and NDJSON frame readers on any byte stream, delivered in
// chunks of any size. The first byte picks the framing and the chunk size; the rest is the
// stream. Every frame read fits the cap; once a reader fails it keeps failing the same way.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "rpckit/framing/content_length_reader.hpp"
#include "rpckit/framing/memory_io.hpp"
#include "rpckit/framing/ndjson_reader.hpp"

namespace {

constexpr std::size_t kMaxBody = 4096;  // small, so that oversize is reachable

void check(bool condition) {
  if (!condition) std::abort();
}

template <class Reader>
void drain(std::string stream, std::size_t chunk) {
  rpckit::framing::MemorySource source(std::move(stream), chunk);
  Reader reader(source, kMaxBody);
  for (int frames = 0;; ++frames) {
    rpckit::framing::ReadResult r = reader.read();
    if (!r.ok()) {
      rpckit::framing::ReadResult again = reader.read();
      check(again.status == r.status && again.reason == r.reason);
      return;
    }
    check(r.body.size() <= kMaxBody);
    check(frames < 1 << 20);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t selector = data[0];
  std::string stream(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t chunk = selector & 0x3FU;  // 0: as much as asked for
  if ((selector & 0x40U) != 0) {
    drain<rpckit::framing::NdjsonReader>(std::move(stream), chunk);
  } else {
    drain<rpckit::framing::ContentLengthReader>(std::move(stream), chunk);
  }
  return 0;
}
