#pragma once
// The spawned side's stdin and stdout for a one-shot exchange: lines read by the profile's
// rules, and stdout kept for lines only (StdoutGuard). OneShotPeer (one_shot.hpp) puts the
// generated Exchange's types on it.
#include <cstddef>
#include <string_view>

#include "rpckit/framing/fd_io.hpp"
#include "rpckit/framing/ndjson_reader.hpp"
#include "rpckit/framing/ndjson_writer.hpp"
#include "rpckit/roles/one_shot_line.hpp"
#include "rpckit/roles/stdout_guard.hpp"

namespace rpckit::roles {

class OneShotStdio {
 public:
  OneShotStdio(std::size_t max_line_bytes, bool strict_lines);

  // The next line from stdin; no deadline (the spawner keeps them).
  LineReceived receive_line();
  bool send_line(std::string_view line);

 private:
  StdoutGuard guard_;  // first: fd 1 goes to stderr before anything can print
  framing::FdSource in_;
  framing::NdjsonReader reader_;
  framing::FdSink out_;
  framing::NdjsonWriter writer_;
};

}  // namespace rpckit::roles
