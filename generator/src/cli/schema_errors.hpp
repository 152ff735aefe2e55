#pragma once
// How every command reports a schema that does not load or lower: "file:line:column: schema
// error: <file>#<pointer>: <message>", the position found in the file's text, so an editor
// can jump there; without a position (an unreadable file), "rpckit: schema error: ...".
#include <filesystem>
#include <ostream>
#include <string_view>

#include "load/schema_error.hpp"

namespace rpckit::cli {

void print_schema_error(std::ostream& out, const gen::SchemaError& error,
                        const std::filesystem::path& protocol_file);

}  // namespace rpckit::cli
