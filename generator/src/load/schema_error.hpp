#pragma once
#include <stdexcept>
#include <string>

namespace rpckit::gen {

// A problem in the input schema, located by file and JSON pointer:
// "types/channel.json#/properties/login: unsupported keyword \"patternProperties\"".
class SchemaError : public std::runtime_error {
 public:
  SchemaError(const std::string& file, const std::string& pointer, const std::string& message)
      : std::runtime_error(file + "#" + pointer + ": " + message) {}
};

}  // namespace rpckit::gen
