#pragma once
// An object's "anyOf" of required lists: {"properties": {...}, "anyOf": [{"required": ["text"]},
// {"required": ["blob"]}]} is not a union of two object types but one object with a rule, at
// least one alternative's members all present (MCP's TextResourceContents |
// BlobResourceContents). The generator, compat and docs all tell the two readings apart here.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rpckit/model/schema_set.hpp"

namespace rpckit::model {

// The alternatives' member lists when `node` has an "anyOf" whose every alternative is an
// object with "required" (a non-empty array of strings) as its only keyword; nullopt otherwise
// (no anyOf, or a real union). A "oneOf" of required lists is not this rule: it says "exactly
// one", which a reader would have to check against every member's presence.
std::optional<std::vector<std::vector<std::string>>> required_alternatives(const Json& node);

// "\"text\" or \"blob\"", "(\"a\" and \"b\") or \"c\"": the rule in words, each name as `quote`
// spells it (JSON text by default).
std::string describe_alternatives(const std::vector<std::vector<std::string>>& alternatives,
                                  const std::function<std::string(const std::string&)>& quote = {});

}  // namespace rpckit::model
