#pragma once
// Editing a copy of the real schema/, for the tests of additive changes: the generator's
// (additive_test.cpp: only symbols are added) and the build's (additive_build_test.cpp: every
// example builds unchanged against the regenerated bindings).
#include <string>

#include <nlohmann/json.hpp>

#include "support.hpp"

namespace rpckit::gen::test {

// A copy of the real schema/ in a temp dir, to edit.
class SchemaCopy {
 public:
  SchemaCopy();
  fs::path path(const std::string& rel) const { return dir_.path() / rel; }
  nlohmann::ordered_json json(const std::string& rel) const;
  void save(const std::string& rel, const nlohmann::ordered_json& doc) const;
  Generated generate() const { return test::generate(path("protocol.json")); }

 private:
  TempDir dir_;
};

// Appends `value` (and its description) to the string enum at definitions[name] of `rel`.
void append_enum_value(const SchemaCopy& s, const std::string& rel, const std::string& name,
                       const std::string& value);

// The additive change, applied to a copy of schema/:
//   1. a new event on_test_event (params: channel_id, optional nullable detail), gated by
//      events "on_test_event";
//   2. a new host method get_test_value (a plugin-to-host request; params: key; result:
//      value), gated by host_methods "get_test_value";
//   3. a new optional field Channel.is_favorite;
//   4. a new value "overlay" of the UiCapability enum;
//   5. a new error code -32099 quota_exceeded.
// Throws std::runtime_error if the schema no longer has the shape the edit expects.
void apply_additive_change(const SchemaCopy& s);

}  // namespace rpckit::gen::test
