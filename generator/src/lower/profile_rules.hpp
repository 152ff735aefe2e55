#pragma once
// Lowering of the x-profile keys that say what JSON-RPC leaves open (schema/README.md,
// "Protocol profile"): the wire rules a receiving side follows, the spawner's stop sequence
// and the lifecycle timers. Each diagnoses a value that contradicts the rest of the profile.
#include "ir/ir.hpp"
#include "model.hpp"

namespace rpckit::gen {

// ids.match, jsonrpc_member, blank_method, invalid_request_id, line_breaks, error_data,
// not_json, oversize, stray_response, output_cap, after_shutdown. `p` holds the roles and
// lifecycle already.
void lower_wire_rules(const Node& profile, const ir::Module& m, ir::Profile& p);
// "stop": the steps in order, ending with "kill".
void lower_stop(const Node& profile, const ir::Module& m, ir::Profile& p);
// "timings": every timer the lifecycle uses, named (a constant or "none").
void lower_timings(const Node& profile, const ir::Module& m, ir::Profile& p);

}  // namespace rpckit::gen
