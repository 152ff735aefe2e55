#pragma once
// plugin.toml text to the manifest's JSON form (private to the manifest loader).
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
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
  // Where the value at `path` starts in the text (line, column; 1-based), or its nearest
  // ancestor (a missing member is reported where its table is); 1:1, the top level, when none.
  std::pair<std::size_t, std::size_t> position_of(std::string_view path) const;

  // Looks paths up in the parsed document, which it keeps alive.
  std::function<std::pair<std::size_t, std::size_t>(std::string_view)> locator;
};

TomlConversion toml_to_json(std::string_view text, std::string_view source_name);

}  // namespace rpckit::streamnook::manifest_detail
