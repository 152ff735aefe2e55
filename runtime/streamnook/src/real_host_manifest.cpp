// Manifest warnings: what the spec allows but the real StreamNook host refuses or ignores.
// Each check below is one row of schema/README.md ("The real StreamNook host"), where the
// host's own rule and its source are recorded.
#include "real_host_manifest.hpp"

#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "manifest_util.hpp"

namespace rpckit::streamnook::manifest_detail {

namespace {

using nlohmann::json;

constexpr std::string_view kRealHost = "the real StreamNook host";

ManifestIssue warn(std::string field, const json& value, std::string rule) {
  ManifestIssue w{std::move(field), json_text(value), std::move(rule)};
  w.warning = true;
  return w;
}

const json* member(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

const json* string_member(const json& object, const char* key) {
  const json* value = member(object, key);
  return value != nullptr && value->is_string() ? value : nullptr;
}

bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Digits above 2^64 - 1, the largest number the real host's SemVer parser reads.
bool above_u64(std::string_view digits) {
  constexpr std::string_view kMax = "18446744073709551615";
  return digits.size() > kMax.size() || (digits.size() == kMax.size() && digits > kMax);
}

// MAJOR, MINOR or PATCH of a valid SemVer version above 2^64 - 1.
bool number_above_u64(std::string_view version) {
  std::string_view core = version.substr(0, version.find_first_of("-+"));
  while (!core.empty()) {
    std::size_t dot = core.find('.');
    if (above_u64(core.substr(0, dot))) return true;
    if (dot == std::string_view::npos) break;
    core.remove_prefix(dot + 1);
  }
  return false;
}

// A ".." path segment, / and \ both separators: an issue already (the schema's rule).
bool has_dotdot_segment(std::string_view path) {
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find_first_of("/\\", start);
    if (end == std::string_view::npos) end = path.size();
    if (path.substr(start, end - start) == "..") return true;
    start = end + 1;
  }
  return false;
}

// The real host looks for a drive letter as a ":" second character (a Unicode character:
// the first may take several UTF-8 bytes).
bool colon_second(std::string_view path) {
  if (path.empty()) return false;
  auto lead = static_cast<unsigned char>(path[0]);
  std::size_t first = lead < 0x80           ? 1
                      : (lead >> 5) == 0x6  ? 2
                      : (lead >> 4) == 0xE  ? 3
                      : (lead >> 3) == 0x1E ? 4
                                            : 1;
  return path.size() > first && path[first] == ':';
}

// The real host's test of runtime.entry and runtime.ui_entry: not empty, no ".." anywhere, no
// leading / or \, no ":" as second character.
bool real_host_refuses_path(std::string_view path) {
  return path.empty() || path.find("..") != std::string_view::npos || path.front() == '/' ||
         path.front() == '\\' || colon_second(path);
}

void id_warnings(const json& manifest, std::vector<ManifestIssue>& out) {
  const json* id = string_member(manifest, "id");
  if (id == nullptr) return;
  std::string_view text = id->get_ref<const std::string&>();
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t dot = text.find('.', start);
    if (dot == std::string_view::npos) dot = text.size();
    if (dot > start && text[start] == '-') {
      out.push_back(warn("id", *id,
                         "a part starts with \"-\": " + std::string(kRealHost) +
                             " refuses this plugin id (each dot-separated part must start with "
                             "a-z or 0-9 there)"));
      return;
    }
    start = dot + 1;
  }
}

void version_warnings(const json& manifest, std::vector<ManifestIssue>& out) {
  for (const char* key : {"version", "host_min"}) {
    const json* value = string_member(manifest, key);
    if (value == nullptr) continue;
    const std::string& text = value->get_ref<const std::string&>();
    if (!is_semver(text)) continue;  // an issue already
    if (number_above_u64(text)) {
      out.push_back(
          warn(key, *value,
               "MAJOR, MINOR or PATCH above 18446744073709551615: " + std::string(kRealHost) +
                   " refuses it (its SemVer parser reads each as a 64-bit number)"));
    }
    std::size_t plus = text.find('+');
    if (std::string_view(key) == "host_min" && plus != std::string::npos) {
      out.push_back(warn(key, *value,
                         "build metadata: " + std::string(kRealHost) +
                             " orders it after the plain version, so it refuses to install on a "
                             "host of exactly " +
                             text.substr(0, plus) +
                             " (SemVer precedence, which rpckit's gate uses, ignores it)"));
    }
  }
}

void entry_warnings(const json& runtime, bool ui, std::vector<ManifestIssue>& out) {
  if (const json* entry = string_member(runtime, "entry")) {
    std::string_view path = entry->get_ref<const std::string&>();
    if (path.find("..") != std::string_view::npos && !has_dotdot_segment(path)) {
      out.push_back(warn("runtime.entry", *entry,
                         "contains \"..\": " + std::string(kRealHost) +
                             " refuses an entry with \"..\" anywhere in it, not only as a path "
                             "segment"));
    }
    if (colon_second(path) && !is_ascii_letter(path.front())) {
      out.push_back(warn("runtime.entry", *entry,
                         "\":\" as its second character: " + std::string(kRealHost) +
                             " refuses it as a drive letter"));
    }
  }
  const json* ui_entry = member(runtime, "ui_entry");
  if (ui_entry == nullptr) return;
  // Not in the spec (so rpckit ignores it as an unknown key), but read by the real host: the
  // in-app UI module of a process plugin.
  if (!ui_entry->is_string()) {
    out.push_back(warn("runtime.ui_entry", *ui_entry,
                       "expected a string: " + std::string(kRealHost) +
                           " reads runtime.ui_entry (a process plugin's in-app UI module, not in "
                           "the spec) and refuses the manifest otherwise"));
    return;
  }
  if (ui) {
    out.push_back(warn("runtime.ui_entry", *ui_entry,
                       std::string(kRealHost) +
                           " refuses runtime.ui_entry on a runtime.kind = \"ui\" plugin (its "
                           "module is runtime.entry)"));
  }
  if (real_host_refuses_path(ui_entry->get_ref<const std::string&>())) {
    out.push_back(warn("runtime.ui_entry", *ui_entry,
                       "expected a path inside the plugin directory (not empty, no \"..\", not "
                       "absolute): " +
                           std::string(kRealHost) + " refuses the manifest otherwise"));
  }
}

void ui_plugin_warnings(const json& manifest, const json& runtime,
                        std::vector<ManifestIssue>& out) {
  if (const json* args = member(runtime, "args");
      args != nullptr && args->is_array() && !args->empty()) {
    out.push_back(warn("runtime.args", *args,
                       "ignored for a runtime.kind = \"ui\" plugin: " + std::string(kRealHost) +
                           " starts no process for it"));
  }
  if (const json* caps = member(manifest, "capabilities")) {
    for (const char* list : {"events", "host_methods", "credentials", "ui"}) {
      const json* value = member(*caps, list);
      if (value == nullptr || !value->is_array() || value->empty()) continue;
      out.push_back(warn(std::string("capabilities.") + list, *value,
                         "a runtime.kind = \"ui\" plugin requests none: " + std::string(kRealHost) +
                             " refuses to install it otherwise"));
    }
  }
  if (const json* contributes = member(manifest, "contributes")) {
    for (const char* list : {"actions", "status", "provides"}) {
      const json* value = member(*contributes, list);
      if (value == nullptr || !value->is_array() || value->empty()) continue;
      out.push_back(warn(std::string("contributes.") + list, *value,
                         "ignored for a runtime.kind = \"ui\" plugin: " + std::string(kRealHost) +
                             " starts no process for it, so nothing fills these hooks"));
    }
  }
}

}  // namespace

