#pragma once
// plugin.toml text to the manifest's JSON form (private to the manifest loader).
#include <map>
#include <optional>
#include <set>
#include <utility>
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
  // Where each value starts in the text (line, column; 1-based), by the same paths.
  std::map<std::string, std::pair<std::size_t, std::size_t>> positions;

  // The position of `path`, or of its nearest ancestor that has one (a missing member is
  // reported where its table is); 1:1, the top level, when none has.
  std::pair<std::size_t, std::size_t> position_of(std::string_view path) const;
};

TomlConversion toml_to_json(std::string_view text, std::string_view source_name);

}  // namespace rpckit::streamnook::manifest_detail
