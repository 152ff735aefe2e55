#pragma once
// Resolving a plugin's command the way a shell would, since posix_spawn (unlike execvp) does
// not search PATH: a command with a '/' names a file, one without is looked up on PATH.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace rpckit::process {

// The first `<dir>/<name>` on `path_list` (colon-separated; an empty entry is skipped) that is
// a regular file we may execute; nullopt when there is none.
std::optional<std::filesystem::path> find_on_path(std::string_view name,
                                                  std::string_view path_list);

// `command` with a '/' must be an existing regular file with an execute bit; without one it
// is looked up on our PATH (/usr/bin:/bin when unset). nullopt with *why when neither holds
// ("/p/x is not executable", "\"frob\" is not on PATH").
std::optional<std::filesystem::path> resolve_command(const std::string& command, std::string* why);

}  // namespace rpckit::process
