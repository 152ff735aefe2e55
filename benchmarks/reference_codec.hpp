#pragma once
// Hand-written reference codecs for ONE message (on_chat_message), to put numbers on
// DESIGN.md point 3 ("to_json + dump ~9x a direct writer", "DOM parse + from_json ~1.7x a SAX
// decode"). They do what a generated direct encoder / SAX decoder would have to do: same
// checks as the generated decode (required fields, JSON kinds, null vs value, bits range,
// RFC 3339 ts, unknown fields skipped), an error naming the path. Benchmark baselines only.
#include <string>
#include <string_view>

#include "streamnook_v1/types.hpp"

namespace rpckit::bench {

// Compact JSON of the params, schema key order (the generated to_json sorts keys; same bytes
// otherwise). Does not validate UTF-8 (nlohmann's dump does).
void encode_direct(const streamnook::v1::OnChatMessageParams& params, std::string& out);

// Parses `text` with nlohmann's SAX parser straight into `out`, no DOM. Throws
// rpckit::codec::DecodeError ("params.message.bits: expected ...") like the generated decode.
void decode_sax(std::string_view text, streamnook::v1::OnChatMessageParams& out);

}  // namespace rpckit::bench
