#pragma once
// The loader: reads the protocol file and every schema file it reaches (x-messages, x-types,
// $ref), checks each schema node against the keyword whitelist, and resolves $refs. One loaded
// set is what the generator, and the tools beside it, read a protocol from.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "rpckit/model/location.hpp"
#include "rpckit/model/schema_error.hpp"

namespace rpckit::model {

using Json = nlohmann::ordered_json;  // keeps the schema's key order: output follows it

// A schema node and where it lives.
struct Node {
  const Json* json = nullptr;
  std::string file;     // relative to the schema directory, '/'-separated
  std::string pointer;  // JSON pointer inside the file ("" = root)

  Location loc() const { return {file, pointer}; }
  Node child(std::string_view key) const;  // throws SchemaError if missing
  Node item(std::size_t index) const;      // array element; throws SchemaError if missing
  bool has(std::string_view key) const { return json->is_object() && json->contains(key); }
  [[noreturn]] void fail(const std::string& message) const {
    throw SchemaError(file, pointer, message);
  }
  // fail(expected + ", got <this value as JSON>"): for a value of the wrong kind or outside
  // a closed set, so the message shows what was written.
  [[noreturn]] void reject(const std::string& expected) const;
};

class SchemaSet {
 public:
  // Loads `protocol_file` and everything it reaches. Throws SchemaError.
  static SchemaSet load(const std::filesystem::path& protocol_file);

  Node root() const;
  Node file(const std::string& relative) const;  // an already loaded file's root
  // Resolves a $ref written in `from`: "../types/channel.json#/definitions/X" or "#/...".
  Node resolve(const Node& from, const std::string& ref) const;
  // fnv1a64 of every loaded file's path and bytes, in path order: the schema's identity.
  std::string hash() const;
  // Every file loaded (the protocol file and all it reaches), for build-system depfiles.
  std::vector<std::filesystem::path> files() const;
  // The protocol file's folder, which every relative path above is relative to.
  const std::filesystem::path& dir() const { return dir_; }
  // Whether `relative` (any spelling) was loaded: listed, or reached by a $ref.
  bool loaded(const std::string& relative) const;

 private:
  // `referrer`: the schema node whose $ref names the file, for read and parse errors.
  void load_file(const std::string& relative, const Node* referrer = nullptr);
  void check_keywords(const Node& node);
  std::string ref_file(const Node& from, const std::string& ref) const;

  std::filesystem::path dir_;
  std::string root_file_;
  std::map<std::string, Json> files_;       // relative path -> document
  std::map<std::string, std::string> raw_;  // relative path -> bytes
};

}  // namespace rpckit::model
