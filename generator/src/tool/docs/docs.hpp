#pragma once
// rpckit_docs: the Markdown reference of a protocol (`rpckit docs`), rendered from the IR and,
// where the IR keeps only C++ spellings (constant values, the profile's wire names, file
// descriptions), from the loaded schema. Deterministic: schema order, no time, no paths.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "ir/ir.hpp"
#include "model.hpp"

namespace rpckit::docs {

// Example payloads of one message, from `<dir>/<method>.json`:
// {"envelopes": [...], "results": [...], "invalid": [{"envelope": ..., "why": "..."}]}.
struct MessageExamples {
  std::vector<gen::Json> envelopes;
  std::vector<gen::Json> results;
  struct Invalid {
    gen::Json envelope;
    std::string why;
  };
  std::vector<Invalid> invalid;
};

// Method name -> its examples; a message without a file has none.
using Examples = std::map<std::string, MessageExamples>;

// Reads `<dir>/<method>.json` for each message of `module` that has one; other files (a
// manifest's examples) are not messages and are left alone. Throws std::runtime_error naming
// the file when one is not valid JSON or not of the shape above.
Examples load_examples(const std::filesystem::path& dir, const gen::ir::Module& module);

// The reference: title, contents, profile, messages by direction, types, error codes,
// capabilities, constants.
std::string render_markdown(const gen::SchemaSet& schema, const gen::ir::Module& module,
                            const Examples& examples);

}  // namespace rpckit::docs
