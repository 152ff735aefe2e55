#pragma once
// The frame every generated C++ file shares, written in one place: the banner, `#pragma once`
// (a source file includes the header it implements instead), the includes in groups
// (standard, third-party, project: the module's headers, then rpckit's), each followed by a
// blank line, and the module's namespace.
#include <string>
#include <vector>

#include "emit/printer.hpp"
#include "ir/ir.hpp"

namespace rpckit::gen {

// What a file includes, by group, in the order written. Designated initializers name only the
// groups a file has: open_file(p, m, {.standard = {"array"}, .rpckit = {"codec/codec.hpp"}}).
struct Preamble {
  // A source file's own header ("types.hpp" for <module>/types.hpp), included first; empty
  // for a header, which starts with `#pragma once`.
  std::string implements = {};
  std::vector<std::string> standard = {};     // "array": <array>
  std::vector<std::string> third_party = {};  // "nlohmann/json.hpp": <nlohmann/json.hpp>
  std::vector<std::string> module = {};       // "types.hpp": "<module>/types.hpp"
  std::vector<std::string> rpckit = {};       // "codec/codec.hpp": "rpckit/codec/codec.hpp"
};

// Writes the banner, the includes and `namespace <ns> {` with the blank line after it.
void open_file(Printer& p, const ir::Module& m, const Preamble& preamble);
// Writes `}  // namespace <ns>`, the file's last line, and returns the file, its lines wrapped
// at kLineWidth columns (wrap.hpp).
std::string close_file(Printer& p, const ir::Module& m);

}  // namespace rpckit::gen
