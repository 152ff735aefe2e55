#include "rpckit/streamnook/manifest.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <system_error>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "manifest_toml.hpp"
#include "manifest_util.hpp"
#include "rpckit/codec/codec.hpp"
#include "rpckit/codec/decode_error.hpp"

namespace rpckit::streamnook {

using nlohmann::json;
using manifest_detail::child_path;
using manifest_detail::index_path;
using manifest_detail::json_text;

std::string ManifestIssue::str() const {
  if (value.empty()) return field + ": " + rule;
  return field + " = " + value + ": " + rule;
}

std::string ManifestIssue::located(std::string_view file) const {
  std::string out(file);
  if (line != 0) out += ":" + std::to_string(line) + ":" + std::to_string(column);
  return out + ": " + str();
}

// ---- SemVer ---------------------------------------------------------------------------------

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}
bool all_digits(std::string_view s) {
  for (char c : s) {
    if (!is_digit(c)) return false;
  }
  return true;
}
// A numeric identifier: digits, no leading zero except "0" itself.
bool is_numeric_identifier(std::string_view s) {
  return !s.empty() && all_digits(s) && (s.size() == 1 || s.front() != '0');
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  while (true) {
    auto at = s.find(sep);
    parts.push_back(s.substr(0, at));
    if (at == std::string_view::npos) break;
    s.remove_prefix(at + 1);
  }
  return parts;
}

struct SemVer {
  std::string_view major, minor, patch;
  std::vector<std::string_view> pre_release;  // empty: a release
};

// SemVer 2.0.0 (https://semver.org, "Backus-Naur Form Grammar for Valid SemVer Versions").
std::optional<SemVer> parse_semver(std::string_view text) {
  if (auto plus = text.find('+'); plus != std::string_view::npos) {
    // Build metadata: non-empty identifiers of [0-9A-Za-z-]; leading zeros allowed.
    for (std::string_view id : split(text.substr(plus + 1), '.')) {
      if (id.empty()) return std::nullopt;
      for (char c : id) {
        if (!is_ident_char(c)) return std::nullopt;
      }
    }
    text = text.substr(0, plus);
  }
  SemVer v;
  if (auto dash = text.find('-'); dash != std::string_view::npos) {
    for (std::string_view id : split(text.substr(dash + 1), '.')) {
      if (id.empty()) return std::nullopt;
      for (char c : id) {
        if (!is_ident_char(c)) return std::nullopt;
      }
      if (all_digits(id) && !is_numeric_identifier(id)) return std::nullopt;  // "01"
      v.pre_release.push_back(id);
    }
    text = text.substr(0, dash);
  }
  auto core = split(text, '.');
  if (core.size() != 3) return std::nullopt;
  for (std::string_view n : core) {
    if (!is_numeric_identifier(n)) return std::nullopt;
  }
  v.major = core[0];
  v.minor = core[1];
  v.patch = core[2];
  return v;
}

