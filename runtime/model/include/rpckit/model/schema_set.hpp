#pragma once
// The loader: reads the protocol file and every schema file it reaches (x-messages, x-types,
// $ref) and resolves $refs. One loaded set is what the generator, the tools beside it and the
// validation library read a protocol from. Two policies say what the walk accepts:
// - kGenerator (generate, docs, compat): every schema node is checked against the keyword
//   whitelist the generator understands; only relative file references.
// - kDraft07 (validate): any JSON Schema draft-07 keyword; a $ref to another file, or a
//   relative "*.json" path an "x-" annotation names, is loaded wherever it is written (outside
//   data: enum, const, default, examples, x-error-messages); a remote ("://") reference is
//   left alone.
#include <cstdint>
#include <filesystem>
#include <functional>
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

// "a~1b~0c" from the key "a/b~c": a key as a JSON pointer token (RFC 6901).
std::string pointer_token(std::string_view key);

enum class KeywordPolicy : std::uint8_t { kGenerator, kDraft07 };

// What a keyword's value is, of the keywords the generator takes (KeywordPolicy::kGenerator):
// one subschema ("items"), an object of subschemas ("properties"), an array of subschemas
// ("oneOf"), data ("type", "enum", an annotation), or none (a keyword it does not take).
enum class KeywordValue : std::uint8_t { kSchema, kSchemaMap, kSchemaArray, kData, kUnsupported };
KeywordValue keyword_value(std::string_view key);

struct LoadOptions {
  KeywordPolicy policy = KeywordPolicy::kGenerator;
  // kDraft07: called on every schema object the walk reaches, in walk order (validate compiles
  // the node's patterns here, so a bad one fails the load where it is written).
  std::function<void(const Node&)> visit = {};
};

class SchemaSet {
 public:
  // Loads `protocol_file` and everything it reaches. Throws SchemaError.
  static SchemaSet load(const std::filesystem::path& protocol_file,
                        const LoadOptions& options = {});
  // One document held in memory, named `name` in locations; a file it references is read from
  // `directory`. Throws SchemaError.
  static SchemaSet from_document(Json document, const std::string& name,
                                 const std::filesystem::path& directory,
                                 const LoadOptions& options = {});

  Node root() const;
  Node file(const std::string& relative) const;  // an already loaded file's root
  // Resolves a $ref written in `from`: "../types/channel.json#/definitions/X" or "#/..." (the
  // fragment percent-decoded, then read as a JSON pointer).
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
  // `referrer`: the value that names the file (a "$ref", an x- entry), for read and parse
  // errors.
  void load_file(const std::string& relative, const Node* referrer = nullptr);
  void walk(const Node& root);
  void check_keywords(const Node& node);
  void follow_draft07(const Node& node);
  void follow(const Node& referrer, const std::string& ref);
  std::string ref_file(const Node& from, const std::string& ref) const;

  LoadOptions options_;
  std::filesystem::path dir_;
  std::string root_file_;
  std::map<std::string, Json> files_;       // relative path -> document
  std::map<std::string, std::string> raw_;  // relative path -> bytes
};

}  // namespace rpckit::model
