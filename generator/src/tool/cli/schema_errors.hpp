#pragma once
// How every command reports a schema that does not load or lower: "file:line:column: schema
// error: <file>#<pointer>: <message>", the position found in the file's text, so an editor
// can jump there; without a position (an unreadable file), "rpckit: schema error: ...".
// A convention warning reads the same with "schema warning" (or "schema error" under
// --strict).
#include <filesystem>
#include <ostream>
#include <string_view>

#include "model.hpp"

namespace rpckit::cli {

void print_schema_error(std::ostream& out, const gen::SchemaError& error,
                        const std::filesystem::path& protocol_file);
void print_schema_warning(std::ostream& out, const gen::SchemaWarning& warning,
                          const std::filesystem::path& protocol_file, bool as_error);

}  // namespace rpckit::cli
