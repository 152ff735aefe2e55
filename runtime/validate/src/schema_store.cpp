#include "rpckit/validate/schema_store.hpp"

#include <mutex>
#include <variant>

#include "rpckit/codec/ecmascript_pattern.hpp"
#include "rpckit/codec/pattern.hpp"

namespace rpckit::validate {
namespace fs = std::filesystem;

SchemaStore::~SchemaStore() = default;

model::LoadOptions SchemaStore::load_options(SchemaStore& store) {
  return {.policy = model::KeywordPolicy::kDraft07,
          .visit = [&store](const SchemaRef& node) { store.compile_patterns(node); }};
}

std::shared_ptr<const SchemaStore> SchemaStore::load(const fs::path& root_file) {
  std::shared_ptr<SchemaStore> store(new SchemaStore());
  try {
    store->schemas_ = model::SchemaSet::load(
        root_file.parent_path().empty() ? fs::path(".") / root_file : root_file,
        load_options(*store));
  } catch (const model::SchemaError& e) {
    throw SchemaLoadError(e.what());
  }
  return store;
}

std::shared_ptr<const SchemaStore> SchemaStore::from_document(const nlohmann::json& document,
                                                              const std::string& name,
                                                              const fs::path& directory) {
  std::shared_ptr<SchemaStore> store(new SchemaStore());
  try {
    store->schemas_ = model::SchemaSet::from_document(model::Json(document), name, directory,
                                                      load_options(*store));
  } catch (const model::SchemaError& e) {
    throw SchemaLoadError(e.what());
  }
  return store;
}

// The node's patterns, compiled once at load: `pattern`, and each `patternProperties` key.
void SchemaStore::compile_patterns(const SchemaRef& node) {
  const model::Json& j = *node.json;
  auto compile = [&](const std::string& source, const std::string& keyword) {
    if (patterns_.count(source) == 0) {
      patterns_.emplace(source, compile_pattern(source, node.loc().str() + "/" + keyword));
    }
  };
  if (auto p = j.find("pattern"); p != j.end() && p->is_string()) {
    compile(p->get<std::string>(), "pattern");
  }
  if (auto pp = j.find("patternProperties"); pp != j.end() && pp->is_object()) {
    for (const auto& [source, _] : pp->items()) compile(source, "patternProperties");
  }
}

SchemaRef SchemaStore::root() const { return schemas_.root(); }

SchemaRef SchemaStore::at(const std::string& location) const { return resolve(root(), location); }

SchemaRef SchemaStore::resolve(const SchemaRef& from, const std::string& ref) const {
  try {
    return schemas_.resolve(from, ref);
  } catch (const model::SchemaError& e) {
    throw SchemaLoadError(e.what());
  }
}

std::unique_ptr<codec::Pattern> SchemaStore::compile_pattern(const std::string& source,
                                                             const std::string& where) {
  auto re2 = codec::ecmascript_to_re2(source);
  if (auto* error = std::get_if<codec::PatternError>(&re2)) {
    throw SchemaLoadError(where + ": pattern \"" + source +
                          "\" cannot be matched in linear time: " + error->reason);
  }
  try {
    return std::make_unique<codec::Pattern>(std::get<std::string>(re2), source);
  } catch (const std::invalid_argument& e) {
    throw SchemaLoadError(where + ": " + e.what());
  }
}

const codec::Pattern& SchemaStore::pattern(const std::string& ecmascript,
                                           const std::string& where) const {
  if (auto it = patterns_.find(ecmascript); it != patterns_.end()) return *it->second;
  // A pattern where the load-time walk does not look (a schema under a data keyword).
  std::lock_guard<std::mutex> lock(late_mutex_);
  auto& late = late_patterns_[ecmascript];
  if (!late) late = compile_pattern(ecmascript, where);
  return *late;
}

}  // namespace rpckit::validate
