// The out-of-line part of object_codec.hpp: what is the same for every struct.
#include "rpckit/codec/object_codec.hpp"

namespace rpckit::codec {

void check_alternatives(const nlohmann::json& object, std::span<const Present> alternatives,
                        DecodePath& path) {
  auto holds = [&](const Present& alternative) {
    for (std::size_t k = 0; k < alternative.count; ++k) {
      if (!object.contains(alternative.keys[k])) return false;
    }
    return true;
  };
  for (const Present& alternative : alternatives) {
    if (holds(alternative)) return;
  }
  // The schema's words: "\"text\" or \"blob\"", "(\"a\" and \"b\") or \"c\"".
  std::string expected = "missing required field: ";
  const bool grouped = alternatives.size() > 1;
  for (std::size_t a = 0; a < alternatives.size(); ++a) {
    if (a > 0) expected += " or ";
    const bool parenthesized = grouped && alternatives[a].count > 1;
    if (parenthesized) expected += "(";
    for (std::size_t k = 0; k < alternatives[a].count; ++k) {
      if (k > 0) expected += " and ";
      expected += nlohmann::json(alternatives[a].keys[k]).dump();
    }
    if (parenthesized) expected += ")";
  }
  reject(path, std::move(expected));
}

}  // namespace rpckit::codec
