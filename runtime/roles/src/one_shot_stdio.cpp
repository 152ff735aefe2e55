#include "rpckit/roles/one_shot_stdio.hpp"

#include <unistd.h>

namespace rpckit::roles {

OneShotStdio::OneShotStdio(std::size_t max_line_bytes, bool strict_lines)
    : in_(STDIN_FILENO),
      reader_(in_, max_line_bytes, line_reader_options(strict_lines)),
      out_(guard_.protocol_fd()),
      writer_(out_, max_line_bytes) {}

LineReceived OneShotStdio::receive_line() {
  framing::ReadResult result = reader_.read();
  if (!result.ok()) return read_failure(result);
  return parse_line(std::move(result.body));
}

bool OneShotStdio::send_line(std::string_view line) { return writer_.write(line).ok(); }

}  // namespace rpckit::roles
