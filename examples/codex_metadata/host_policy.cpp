#include "host_policy.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "rpckit/process/find_executable.hpp"

namespace codex_host {
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

bool is_plugin_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::islower(c) != 0 || std::isdigit(c) != 0 || c == '-';
  });
}

}  // namespace

std::optional<std::filesystem::path> allowed_command(const std::string& command,
                                                     const std::optional<std::string>& plugin_dir,
                                                     std::string* why) {
  if (command.find('/') != std::string::npos) {
    std::filesystem::path path(command);
    if (!path.is_absolute()) {
      *why = "\"" + command + "\" is a relative path; only absolute paths are allowed";
      return std::nullopt;
    }
    if (plugin_dir) {
      auto normal = path.lexically_normal().string();
      auto dir = std::filesystem::path(*plugin_dir).lexically_normal().string();
      if (!dir.empty() && dir.back() != '/') dir += '/';
      if (normal.rfind(dir, 0) != 0) {
        *why = "\"" + command + "\" is not under the plugin directory " + dir;
        return std::nullopt;
      }
    }
    return path;
  }
  std::vector<std::string> allowed = {"node", "npx", "python", "python3", "uv", "uvx"};
  if (const char* extra = std::getenv("CODEX_PLUGIN_ALLOWED_COMMANDS")) {
    for (const std::string& name : split(extra, ',')) allowed.push_back(name);
  }
  if (std::find(allowed.begin(), allowed.end(), command) == allowed.end()) {
    *why = "\"" + command +
           "\" is not an allowed command (node, npx, python, python3, uv, uvx, "
           "CODEX_PLUGIN_ALLOWED_COMMANDS, or an absolute path)";
    return std::nullopt;
  }
  return rpckit::process::resolve_command(command, why);  // looked up on PATH
}

CredentialPlan plan_credentials(const codex::CredentialDelivery& mode,
                                const std::map<std::string, std::string>& credentials) {
  CredentialPlan plan;
  bool env = mode != codex::CredentialDelivery::kInitMessage;
  bool message =
      mode == codex::CredentialDelivery::kInitMessage || mode == codex::CredentialDelivery::kBoth;
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

ManifestVerdict judge_manifest(const codex::PluginManifest& m) {
  // The decoder already required name, displayName, version, protocolVersion, capabilities.
  if (!is_plugin_name(m.name)) {
    return {"name \"" + m.name + "\" is not lowercase letters, digits and hyphens", false};
  }
  if (m.displayName.empty() || m.version.empty()) return {"displayName or version is empty", false};
  const std::string& v = m.protocolVersion;
  if (v.rfind("1.", 0) != 0 || v.size() < 3 ||
      !std::all_of(v.begin() + 2, v.end(), [](unsigned char c) { return std::isdigit(c) != 0; })) {
    return {"protocolVersion \"" + v + "\" is not 1.x", true};
  }
  return {};
}

std::string error_name(int code) {
  auto name = codex::to_string(static_cast<codex::ErrorCode>(code));
  return is_known(static_cast<codex::ErrorCode>(code)) ? std::string(name) : "plugin_error";
}

std::int64_t retry_after_seconds(const rpckit::RpcError& error) {
  if (error.data() && error.data()->get().is_object()) {
    const nlohmann::json& data = error.data()->get();
    auto it = data.find("retryAfterSeconds");
    if (it != data.end() && it->is_number_integer() && it->get<std::int64_t>() >= 0) {
      return it->get<std::int64_t>();
    }
  }
  return codex::kDefaultRetryAfterSeconds;
}

bool is_invalid_result(const rpckit::CallError& error) {
  return error.kind == rpckit::CallError::Kind::kRemote &&
         error.error.code() == rpckit::jsonrpc_code::kInternalError &&
         error.error.message().find(": invalid result: ") != std::string::npos;
}

void Failures::add(const std::string& failure_class, const std::string& detail) {
  std::lock_guard lock(mutex_);
  // One line per class: a lost process also fails every call still waiting on it.
  for (const auto& f : failures_) {
    if (f.first == failure_class) return;
  }
  failures_.emplace_back(failure_class, detail);
}

bool Failures::any() const {
  std::lock_guard lock(mutex_);
  return !failures_.empty();
}

bool Failures::has(const std::string& failure_class) const {
  std::lock_guard lock(mutex_);
  return std::any_of(failures_.begin(), failures_.end(),
                     [&](const auto& f) { return f.first == failure_class; });
}

std::vector<std::string> Failures::lines() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [name, detail] : failures_) {
    out.push_back("failure: " + name + (detail.empty() ? "" : ": " + detail));
  }
  return out;
}

}  // namespace codex_host
