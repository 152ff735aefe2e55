#pragma once
// plugin.toml text to the manifest's JSON form (private to the manifest loader).
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "rpckit/streamnook/manifest.hpp"

namespace rpckit::streamnook::manifest_detail {

struct TomlConversion {
  // The document as JSON: tables -> objects, arrays, strings, integers, floats, booleans.
  // nullopt when the text is not valid TOML (then `issues` holds the syntax error).
  std::optional<nlohmann::json> json;
  // Syntax error (field "plugin.toml", rule with line:column), or values with no JSON form
  // (dates, times, non-finite floats) at their own dotted path.
  std::vector<ManifestIssue> issues;
  // Paths of the values with no JSON form; `json` holds null there, so the rule checks would
  // report them a second time ("must be a string, got null"): those reports are dropped.
  std::set<std::string> unconvertible;
};

TomlConversion toml_to_json(std::string_view text, std::string_view source_name);

}  // namespace rpckit::streamnook::manifest_detail
