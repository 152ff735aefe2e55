#pragma once
// `rpckit trace`: a transcript read as a stream, each frame checked by the same
// TranscriptChecker `rpckit validate` runs and worked out by TraceModel, written into the
// inspector page as it goes. Memory stays bounded by the longest frame and the requests in
// flight, whatever the transcript's length.
#include <cstddef>
#include <istream>
#include <optional>
#include <ostream>
#include <string>

#include "rpckit/validate/protocol.hpp"
#include "rpckit/validate/transcript_types.hpp"

namespace rpckit::trace {

struct TraceInput {
  std::string name;  // the transcript as named on the command line (findings say it)
  std::optional<validate::TranscriptFormat> format;  // unset: detected
  std::string from;  // the sender of a raw stream's frames ("" = unknown)
  std::string schema_name;  // shown in the page
  std::string title;        // the page's title ("" = the transcript's name)
};

struct TraceSummary {
  validate::TranscriptFormat format{};
  std::size_t frames = 0, notes = 0, errors = 0, warnings = 0;
};

TraceSummary write_trace(const validate::ProtocolValidator& validator, std::istream& transcript,
                         const TraceInput& input, std::ostream& page);

}  // namespace rpckit::trace
