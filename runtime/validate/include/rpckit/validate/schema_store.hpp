#pragma once
// SchemaStore: a JSON Schema (draft-07) file and every file it reaches, loaded once by
// rpckit::model's loader (KeywordPolicy::kDraft07) and then read-only, so one store serves any
// number of threads.
//
// Loading follows each "$ref" and each relative "*.json" path an "x-" annotation names (a
// protocol file's x-messages, x-types, x-error-codes), and compiles every `pattern` and
// `patternProperties` key with RE2: patterns run in time linear in the input and without
// recursion, whatever a peer sends (std::regex, which valijson uses, overflows the stack on a
// 100 KB string).
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "rpckit/model/schema_set.hpp"

namespace rpckit::codec {
class Pattern;
}

namespace rpckit::validate {

// A schema node and where it lives: "messages/notify.json#/definitions/NotifyParams".
using SchemaRef = model::Node;
using model::pointer_token;

// A schema that cannot be loaded: unreadable or unparsable file, a $ref to nothing, a
// pattern RE2 cannot run. what() starts with the location.
class SchemaLoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class SchemaStore {
 public:
  static std::shared_ptr<const SchemaStore> load(const std::filesystem::path& root_file);
  // One schema held in memory, named `name` in locations; a $ref to another file is loaded
  // from `directory`.
  static std::shared_ptr<const SchemaStore> from_document(
      const nlohmann::json& document, const std::string& name = "schema.json",
      const std::filesystem::path& directory = ".");

  SchemaStore(const SchemaStore&) = delete;
  SchemaStore& operator=(const SchemaStore&) = delete;
  ~SchemaStore();

  SchemaRef root() const;
  // "types/channel.json#/definitions/X" (file relative to the root's directory) or a bare
  // "#/pointer" in the root file. Throws SchemaLoadError when it names nothing.
  SchemaRef at(const std::string& location) const;
  // A $ref (or x- path) written in `from`'s file. Throws SchemaLoadError.
  SchemaRef resolve(const SchemaRef& from, const std::string& ref) const;
  // The compiled form of a pattern (`where` names it in the SchemaLoadError of a pattern RE2
  // cannot run, which only a pattern the load did not see can still throw).
  const codec::Pattern& pattern(const std::string& ecmascript, const std::string& where) const;
  const std::filesystem::path& directory() const { return schemas_.dir(); }
  // The loaded files, as the model's loader holds them.
  const model::SchemaSet& schemas() const { return schemas_; }

 private:
  SchemaStore() = default;
  static model::LoadOptions load_options(SchemaStore& store);
  void compile_patterns(const SchemaRef& node);
  static std::unique_ptr<codec::Pattern> compile_pattern(const std::string& source,
                                                         const std::string& where);

  model::SchemaSet schemas_;
  std::map<std::string, std::unique_ptr<codec::Pattern>> patterns_;  // read-only after load
  mutable std::mutex late_mutex_;
  mutable std::map<std::string, std::unique_ptr<codec::Pattern>> late_patterns_;
};

}  // namespace rpckit::validate
