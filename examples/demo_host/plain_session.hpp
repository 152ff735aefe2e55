#pragma once
// The demo host's --plain mode: one StreamNook plugin, by any author, through the host role's
// lifecycle (spawn, initialize with the grant, initialized, pings, shutdown, exit) and the calls
// given on the command line (invoke_action and the events, METHOD=PARAMS_JSON), with a verdict
// on the plugin. The contract is examples/common/plain_mode.hpp's: one JSON line per call on
// stdout and nothing else, each violation of the spec on stderr, exit 0 when the plugin
// conformed, 1 when it did not, 2 on a usage or launch error.
#include <chrono>
#include <vector>

#include "plain_mode.hpp"
#include "rpckit/streamnook/host.hpp"
#include "rpckit/streamnook/manifest.hpp"
#include "transcript.hpp"

namespace demo {

struct PlainSession {
  rpckit::streamnook::LoadedManifest manifest;
  ::streamnook::v1::Granted offered;
  std::vector<rpckit_examples::PlainCall> calls;
  rpckit::streamnook::HostOptions host;
  // How long the plugin has to be running (spawn and initialize) before the calls.
  std::chrono::milliseconds start_timeout{12000};
};

int run_plain(const PlainSession& session, rpckit_examples::Transcript& transcript);

}  // namespace demo
