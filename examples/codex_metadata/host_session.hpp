#pragma once
// The sample host's scripted session on a running plugin, over rpckit::codex_metadata::Host
// (which carries the spec's host policy): a ping, every metadata method, an unknown id, and
// the verdict: the first thing that went otherwise than the script expects.
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "rpckit/codex_metadata/host.hpp"
#include "transcript.hpp"

namespace codex_host {

// What went wrong, by class (the library's findings and the script's own), in order; the
// first is the session's verdict. One line per class. Thread-safe.
class Failures {
 public:
  void add(const std::string& failure_class, const std::string& detail);
  bool any() const;
  // "failure: <class>: <detail>" lines for stderr, first one first.
  std::vector<std::string> lines() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::pair<std::string, std::string>> failures_;
};

struct Script {
  std::string query = "blue harbor";  // must find at least one series
  std::string title = "Blue Harbor";  // for metadata/match
};

// Runs the script on the started plugin; its failures go to `failures`.
void run_session(rpckit::codex_metadata::Host& host, const Script& script,
                 rpckit_examples::Transcript& transcript, Failures& failures);

}  // namespace codex_host
