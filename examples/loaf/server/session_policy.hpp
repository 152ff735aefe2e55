#pragma once
// What loaf-server adds to the generic plugin session (rpckit::roles::PluginSession), whose
// wire rules come from loaf's profile (line breaks, ids, invalid requests, over-long lines,
// error data reasons, stdin EOF, SIGTERM): only what is the server's own.
// - system.ping and system.shutdown go to the handler (the time, the reason, state.changed
//   first), not to the session's built-in answers. (So the profile's after_shutdown
//   ignore_input, which the session applies only to its own shutdown answer, is not applied:
//   a runtime gap, tests/loaf/loaf_e2e_test.cpp LoafServerRuntimeGap.)
// - the error data members beyond the runtime's `reason`: -32601's `method`, -32602's `field`;
//   a failure inside a method is -32603 whose message is the failure text (section 3);
// - params of "ignored" methods are never looked at (section 3).
#include "loaf_v1/roles.hpp"
#include "rpckit/roles/plugin_session.hpp"

namespace loaf_server {

// The plugin settings of loaf's profile, with ping and shutdown left to the handler.
rpckit::roles::PluginSettings plugin_settings();

// The route through `router` (which must outlive it), with the server's error data.
rpckit::roles::PluginSession::Route loaf_route(
    const rpckit::Router<loaf::v1::ClientToServer>& router);

}  // namespace loaf_server