// Numeric identifiers without leading zeros: a longer one is larger (no overflow, any size).
int compare_numeric(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

int compare_identifier(std::string_view a, std::string_view b) {
  bool a_num = all_digits(a);
  bool b_num = all_digits(b);
  if (a_num && b_num) return compare_numeric(a, b);
  if (a_num != b_num) return a_num ? -1 : 1;  // numeric < alphanumeric
  int c = a.compare(b);                       // ASCII order
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

int compare(const SemVer& a, const SemVer& b) {
  if (int c = compare_numeric(a.major, b.major); c != 0) return c;
  if (int c = compare_numeric(a.minor, b.minor); c != 0) return c;
  if (int c = compare_numeric(a.patch, b.patch); c != 0) return c;
  if (a.pre_release.empty() || b.pre_release.empty()) {
    if (a.pre_release.empty() == b.pre_release.empty()) return 0;
    return a.pre_release.empty() ? 1 : -1;  // a pre-release is lower than its release
  }
  std::size_t n = std::min(a.pre_release.size(), b.pre_release.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (int c = compare_identifier(a.pre_release[i], b.pre_release[i]); c != 0) return c;
  }
  if (a.pre_release.size() == b.pre_release.size()) return 0;
  return a.pre_release.size() < b.pre_release.size() ? -1 : 1;
}

}  // namespace

bool is_semver(std::string_view version) { return parse_semver(version).has_value(); }

std::optional<int> compare_semver(std::string_view a, std::string_view b) {
  auto va = parse_semver(a);
  auto vb = parse_semver(b);
  if (!va || !vb) return std::nullopt;
  return compare(*va, *vb);
}

// ---- the rules of spec section 7 --------------------------------------------------------------

namespace {

constexpr std::string_view kSemverRule =
    "must be a semantic version MAJOR.MINOR.PATCH (SemVer 2.0.0, e.g. \"1.0.0\")";

std::string kind_of(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "table";
    case json::value_t::array:
      return "array";
    case json::value_t::string:
      return "string";
    case json::value_t::boolean:
      return "boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "integer";
    case json::value_t::number_float:
      return "float";
    case json::value_t::binary:
      return "binary";
    case json::value_t::discarded:
      break;
  }
  return "discarded";
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || is_digit(c); }

// ^[a-z0-9]+(\.[a-z0-9-]+)+$
bool is_plugin_id(std::string_view s) {
  auto parts = split(s, '.');
  if (parts.size() < 2) return false;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].empty()) return false;
    for (char c : parts[i]) {
      if (!is_lower_alnum(c) && !(i > 0 && c == '-')) return false;
    }
  }
  return true;
}

// ^[a-z0-9_-]+(\.[a-z0-9_-]+)+$
bool is_namespaced_id(std::string_view s) {
  auto parts = split(s, '.');
  if (parts.size() < 2) return false;
  for (std::string_view part : parts) {
    if (part.empty()) return false;
    for (char c : part) {
      if (!is_lower_alnum(c) && c != '_' && c != '-') return false;
    }
  }
  return true;
}

// ^https://[^\s/?#]+([/?#]\S*)?$
bool is_https_url(std::string_view s) {
  constexpr std::string_view kScheme = "https://";
  if (s.substr(0, kScheme.size()) != kScheme) return false;
  s.remove_prefix(kScheme.size());
  std::size_t host = 0;
  while (host < s.size() && !is_space(s[host]) && s[host] != '/' && s[host] != '?' &&
         s[host] != '#') {
    ++host;
  }
  if (host == 0) return false;
  for (char c : s.substr(host)) {
    if (is_space(c)) return false;
  }
  return true;
}

class Checker {
 public:
  std::vector<ManifestIssue> issues;

  void add(std::string field, const json* value, std::string rule) {
    issues.push_back({std::move(field), value != nullptr ? json_text(*value) : std::string(),
                      std::move(rule)});
  }

  // The member `key` of `object`, or nullptr (reported when required).
  const json* member(const json& object, std::string_view key, const std::string& field,
                     bool required) {
    auto it = object.find(key);
    if (it == object.end()) {
      if (required) add(field, nullptr, "is required");
      return nullptr;
    }
    return &*it;
  }

  // The string at `field`, or nullptr (wrong kind reported; missing reported when required).
  const std::string* string_at(const json& object, std::string_view key, bool required,
                            const std::string& parent = {}) {
    std::string field = child_path(parent, key);
    const json* value = member(object, key, field, required);
    if (value == nullptr) return nullptr;
    if (!value->is_string()) {
      add(field, value, "must be a string, got " + kind_of(*value));
      return nullptr;
    }
    return &value->get_ref<const std::string&>();
  }

  // The table at `field`, or nullptr.
  const json* table(const json& object, std::string_view key, bool required) {
    std::string field = child_path("", key);
    const json* value = member(object, key, field, required);
    if (value == nullptr) return nullptr;
    if (!value->is_object()) {
      add(field, value, "must be a table, got " + kind_of(*value));
      return nullptr;
    }
    return value;
  }

