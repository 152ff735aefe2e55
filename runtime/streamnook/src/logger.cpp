#include "rpckit/streamnook/logger.hpp"

#include <cstdio>
#include <string>

namespace rpckit::streamnook {

void Logger::write(const sn::LogLevel& level, std::string_view message) {
  if (host_.log(level, std::string(message))) return;
  // One fprintf per line: stderr is unbuffered, so lines from threads do not interleave.
  std::fprintf(stderr, "[%.*s] %.*s\n", static_cast<int>(level.wire().size()),
               level.wire().data(), static_cast<int>(message.size()), message.data());
}

}  // namespace rpckit::streamnook