std::vector<ManifestIssue> real_host_warnings(const json& manifest) {
  std::vector<ManifestIssue> out;
  if (!manifest.is_object()) return out;
  id_warnings(manifest, out);
  version_warnings(manifest, out);
  if (const json* runtime = member(manifest, "runtime");
      runtime != nullptr && runtime->is_object()) {
    const json* kind = string_member(*runtime, "kind");
    bool ui = kind != nullptr && kind->get_ref<const std::string&>() == "ui";
    entry_warnings(*runtime, ui, out);
    if (ui) ui_plugin_warnings(manifest, *runtime, out);
  }
  return out;
}

std::vector<ManifestIssue> real_host_file_warnings(const json& manifest,
                                                   const std::filesystem::path& dir) {
  std::vector<ManifestIssue> out;
  const json* runtime = member(manifest, "runtime");
  if (runtime == nullptr) return out;
  for (const char* key : {"entry", "ui_entry"}) {
    const json* value = string_member(*runtime, key);
    if (value == nullptr) continue;
    const std::string& path = value->get_ref<const std::string&>();
    // Only paths that stay inside the directory are looked up.
    if (real_host_refuses_path(path) || path.find('\0') != std::string::npos) continue;
    std::error_code ec;
    if (std::filesystem::exists(dir / path, ec) || ec) continue;
    out.push_back(warn(std::string("runtime.") + key, *value,
                       "no such file in the plugin directory: " + std::string(kRealHost) +
                           " refuses to install a plugin without it"));
  }
  return out;
}

}  // namespace rpckit::streamnook::manifest_detail
