// `rpckit compat` (not built yet).
#include "cli/commands.hpp"

namespace rpckit::cli {

void add_compat_command(CLI::App& app, int& status) {
  app.add_subcommand("compat", "(not built yet)")->callback([&status] { status = kUsage; });
}

}  // namespace rpckit::cli