  void semver(const json& object, std::string_view key) {
    if (const std::string* s = string_at(object, key, true); s != nullptr && !is_semver(*s)) {
      add(std::string(key), &object.at(key), std::string(kSemverRule));
    }
  }

  // A list of strings: each a string, not empty, not whitespace-padded, not repeated, and
  // accepted by `valid` (judged on the trimmed text of a padded value); `invalid_rule` (given
  // the trimmed text) says why not.
  template <class Valid, class InvalidRule>
  void string_list(const json& object, std::string_view key, const std::string& parent,
                   Valid valid, InvalidRule invalid_rule) {
    std::string field = child_path(parent, key);
    const json* list = member(object, key, field, false);
    if (list == nullptr) return;
    if (!list->is_array()) {
      add(field, list, "must be an array of strings, got " + kind_of(*list));
      return;
    }
    std::unordered_map<std::string_view, std::size_t> first_seen;  // linear, not pairwise
    for (std::size_t i = 0; i < list->size(); ++i) {
      const json& item = (*list)[i];
      std::string item_field = index_path(field, i);
      if (!item.is_string()) {
        add(item_field, &item, "must be a string, got " + kind_of(item));
        continue;
      }
      const auto& text = item.get_ref<const std::string&>();
      if (text.empty()) {
        add(item_field, &item, "must not be empty");
        continue;
      }
      std::string_view trimmed = trim(text);
      if (trimmed.size() != text.size()) {
        add(item_field, &item, "must not have leading or trailing whitespace");
      }
      if (!trimmed.empty() && !valid(trimmed)) add(item_field, &item, invalid_rule(trimmed));
      if (auto [it, first] = first_seen.emplace(text, i); !first) {
        add(item_field, &item, "is a duplicate of " + index_path(field, it->second));
      }
    }
  }

  void check(const json& m) {
    if (!m.is_object()) {
      add("(root)", &m, "must be a table, got " + kind_of(m));
      return;
    }
    check_identity(m);
    if (const json* runtime = table(m, "runtime", true)) check_runtime(*runtime);
    if (const json* caps = table(m, "capabilities", false)) check_capabilities(*caps);
    if (const json* contributes = table(m, "contributes", false)) check_contributes(*contributes);
    // Any other key is ignored (forward compatibility, spec 8 / 9.6).
  }

 private:
  void check_identity(const json& m) {
    if (const std::string* id = string_at(m, "id", true)) {
      const json* value = &m.at("id");
      if (std::size_t n = codec::code_points(*id); n > 64) {
        add("id", value, "must be at most 64 characters, got " + std::to_string(n));
      }
      if (!is_plugin_id(*id)) {
        add("id", value,
            "must match ^[a-z0-9]+(\\.[a-z0-9-]+)+$ (lowercase, dot-separated, e.g. "
            "\"dev.example.my-plugin\")");
      }
      if (id->starts_with("app.streamnook.")) {
        add("id", value, "uses the reserved prefix \"app.streamnook.\"");
      }
    }
    if (const std::string* name = string_at(m, "name", true)) {
      if (std::size_t n = codec::code_points(*name); n < 1 || n > 40) {
        add("name", &m.at("name"), "must be 1 to 40 characters, got " + std::to_string(n));
      }
    }
    semver(m, "version");
    string_at(m, "author", true);
    if (const std::string* tier = string_at(m, "tier", true)) {
      if (!sn::ManifestTier::from_wire(*tier).is_known()) {
        add("tier", &m.at("tier"), "must be \"A\", \"B\" or \"C\"");
      }
    }
    if (const std::string* description = string_at(m, "description", true)) {
      if (std::size_t n = codec::code_points(*description); n > 200) {
        add("description", &m.at("description"),
            "must be at most 200 characters, got " + std::to_string(n));
      }
    }
    if (const std::string* homepage = string_at(m, "homepage", false)) {
      if (!is_https_url(*homepage)) {
        add("homepage", &m.at("homepage"), "must be an https:// URL");
      }
    }
    semver(m, "host_min");
  }

