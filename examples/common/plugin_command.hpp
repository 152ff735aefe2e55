#pragma once
// The command line of every sample host, `<host> [options] -- <command> [args...]`: the plugin
// command is taken verbatim before the options are parsed, since CLI11 reads an argument like
// ["a","b"] as a list and drops [], which would change what the plugin is started with.
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace rpckit_examples {

// Everything after the first "--"; argc is cut there, so the option parser never sees it.
inline std::vector<std::string> take_plugin_command(int& argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--") {
      std::vector<std::string> command(argv + i + 1, argv + argc);
      argc = i;
      return command;
    }
  }
  return {};
}

// Parses the options and fills `command` (bound to the app's "command" positional, used when
// there is no "--"); the exit status when the host should stop now: --help (0), a bad option
// or no plugin command (2, the hosts' usage status; CLI11's own codes would not say it).
inline std::optional<int> parse_host_command_line(CLI::App& cli, int argc, char** argv,
                                                  std::vector<std::string>& command) {
  std::vector<std::string> after_dashes = take_plugin_command(argc, argv);
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e) == 0 ? 0 : 2;
  }
  if (!after_dashes.empty()) command = std::move(after_dashes);
  if (command.empty()) {
    std::fprintf(stderr, "%s\na plugin command is required (after --)\n", cli.help().c_str());
    return 2;
  }
  return std::nullopt;
}

}  // namespace rpckit_examples
