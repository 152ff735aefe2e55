#include "cli/schema_errors.hpp"

#include <fstream>
#include <sstream>

#include "rpckit/validate/json_position.hpp"

namespace rpckit::cli {

void print_schema_error(std::ostream& out, const gen::SchemaError& error,
                        const std::filesystem::path& protocol_file) {
  const std::filesystem::path file = protocol_file.parent_path() / error.file();
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const auto offset = in ? validate::locate(text.str(), error.pointer()) : std::nullopt;
  if (error.file().empty() || !offset) {
    out << "rpckit: schema error: " << error.what() << "\n";
    return;
  }
  const auto at = validate::position_of(text.str(), *offset);
  out << file.string() << ":" << at.line << ":" << at.column << ": schema error: " << error.what()
      << "\n";
}

}  // namespace rpckit::cli
