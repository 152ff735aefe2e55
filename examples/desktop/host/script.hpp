#pragma once
// The sample host's scripted session with a running plugin (spec section 2's typical flow):
// plugin/health again, the plugin-defined sample/word_count approved and declined (during
// which the plugin sends host/ping, host/request_approval and codex/event), then the errors
// the plugin owes: -32602 for bad params and -32601 for an unknown method.
#include <string>
#include <vector>

#include "rpckit/desktop/host.hpp"
#include "transcript.hpp"

namespace desktop_sample {

// Runs the script; returns what did not go as the spec says (empty: all of it did).
std::vector<std::string> run_script(rpckit::desktop::Host& host,
                                    rpckit_examples::Transcript& transcript);

}  // namespace desktop_sample