  void check_runtime(const json& runtime) {
    if (const std::string* kind = string_at(runtime, "kind", true, "runtime")) {
      const json* value = &runtime.at("kind");
      // "ui" is a valid manifest ("not a stdio plugin"): whether it runs is the host's call.
      if (*kind == "wasm") {
        add("runtime.kind", value, "is reserved and not supported (use \"process\")");
      } else if (!sn::RuntimeKind::from_wire(*kind).is_known()) {
        add("runtime.kind", value, "is not a known runtime kind (expected \"process\" or \"ui\")");
      }
    }
    if (const std::string* entry = string_at(runtime, "entry", true, "runtime")) {
      check_entry(*entry, runtime.at("entry"));
    }
    if (const json* args = member(runtime, "args", "runtime.args", false)) {
      if (!args->is_array()) {
        add("runtime.args", args, "must be an array of strings, got " + kind_of(*args));
      } else {
        for (std::size_t i = 0; i < args->size(); ++i) {
          const json& arg = (*args)[i];
          if (!arg.is_string()) {
            add(index_path("runtime.args", i), &arg, "must be a string, got " + kind_of(arg));
          }
        }
      }
    }
    if (const std::string* transport = string_at(runtime, "transport", false, "runtime")) {
      const json* value = &runtime.at("transport");
      if (*transport == "socket") {
        add("runtime.transport", value, "is reserved and not supported (use \"stdio\")");
      } else if (!sn::RuntimeTransport::from_wire(*transport).is_known()) {
        add("runtime.transport", value, "is not a known transport (expected \"stdio\")");
      }
    }
  }

  // Lexical: relative to the plugin directory on POSIX and Windows alike.
  void check_entry(const std::string& entry, const json& value) {
    const std::string field = "runtime.entry";
    if (entry.empty()) {
      add(field, &value, "must not be empty");
      return;
    }
    if (entry.front() == '/' || entry.front() == '\\') {
      add(field, &value, "must be a path relative to the plugin directory, not an absolute path");
    } else if (entry.size() >= 2 && entry[1] == ':' &&
               ((entry[0] >= 'A' && entry[0] <= 'Z') || (entry[0] >= 'a' && entry[0] <= 'z'))) {
      add(field, &value,
          "must be a path relative to the plugin directory, not a drive path (\"C:\")");
    }
    std::size_t start = 0;
    while (start <= entry.size()) {
      std::size_t end = entry.find_first_of("/\\", start);
      if (end == std::string::npos) end = entry.size();
      if (std::string_view(entry).substr(start, end - start) == "..") {
        add(field, &value, "must not contain a \"..\" segment (it must stay inside the plugin "
                           "directory)");
        break;
      }
      start = end + 1;
    }
    if (entry.find('\0') != std::string::npos) {
      add(field, &value, "must not contain a NUL character");
    }
  }

  void check_capabilities(const json& caps) {
    string_list(
        caps, "events", "capabilities",
        [](std::string_view s) { return sn::EventName::from_wire(s).is_known(); },
        [](std::string_view) {
          return std::string("is not a known event (unknown capabilities are rejected)");
        });
    string_list(
        caps, "host_methods", "capabilities",
        [](std::string_view s) { return sn::HostMethodName::from_wire(s).is_known(); },
        [](std::string_view s) {
          std::string rule = "is not a known host method (unknown capabilities are rejected)";
          if (s == "get_credential") rule += "; get_credential is gated by capabilities.credentials";
          if (s == "set_status") rule += "; set_status is gated by contributes.status";
          return rule;
        });
    string_list(
        caps, "credentials", "capabilities",
        [](std::string_view s) { return sn::CredentialKind::from_wire(s).is_known(); },
        [](std::string_view) {
          return std::string("is not a known credential kind (unknown capabilities are rejected)");
        });
    if (const std::string* network = string_at(caps, "network", false, "capabilities")) {
      if (!sn::NetworkAccess::from_wire(*network).is_known()) {
        add("capabilities.network", &caps.at("network"),
            "must be \"none\" or \"external\"");
      }
    }
    string_list(
        caps, "ui", "capabilities",
        [](std::string_view s) { return sn::UiCapability::from_wire(s).is_known(); },
        [](std::string_view) {
          return std::string("is not a known ui capability (unknown capabilities are rejected)");
        });
  }

