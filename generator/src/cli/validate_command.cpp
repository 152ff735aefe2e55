// `rpckit validate` (not built yet).
#include "cli/commands.hpp"

namespace rpckit::cli {

void add_validate_command(CLI::App& app, int& status) {
  app.add_subcommand("validate", "(not built yet)")->callback([&status] { status = kUsage; });
}

}  // namespace rpckit::cli
