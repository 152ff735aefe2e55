#pragma once
// What a StreamNook plugin did wrong, in the spec's words (streamnook-v1.md), for a host that
// reports on a plugin it did not write (the demo host's --plain mode, a plugin author's CI).
#include <optional>
#include <string>

#include "rpckit/endpoint/endpoint.hpp"
#include "rpckit/roles/lifecycle_event.hpp"

namespace rpckit::streamnook {

// A violation for what the endpoint noticed on the plugin's stdout, or nullopt when it is not
// the plugin's fault (a write of ours that failed, an observer that threw).
std::optional<std::string> violation_of(const Diagnostic& diagnostic);

// A violation for a stop or disable the plugin caused, or nullopt: a requested stop that ended
// with exit code 0, a restart scheduled (its stop was reported already).
std::optional<std::string> violation_of(const roles::LifecycleEvent& event);

}  // namespace rpckit::streamnook