  void check_contributes(const json& contributes) {
    for (std::string_view key : {"actions", "status", "provides"}) {
      string_list(contributes, key, "contributes", is_namespaced_id, [](std::string_view) {
        return std::string(
            "must be a namespaced id feature.name (lowercase letters, digits, \"_\" and \"-\", "
            "dot-separated: ^[a-z0-9_-]+(\\.[a-z0-9_-]+)+$)");
      });
    }
  }
};

// The value at a DecodePath::str() path ("runtime.args[1]", "a[\"k\"]"), if it resolves.
const json* find_path(const json& root, std::string_view path) {
  const json* node = &root;
  if (path == "(root)") return node;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') {
      ++i;
      continue;
    }
    if (path[i] == '[') {
      if (i + 1 < path.size() && path[i + 1] == '"') {
        std::string key;
        std::size_t k = i + 2;
        for (; k < path.size() && path[k] != '"'; ++k) {
          if (path[k] == '\\' && k + 1 < path.size()) ++k;
          key += path[k];
        }
        if (k + 1 >= path.size() || path[k + 1] != ']' || !node->is_object()) return nullptr;
        auto it = node->find(key);
        if (it == node->end()) return nullptr;
        node = &*it;
        i = k + 2;
      } else {
        std::size_t close = path.find(']', i);
        if (close == std::string_view::npos || !node->is_array()) return nullptr;
        std::size_t index = 0;
        for (char c : path.substr(i + 1, close - i - 1)) {
          if (!is_digit(c)) return nullptr;
          index = index * 10 + static_cast<std::size_t>(c - '0');
        }
        if (index >= node->size()) return nullptr;
        node = &(*node)[index];
        i = close + 1;
      }
      continue;
    }
    std::size_t end = path.find_first_of(".[", i);
    if (end == std::string_view::npos) end = path.size();
    if (!node->is_object()) return nullptr;
    auto it = node->find(path.substr(i, end - i));
    if (it == node->end()) return nullptr;
    node = &*it;
    i = end;
  }
  return node;
}

// Decodes a manifest that passed the rules; anything the generated decoder still refuses is
// an issue (the rules above should leave nothing, but nothing may slip through).
ManifestResult finish(const json& manifest, std::filesystem::path dir,
                      std::vector<ManifestIssue> issues) {
  ManifestResult result;
  result.issues = std::move(issues);
  if (!result.issues.empty()) return result;
  LoadedManifest loaded;
  codec::DecodePath path;
  try {
    sn::decode(manifest, loaded.manifest, path);
  } catch (const codec::DecodeError& e) {
    const json* value = find_path(manifest, e.path());
    result.issues.push_back({e.path(), value != nullptr ? json_text(*value) : std::string(),
                             e.expected()});
    return result;
  } catch (const std::exception& e) {
    result.issues.push_back({path.str(), "", std::string("cannot be decoded: ") + e.what()});
    return result;
  }
  loaded.json = manifest;
  loaded.dir = std::move(dir);
  result.loaded = std::move(loaded);
  return result;
}

std::vector<ManifestIssue> check_rules(const json& manifest) {
  Checker checker;
  checker.check(manifest);
  return std::move(checker.issues);
}

}  // namespace

ManifestResult check_manifest(const json& manifest, const std::filesystem::path& dir) {
  return finish(manifest, dir, check_rules(manifest));
}

