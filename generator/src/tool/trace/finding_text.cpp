#include "tool/trace/finding_text.hpp"

#include "rpckit/validate/json_position.hpp"

namespace rpckit::trace {

std::string finding_text(const FindingPlace& p, const validate::Violation& v) {
  std::string out = p.file;
  if (p.line) out += ":" + std::to_string(p.line);
  if (p.column) out += ":" + std::to_string(p.column);
  out += ": ";
  out += v.severity == validate::Violation::Severity::kError ? "error: " : "warning: ";
  if (p.frame) {
    out += "frame " + std::to_string(p.frame);
    if (!p.from.empty()) out += " from " + p.from;
    if (!p.peer.empty()) out += " (" + p.peer + ")";
    out += ": ";
  }
  out += (v.instance.empty() ? "/" : v.instance) + ": " + v.message();
  if (!v.schema.empty()) out += " [" + v.schema + "]";
  return out;
}

void place_in(FindingPlace& place, std::string_view text, std::size_t first_line,
              const std::string& pointer, const std::string& within) {
  if (auto offset = validate::locate(text, within + pointer)) {
    const auto p = validate::position_of(text, *offset);
    place.line = first_line + p.line - 1;
    place.column = p.column;
  } else if (first_line) {
    place.line = first_line;
  }
}

}  // namespace rpckit::trace
