#include "rpckit/model/required_alternatives.hpp"

namespace rpckit::model {

namespace {

// {"required": ["a", ...]} and nothing else: the alternative's names, or nullopt.
std::optional<std::vector<std::string>> required_only(const Json& alternative) {
  if (!alternative.is_object() || alternative.size() != 1) return std::nullopt;
  auto it = alternative.find("required");
  if (it == alternative.end() || !it->is_array() || it->empty()) return std::nullopt;
  std::vector<std::string> names;
  for (const Json& name : *it) {
    if (!name.is_string()) return std::nullopt;
    names.push_back(name.get<std::string>());
  }
  return names;
}

}  // namespace

std::optional<std::vector<std::vector<std::string>>> required_alternatives(const Json& node) {
  if (!node.is_object()) return std::nullopt;
  auto it = node.find("anyOf");
  if (it == node.end() || !it->is_array() || it->empty()) return std::nullopt;
  std::vector<std::vector<std::string>> out;
  for (const Json& alternative : *it) {
    auto names = required_only(alternative);
    if (!names) return std::nullopt;
    out.push_back(std::move(*names));
  }
  return out;
}

std::string describe_alternatives(const std::vector<std::vector<std::string>>& alternatives,
                                  const std::function<std::string(const std::string&)>& quote) {
  std::string out;
  const bool grouped = alternatives.size() > 1;
  for (const auto& names : alternatives) {
    if (!out.empty()) out += " or ";
    if (grouped && names.size() > 1) out += "(";
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i > 0) out += " and ";
      out += quote ? quote(names[i]) : Json(names[i]).dump();
    }
    if (grouped && names.size() > 1) out += ")";
  }
  return out;
}

}  // namespace rpckit::model
