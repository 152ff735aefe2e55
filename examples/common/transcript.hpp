#pragma once
// The sample hosts' transcript: rpckit::roles::Transcript (readable on stdout, JSON lines for
// `rpckit validate --transcript` and `rpckit trace`), which also prints, at its end, the
// command that opens its JSON lines in the inspector.
#include <cstdio>
#include <string>

#include "rpckit/roles/transcript.hpp"

namespace rpckit_examples {

class Transcript : public rpckit::roles::Transcript {
 public:
  // `readable`: where the readable account goes (stdout; stderr when stdout is for data).
  explicit Transcript(bool verbose_frames, std::string local_role = "host",
                      std::string peer_role = "plugin", std::FILE* readable = stdout);
  ~Transcript() override;
};

}  // namespace rpckit_examples
