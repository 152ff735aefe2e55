// `rpckit docs` (not built yet).
#include "cli/commands.hpp"

namespace rpckit::cli {

void add_docs_command(CLI::App& app, int& status) {
  app.add_subcommand("docs", "(not built yet)")->callback([&status] { status = kUsage; });
}

}  // namespace rpckit::cli
