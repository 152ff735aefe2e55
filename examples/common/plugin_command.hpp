#pragma once
// The plugin command of `<host> [options] -- <command> [args...]`, taken verbatim before the
// options are parsed: CLI11 reads an argument like ["a","b"] as a list and drops [], which
// would change what the plugin is started with.
#include <string>
#include <string_view>
#include <vector>

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

}  // namespace rpckit_examples