ManifestResult load_manifest(const std::filesystem::path& plugin_dir) {
  const std::filesystem::path file = plugin_dir / "plugin.toml";
  const std::string field = "plugin.toml";
  ManifestResult result;
  std::error_code ec;
  auto status = std::filesystem::status(file, ec);
  if (!std::filesystem::exists(status)) {
    result.issues.push_back({field, "", "not found (" + file.string() + ")"});
    return result;
  }
  if (!std::filesystem::is_regular_file(status)) {
    result.issues.push_back({field, "", "is not a regular file (" + file.string() + ")"});
    return result;
  }
  errno = 0;
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    int error = errno;
    result.issues.push_back({field, "", "cannot be read (" + file.string() + ")" +
                                            (error != 0 ? std::string(": ") + std::strerror(error)
                                                        : std::string())});
    return result;
  }
  // A manifest is a few hundred bytes; reading an endless or enormous file is not loading one.
  std::string text(kMaxManifestBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxManifestBytes) {
    result.issues.push_back({field, "", "is larger than " + std::to_string(kMaxManifestBytes) +
                                            " bytes (" + file.string() + ")"});
    return result;
  }

  std::filesystem::path dir = std::filesystem::absolute(plugin_dir, ec);
  if (ec) dir = plugin_dir;
  return parse_manifest(text, std::move(dir));
}

ManifestResult parse_manifest(std::string_view toml_text, const std::filesystem::path& dir) {
  ManifestResult result;
  if (toml_text.size() > kMaxManifestBytes) {
    result.issues.push_back(
        {"plugin.toml", "", "is larger than " + std::to_string(kMaxManifestBytes) + " bytes"});
    return result;
  }
  manifest_detail::TomlConversion toml = manifest_detail::toml_to_json(toml_text, "plugin.toml");
  if (!toml.json) {
    result.issues = std::move(toml.issues);
    return result;
  }
  std::vector<ManifestIssue> issues = std::move(toml.issues);
  for (ManifestIssue& issue : check_rules(*toml.json)) {
    // A value with no JSON form is already reported; its null stand-in is not a second issue.
    if (toml.unconvertible.count(issue.field) == 0) issues.push_back(std::move(issue));
  }
  result = finish(*toml.json, dir, std::move(issues));
  for (ManifestIssue& issue : result.issues) {
    if (issue.line == 0) std::tie(issue.line, issue.column) = toml.position_of(issue.field);
  }
  return result;
}

// ---- host_min gate, grant-all ----------------------------------------------------------------

std::optional<ManifestIssue> check_host_version(const sn::Manifest& manifest,
                                                std::string_view host_version) {
  auto min = parse_semver(manifest.host_min);
  if (!min) return ManifestIssue{"host_min", json_text(manifest.host_min), std::string(kSemverRule)};
  auto host = parse_semver(host_version);
  if (!host) {
    return ManifestIssue{"host_version", json_text(std::string(host_version)),
                         "is not a semantic version (SemVer 2.0.0), so host_min cannot be checked"};
  }
  if (compare(*host, *min) < 0) {
    return ManifestIssue{"host_min", json_text(manifest.host_min),
                         "requires host version " + manifest.host_min + " or newer; this host is " +
                             std::string(host_version)};
  }
  return std::nullopt;
}

namespace {

template <class Name>
std::vector<Name> known_unique(const std::vector<Name>& names) {
  std::vector<Name> out;
  for (const Name& name : names) {
    if (!name.is_known()) continue;
    bool seen = false;
    for (const Name& kept : out) seen = seen || kept == name;
    if (!seen) out.push_back(name);
  }
  return out;
}

}  // namespace

sn::Granted requested_capabilities(const sn::Manifest& manifest) {
  sn::Granted granted;
  if (!manifest.capabilities) return granted;
  const sn::ManifestCapabilities& caps = *manifest.capabilities;
  granted.events = known_unique(caps.events_or_default());
  granted.host_methods = known_unique(caps.host_methods_or_default());
  granted.credentials = known_unique(caps.credentials_or_default());
  granted.ui = known_unique(caps.ui_or_default());
  return granted;
}

}  // namespace rpckit::streamnook
