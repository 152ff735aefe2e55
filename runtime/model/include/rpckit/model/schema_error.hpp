#pragma once
#include <stdexcept>
#include <string>

namespace rpckit::model {

// A problem in the input schema, located by file and JSON pointer:
// "types/channel.json#/properties/login: unsupported keyword \"patternProperties\"".
class SchemaError : public std::runtime_error {
 public:
  SchemaError(const std::string& file, const std::string& pointer, const std::string& message)
      : std::runtime_error(file + "#" + pointer + ": " + message), file_(file), pointer_(pointer) {}

  // The file relative to the protocol file's folder, and the JSON pointer in it.
  const std::string& file() const { return file_; }
  const std::string& pointer() const { return pointer_; }

 private:
  std::string file_;
  std::string pointer_;
};

// A drift from the schema conventions that still generates (the generator's
// lower/conventions.hpp), located the same way; `rpckit generate --strict` makes it an error.
struct SchemaWarning {
  std::string file;
  std::string pointer;
  std::string message;

  std::string text() const { return file + "#" + pointer + ": " + message; }
};

}  // namespace rpckit::model
