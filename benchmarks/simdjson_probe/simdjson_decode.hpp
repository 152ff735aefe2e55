#pragma once
// The probe's simdjson decoders: a padded JSON document into the generated StreamNook v1
// struct, member by member, hand-written for the three events measured (what a generated
// simdjson fast path would look like). One walk, written once for both of simdjson's APIs,
// mirrors the generated read_json(): required members tracked, a repeated key replaces the
// earlier value, keys compared unescaped, the schema's date-time checks done by rpckit's own
// check_date_time(), nothing allowed after the root value.
//   decode_ondemand  on-demand API: validates what it walks; unknown members are skipped
//                    without being validated (README.md)
//   decode_dom       DOM API: the whole document validated (and its tape built) first, then
//                    the tape walked into the struct
#include <simdjson.h>

#include "streamnook_v1/types.hpp"

namespace rpckit::simdjson_probe {

// False when `text` is not JSON (as far as simdjson looked) or does not fit the struct; `out`
// is then unspecified. `parser` keeps its buffers from one call to the next.
bool decode_ondemand(simdjson::ondemand::parser& parser, const simdjson::padded_string& text,
                     streamnook::v1::OnWatchTickParams& out);
bool decode_ondemand(simdjson::ondemand::parser& parser, const simdjson::padded_string& text,
                     streamnook::v1::OnChatMessageParams& out);
bool decode_ondemand(simdjson::ondemand::parser& parser, const simdjson::padded_string& text,
                     streamnook::v1::OnFollowedLiveParams& out);

bool decode_dom(simdjson::dom::parser& parser, const simdjson::padded_string& text,
                streamnook::v1::OnWatchTickParams& out);
bool decode_dom(simdjson::dom::parser& parser, const simdjson::padded_string& text,
                streamnook::v1::OnChatMessageParams& out);
bool decode_dom(simdjson::dom::parser& parser, const simdjson::padded_string& text,
                streamnook::v1::OnFollowedLiveParams& out);

}  // namespace rpckit::simdjson_probe
