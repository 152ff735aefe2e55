#pragma once
// Private helpers shared by manifest.cpp and manifest_toml.cpp: issue paths and value text.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rpckit::streamnook::manifest_detail {

// The JSON text of a value for ManifestIssue::value (invalid UTF-8 replaced, never throws).
inline std::string json_text(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// "a.b" for identifier-like keys ([A-Za-z0-9_-]+), else a["k\"ey"] as DecodePath spells
// keys that are not identifiers; `key` alone at the root.
inline std::string child_path(std::string_view parent, std::string_view key) {
  bool plain = !key.empty();
  for (char c : key) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-';
    if (!ok) {
      plain = false;
      break;
    }
  }
  std::string out(parent);
  if (plain) {
    if (!out.empty()) out += '.';
    out += key;
    return out;
  }
  out += "[\"";
  for (char c : key) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += "\"]";
  return out;
}

inline std::string index_path(std::string_view parent, std::size_t index) {
  return std::string(parent) + "[" + std::to_string(index) + "]";
}

}  // namespace rpckit::streamnook::manifest_detail
