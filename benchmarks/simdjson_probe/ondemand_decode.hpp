#pragma once
// The probe's simdjson on-demand decoders: a padded JSON document straight into the generated
// StreamNook v1 struct, member by member, hand-written for the three events measured (what a
// generated simdjson fast path would look like). Each mirrors the generated read_json():
// required members tracked, a repeated key replaces the earlier value, the schema's date-time
// checks done with rpckit's own check_date_time(), nothing allowed after the root value.
// Unknown members are skipped by simdjson without being validated (see README.md).
#include <simdjson.h>

#include "streamnook_v1/types.hpp"

namespace rpckit::simdjson_probe {

// False when `text` is not JSON as far as simdjson looked, or does not fit the struct; `out`
// is then unspecified. `parser` keeps its buffers from one call to the next.
bool decode_ondemand(simdjson::ondemand::parser& parser, const simdjson::padded_string& text,
                     streamnook::v1::OnWatchTickParams& out);
bool decode_ondemand(simdjson::ondemand::parser& parser, const simdjson::padded_string& text,
                     streamnook::v1::OnChatMessageParams& out);
bool decode_ondemand(simdjson::ondemand::parser& parser, const simdjson::padded_string& text,
                     streamnook::v1::OnFollowedLiveParams& out);

}  // namespace rpckit::simdjson_probe
