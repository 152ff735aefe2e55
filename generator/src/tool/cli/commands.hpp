#pragma once
// The `rpckit` command line: one subcommand per file, each registering itself on the app.
// A subcommand's callback stores its exit status in `status`:
//   0  ok: nothing to report
//   1  the check ran and found problems (stale output, invalid payload, breaking change)
//   2  usage or input error: bad arguments, unreadable file, a schema that does not load
#include <CLI/CLI.hpp>

namespace rpckit::cli {

enum Status : int { kOk = 0, kProblems = 1, kUsage = 2 };

void add_generate_commands(CLI::App& app, int& status);  // generate, check
void add_validate_command(CLI::App& app, int& status);
void add_compat_command(CLI::App& app, int& status);
void add_docs_command(CLI::App& app, int& status);
void add_trace_command(CLI::App& app, int& status);

}  // namespace rpckit::cli
