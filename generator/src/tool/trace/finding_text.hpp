#pragma once
// The words `rpckit validate` prints for a finding, shared by `validate` and `trace` (which
// shows each finding on its message with the same line), and where in a JSON text a finding's
// instance pointer lands.
#include <cstddef>
#include <string>
#include <string_view>

#include "rpckit/validate/violation.hpp"

namespace rpckit::trace {

struct FindingPlace {
  std::string file;
  std::size_t line = 0, column = 0, frame = 0;  // 0: not known
  std::string peer, from;
};

// `file:line:column: error: frame 3 from host (peer): /params/x: expected ..., found ... [schema]`
std::string finding_text(const FindingPlace& place, const validate::Violation& violation);

// Sets place.line/column to where `pointer` (prefixed by `within`, e.g. "/message" for a
// JSON-lines entry) starts in `text`, which begins at line `first_line` of the file; only the
// line when the pointer names nothing there.
void place_in(FindingPlace& place, std::string_view text, std::size_t first_line,
              const std::string& pointer, const std::string& within = "");

}  // namespace rpckit::trace
