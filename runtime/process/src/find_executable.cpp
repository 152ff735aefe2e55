#include "rpckit/process/find_executable.hpp"

#include <unistd.h>

#include <cstdlib>
#include <system_error>

namespace rpckit::process {
namespace {

bool is_executable_file(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<std::filesystem::path> find_on_path(std::string_view name,
                                                  std::string_view path_list) {
  for (std::size_t start = 0; start <= path_list.size();) {
    std::size_t end = std::min(path_list.find(':', start), path_list.size());
    if (end > start) {
      std::filesystem::path candidate =
          std::filesystem::path(path_list.substr(start, end - start)) / name;
      if (is_executable_file(candidate)) return candidate;
    }
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<std::filesystem::path> resolve_command(const std::string& command, std::string* why) {
  if (command.find('/') != std::string::npos) {
    if (is_executable_file(command)) return std::filesystem::path(command);
    std::error_code ec;
    *why = command + (std::filesystem::is_regular_file(command, ec)
                          ? " is not executable"
                          : " is not an existing regular file");
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  auto found = find_on_path(command, path != nullptr ? path : "/usr/bin:/bin");
  if (!found) *why = "\"" + command + "\" is not on PATH";
  return found;
}

}  // namespace rpckit::process
