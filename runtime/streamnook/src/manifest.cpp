// Loading a manifest: the file, its TOML, and the rules. The rules are the schema's
// (schema/manifest.json), run by the generated decoder in collect mode with strict enums;
// this file only adds what a plugin author needs to read them in plugin.toml terms.
#include "rpckit/streamnook/manifest.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <exception>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <system_error>
#include <tuple>
#include <utility>

#include "manifest_toml.hpp"
#include "manifest_util.hpp"
#include "real_host_manifest.hpp"
#include "rpckit/codec/decode_error.hpp"

namespace rpckit::streamnook {

using nlohmann::json;
using manifest_detail::json_text;

std::string ManifestIssue::str() const {
  if (value.empty()) return field + ": " + rule;
  return field + " = " + value + ": " + rule;
}

std::string ManifestIssue::located(std::string_view file) const {
  std::string out(file);
  if (line != 0) out += ":" + std::to_string(line) + ":" + std::to_string(column);
  return out + (warning ? ": warning: " : ": ") + str();
}

namespace {

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
          if (c < '0' || c > '9') return nullptr;
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

// ---- what the schema's keywords cannot say ---------------------------------------------------

// The decoder names JSON kinds; a plugin.toml has tables and floats.
std::string in_toml_words(std::string rule) {
  for (auto [json_word, toml_word] : {std::pair{"expected object", "expected table"},
                                      std::pair{"got object", "got table"},
                                      std::pair{"got number", "got float"}}) {
    if (auto at = rule.find(json_word); at != std::string::npos) {
      rule.replace(at, std::strlen(json_word), toml_word);
    }
  }
  return rule;
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// Values spec section 7 reserves (so they are not merely unknown), and host methods granted by
// another capability than host_methods: the hint the author needs next to the listed values.
struct Hint {
  std::string_view field_prefix;
  std::string_view value;
  std::string_view hint;
};
constexpr Hint kHints[] = {
    {"runtime.kind", "wasm", "\"wasm\" is reserved and not supported (use \"process\")"},
    {"runtime.transport", "socket", "\"socket\" is reserved and not supported (use \"stdio\")"},
    {"capabilities.host_methods[", "get_credential",
     "get_credential is gated by capabilities.credentials, not listed here"},
    {"capabilities.host_methods[", "set_status",
     "set_status is gated by contributes.status, not listed here"},
};

std::string with_hints(std::string rule, const std::string& field, const json* value) {
  // "(same as [0])" names an item of the same list: say which list, as the field does.
  if (std::size_t at = rule.find("(same as ["); at != std::string::npos) {
    if (std::size_t open = field.rfind('['); open != std::string::npos) {
      rule.insert(at + std::strlen("(same as "), field.substr(0, open));
    }
  }
  if (value == nullptr || !value->is_string()) return rule;
  const auto& text = value->get_ref<const std::string&>();
  if (!text.empty() && (is_space(text.front()) || is_space(text.back()))) {
    rule += "; note the leading or trailing whitespace";
  }
  for (const Hint& h : kHints) {
    if (field.starts_with(h.field_prefix) && text == h.value) rule += "; " + std::string(h.hint);
  }
  return rule;
}

// The decoder reports a list's unlisted items while decoding it and its repeats after: items
// of one list are put back in index order, each list where its first issue was.
void in_list_order(std::vector<codec::DecodeError>& problems) {
  struct Key {
    std::size_t list_rank;
    std::size_t index;  // 0 for a problem that is not a list item
  };
  std::map<std::string, std::size_t, std::less<>> first_seen;
  std::vector<Key> keys;
  for (const codec::DecodeError& problem : problems) {
    std::string_view path = problem.path();
    std::size_t index = 0;
    if (std::size_t open = path.rfind('['); path.ends_with(']') && open != std::string_view::npos) {
      std::string_view digits = path.substr(open + 1, path.size() - open - 2);
      std::size_t n = 0;
      auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
      if (!digits.empty() && error == std::errc() && end == digits.data() + digits.size()) {
        index = n + 1;
        path = path.substr(0, open);
      }
    }
    auto [it, _] = first_seen.emplace(std::string(path), first_seen.size());
    keys.push_back({it->second, index});
  }
  std::vector<std::size_t> order(problems.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(keys[a].list_rank, keys[a].index) < std::tie(keys[b].list_rank, keys[b].index);
  });
  std::vector<codec::DecodeError> sorted;
  sorted.reserve(problems.size());
  for (std::size_t i : order) sorted.push_back(std::move(problems[i]));
  problems = std::move(sorted);
}

// Every rule of the schema, every violation: the generated decoder collecting, strict about
// enums (capability lists are closed: an unknown value fails closed).
ManifestResult check_rules(const json& manifest, std::filesystem::path dir,
                           std::vector<ManifestIssue> issues,
                           const std::set<std::string>& already_reported = {}) {
  LoadedManifest loaded;
  std::vector<codec::DecodeError> problems;
  codec::DecodePath path;
  path.collect_into(&problems);
  path.set_strict_enums(true);
  try {
    sn::decode(manifest, loaded.manifest, path);
  } catch (const codec::DecodeError& e) {  // a root that is not a table stops the decoder
    problems.push_back(e);
  } catch (const std::exception& e) {
    problems.emplace_back(path.str(), std::string("cannot be decoded: ") + e.what());
  }
  in_list_order(problems);
  for (const codec::DecodeError& problem : problems) {
    // A value with no JSON form is already reported; its null stand-in is not a second issue.
    if (already_reported.count(problem.path()) != 0) continue;
    const json* value = find_path(manifest, problem.path());
    issues.push_back({problem.path(), value != nullptr ? json_text(*value) : std::string(),
                      with_hints(in_toml_words(problem.expected()), problem.path(), value)});
  }
  ManifestResult result;
  result.issues = std::move(issues);
  result.warnings = manifest_detail::real_host_warnings(manifest);
  if (!result.issues.empty()) return result;
  loaded.json = manifest;
  loaded.dir = std::move(dir);
  result.loaded = std::move(loaded);
  return result;
}

// In the order of the file, as a compiler reports (a missing member where its table is).
void sort_by_place(std::vector<ManifestIssue>& issues) {
  std::stable_sort(issues.begin(), issues.end(),
                   [](const ManifestIssue& a, const ManifestIssue& b) {
                     return std::tie(a.line, a.column) < std::tie(b.line, b.column);
                   });
}

}  // namespace

ManifestResult check_manifest(const json& manifest, const std::filesystem::path& dir) {
  return check_rules(manifest, dir, {});
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
  // Read a block at a time up to one byte over the cap: a buffer of the cap's size, zero-filled
  // and freed per load, left a host with a megabyte of touched heap per plugin it started.
  std::string text;
  constexpr std::size_t kBlock = 4096;
  while (text.size() <= kMaxManifestBytes && in) {
    const std::size_t at = text.size();
    text.resize(std::min(at + kBlock, kMaxManifestBytes + 1));
    in.read(text.data() + at, static_cast<std::streamsize>(text.size() - at));
    text.resize(at + static_cast<std::size_t>(in.gcount()));
  }
  if (text.size() > kMaxManifestBytes) {
    result.issues.push_back({field, "", "is larger than " + std::to_string(kMaxManifestBytes) +
                                            " bytes (" + file.string() + ")"});
    return result;
  }

  std::filesystem::path dir = std::filesystem::absolute(plugin_dir, ec);
  if (ec) dir = plugin_dir;
  result = parse_manifest(text, dir);
  if (!result.loaded) return result;
  std::vector<ManifestIssue> missing =
      manifest_detail::real_host_file_warnings(result.loaded->json.get(), dir);
  if (missing.empty()) return result;
  // Rare: parsed again for the positions rather than kept from parse_manifest.
  manifest_detail::TomlConversion toml = manifest_detail::toml_to_json(text, "plugin.toml");
  for (ManifestIssue& warning : missing) {
    std::tie(warning.line, warning.column) = toml.position_of(warning.field);
  }
  result.warnings.insert(result.warnings.end(), missing.begin(), missing.end());
  sort_by_place(result.warnings);
  return result;
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
  result = check_rules(*toml.json, dir, std::move(toml.issues), toml.unconvertible);
  for (std::vector<ManifestIssue>* list : {&result.issues, &result.warnings}) {
    for (ManifestIssue& issue : *list) {
      if (issue.line == 0) std::tie(issue.line, issue.column) = toml.position_of(issue.field);
    }
    sort_by_place(*list);
  }
  return result;
}

}  // namespace rpckit::streamnook
