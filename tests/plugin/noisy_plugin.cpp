// noisy-plugin: a tiny test plugin whose handlers write text to stdout in every way C and C++
// offer (printf, std::cout, write(1, ...)). StdoutGuard must send all of it to stderr and
// keep the real stdout for frames. The text is deliberately frame-like ("Content-Length")
// so a leak would corrupt the stream, not just add noise.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <iostream>

#include <nlohmann/json.hpp>

#include "rpckit//streamnook/plugin.hpp"

namespace sn = ::streamnook::v1;

namespace {

void make_noise(const char* where) {
  std::printf("noisy printf in %s\nContent-Length: 5\r\n\r\n", where);
  std::cout << "noisy cout in " << where << std::endl;  // endl flushes: reaches fd 1 now
  std::string raw = std::string("noisy write(1) in ") + where + "\n";
  ssize_t written = ::write(STDOUT_FILENO, raw.data(), raw.size());
  (void)written;
  std::fputs("noisy puts, never flushed by the handler\n", stdout);
}

}  // namespace

int main() {
  rpckit::streamnook::Plugin plugin("0.0.1");
  plugin.on<sn::messages::OnFollowedLive>(
      [](const sn::OnFollowedLiveParams&) { make_noise("on_followed_live"); });
  plugin.on_start([](rpckit::streamnook::HostApi&) { make_noise("on_start"); });
  plugin.on_action("noisy.echo", [](const rpckit::JsonValue& args) {
    make_noise("noisy.echo");
    return nlohmann::json{{"echo", args.get()}};
  });
  plugin.on_shutdown([] { make_noise("shutdown"); });
  return plugin.run();
}
