#include "tool/cli/schema_errors.hpp"

#include <fstream>
#include <sstream>

#include "rpckit/validate/json_position.hpp"

namespace rpckit::cli {
namespace {

// "<path>:<line>:<column>: <label>: <text>", or "rpckit: <label>: <text>" without a position.
void print_located(std::ostream& out, const char* label, const std::string& file,
                   const std::string& pointer, const std::string& text,
                   const std::filesystem::path& protocol_file) {
  const std::filesystem::path path = protocol_file.parent_path() / file;
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  const auto offset = in ? validate::locate(bytes.str(), pointer) : std::nullopt;
  if (file.empty() || !offset) {
    out << "rpckit: " << label << ": " << text << "\n";
    return;
  }
  const auto at = validate::position_of(bytes.str(), *offset);
  out << path.string() << ":" << at.line << ":" << at.column << ": " << label << ": " << text
      << "\n";
}

}  // namespace

void print_schema_error(std::ostream& out, const gen::SchemaError& error,
                        const std::filesystem::path& protocol_file) {
  print_located(out, "schema error", error.file(), error.pointer(), error.what(), protocol_file);
}

void print_schema_warning(std::ostream& out, const gen::SchemaWarning& warning,
                          const std::filesystem::path& protocol_file, bool as_error) {
  print_located(out, as_error ? "schema error" : "schema warning", warning.file, warning.pointer,
                warning.text(), protocol_file);
}

}  // namespace rpckit::cli
