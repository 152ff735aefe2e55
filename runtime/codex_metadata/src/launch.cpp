#include "rpckit/codex_metadata/launch.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "rpckit/process/find_executable.hpp"

namespace rpckit::codex_metadata {
namespace {

std::vector<std::string> split(const std::string& list, char separator) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, separator);) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

}  // namespace

std::optional<std::filesystem::path> allowed_command(
    const std::string& command, const std::optional<std::filesystem::path>& plugin_dir,
    const std::string& allowed_extra, std::string* why) {
  if (command.find('/') != std::string::npos) {
    std::filesystem::path path(command);
    if (!path.is_absolute()) {
      *why = "\"" + command + "\" is a relative path; only absolute paths are allowed";
      return std::nullopt;
    }
    if (plugin_dir) {
      // Lexically: "/opt/codex/plugins/../x" is not under the folder.
      std::string normal = path.lexically_normal().string();
      std::string dir = plugin_dir->lexically_normal().string();
      if (!dir.empty() && dir.back() != '/') dir += '/';
      if (normal.rfind(dir, 0) != 0) {
        *why = "\"" + command + "\" is not under the plugin directory " + dir;
        return std::nullopt;
      }
    }
    return path;
  }
  std::vector<std::string> allowed = {"node", "npx", "python", "python3", "uv", "uvx"};
  for (std::string& name : split(allowed_extra, ',')) allowed.push_back(std::move(name));
  if (std::find(allowed.begin(), allowed.end(), command) == allowed.end()) {
    *why = "\"" + command +
           "\" is not an allowed command (node, npx, python, python3, uv, uvx, "
           "CODEX_PLUGIN_ALLOWED_COMMANDS, or an absolute path)";
    return std::nullopt;
  }
  return process::resolve_command(command, why);  // looked up on PATH
}

std::optional<std::filesystem::path> allowed_command(
    const std::string& command, const std::optional<std::filesystem::path>& plugin_dir,
    std::string* why) {
  const char* extra = std::getenv("CODEX_PLUGIN_ALLOWED_COMMANDS");
  return allowed_command(command, plugin_dir, extra ? extra : "", why);
}

CredentialPlan plan_credentials(const cm::CredentialDelivery& mode,
                                const std::map<std::string, std::string>& credentials) {
  CredentialPlan plan;
  // An unknown mode is read as the default, env.
  const bool message =
      mode == cm::CredentialDelivery::kInitMessage || mode == cm::CredentialDelivery::kBoth;
  const bool env = mode != cm::CredentialDelivery::kInitMessage;
  if (env) {
    for (const auto& [key, value] : credentials) {
      std::string name = key;
      std::transform(name.begin(), name.end(), name.begin(),
                     [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
      plan.environment[name] = value;
    }
  }
  if (message) plan.in_message = credentials;
  return plan;
}

std::vector<std::string> plugin_environment(const char* const* inherited,
                                            const std::map<std::string, std::string>& variables) {
  std::vector<std::string> out;
  for (const char* const* entry = inherited; entry != nullptr && *entry != nullptr; ++entry) {
    std::string_view variable(*entry);
    if (!variables.contains(std::string(variable.substr(0, variable.find('='))))) {
      out.emplace_back(variable);
    }
  }
  for (const auto& [name, value] : variables) out.push_back(name + "=" + value);
  return out;
}

}  // namespace rpckit::codex_metadata
