// Every pattern of schema/ against 4 MiB strings, through the validator: RE2 runs in time linear
// in the input and without recursion, where std::regex (valijson's) overflows the stack on
// 100 KB. Only verdicts are asserted; the timeout of the test (ctest) catches a blow-up.
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "rpckit/validate/schema_store.hpp"
#include "rpckit/validate/schema_validator.hpp"

namespace rpckit::validate {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::size_t kSize = std::size_t{4} << 20;  // 4 MiB

fs::path source_dir() {
  const char* env = std::getenv("RPCKIT_SOURCE_DIR");
  return env != nullptr && *env != '\0' ? fs::path(env) : fs::path(".");
}

// `unit` repeated to 4 MiB, between `head` and `tail`.
std::string big(const std::string& head, const std::string& unit, const std::string& tail = "") {
  std::string body = unit;
  while (body.size() < kSize) body += body;  // doubling: a Debug build appends slowly
  return head + body + tail;
}

struct Probe {
  const char* what;
  std::function<std::string()> input;
  bool matches;
};

// The patterns of schema/, each with long inputs whose verdict is known by construction. A
// pattern added to schema/ fails EverySchemaPatternIsProbed until it gets a row here.
const std::map<std::string, std::vector<Probe>>& probes() {
  static const std::map<std::string, std::vector<Probe>> table = {
      {R"(^[a-z0-9_]{1,40}$)",
       {{"4 MiB of a", [] { return big("", "a"); }, false},
        {"4 MiB of a_0 then a newline", [] { return big("", "a_0", "\n"); }, false}}},
      {R"(^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*))"
       R"((-(0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))"
       R"((\.(0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*)?)"
       R"((\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$)",
       {{"a 4 MiB major version", [] { return big("1", "0", ".0.0"); }, true},
        {"2 M pre-release identifiers", [] { return big("1.2.3-", "a.", "b"); }, true},
        {"4 MiB of build metadata, then !", [] { return big("1.2.3+", "x", "!"); }, false},
        {"a leading zero, then 4 MiB", [] { return big("01.2.3-", "a.", "b"); }, false}}},
      {R"(^[a-z0-9]+(\.[a-z0-9-]+)+$)",
       {{"2 M dot-separated parts", [] { return big("io", ".b-"); }, true},
        {"2 M parts, then a trailing dot", [] { return big("io", ".b-", "."); }, false}}},
      {R"(^[a-z0-9-]+(\.[a-z0-9-]+)+$)",
       {{"2 M dot-separated parts", [] { return big("a-", ".b-"); }, true},
        {"2 M parts, then an underscore", [] { return big("a-", ".b-", "_"); }, false}}},
      {R"(^app\.streamnook\.)",
       {{"the prefix, then 4 MiB", [] { return big("app.streamnook.", "x"); }, true},
        {"4 MiB, then the prefix", [] { return big("", "x", "app.streamnook."); }, false}}},
      {R"(^https://[^\s/?#]+([/?#]\S*)?$)",
       {{"a 4 MiB host", [] { return big("https://", "a"); }, true},
        {"a 4 MiB path of 2-byte characters", [] { return big("https://a/", "\u00e9"); }, true},
        {"a 4 MiB path, then U+2028", [] { return big("https://a/", "b", "\u2028"); }, false},
        {"http, then a 4 MiB host", [] { return big("http://", "a"); }, false}}},
      {R"(^https?://[^\s/?#]+([/?#]\S*)?$)",
       {{"a 4 MiB host", [] { return big("http://", "a"); }, true},
        {"a 4 MiB query, then a space", [] { return big("https://a?", "b", " x"); }, false}}},
      {R"((^|[/\\])\.\.([/\\]|$)|\u0000)",
       {{"2 M path segments", [] { return big("", "a/"); }, false},
        {"2 M path segments, then ..", [] { return big("", "a/", "../b"); }, true},
        {"4 MiB, then NUL", [] { return big("", "x", std::string(1, '\0')); }, true},
        {"2 M ..a", [] { return big("", "..a"); }, false}}},
      {R"(^([^/\\A-Za-z]|[A-Za-z]([^:]|$)|$))",
       {{"4 MiB of a", [] { return big("", "a"); }, true},
        {"a drive letter, then 4 MiB", [] { return big("C:", "\\"); }, false},
        {"/, then 4 MiB", [] { return big("/", "a"); }, false}}},
  };
  return table;
}

// The patterns the schema store compiles: every `pattern` and `patternProperties` key, not
// those inside values that are data (an x-error-messages text keyed "pattern").
void collect(const json& node, std::set<std::string>& out) {
  if (node.is_array()) {
    for (const auto& item : node) collect(item, out);
    return;
  }
  if (!node.is_object()) return;
  for (const auto& [key, value] : node.items()) {
    if (key == "enum" || key == "const" || key == "default" || key == "examples" ||
        key == "x-error-messages") {
      continue;
    }
    if (key == "pattern" && value.is_string()) out.insert(value.get<std::string>());
    if (key == "patternProperties" && value.is_object()) {
      for (const auto& [source, _] : value.items()) out.insert(source);
    }
    collect(value, out);
  }
}

// StreamNook's patterns (schema/, without the other protocols' folders schema/<protocol>/),
// or with `every_protocol` all of them.
std::set<std::string> schema_patterns(bool every_protocol = false) {
  std::set<std::string> out;
  const fs::path root = source_dir() / "schema";
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".json") continue;
    const auto rel = fs::relative(entry.path(), root);
    if (!every_protocol && std::distance(rel.begin(), rel.end()) > 1 &&
        fs::exists(root / *rel.begin() / "protocol.json")) {
      continue;
    }
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    collect(json::parse(text.str()), out);
  }
  return out;
}

TEST(PatternScaling, EverySchemaPatternIsProbed) {
  const auto patterns = schema_patterns();
  ASSERT_FALSE(patterns.empty()) << "no patterns under " << source_dir() / "schema";
  for (const auto& p : patterns) {
    EXPECT_TRUE(probes().count(p)) << "schema/ has a pattern with no 4 MiB probes here: " << p;
  }
  for (const auto& [p, _] : probes()) {
    EXPECT_TRUE(patterns.count(p)) << "probes for a pattern schema/ no longer has: " << p;
  }
}

// Every protocol's patterns, whatever they are, on 4 MiB inputs of several shapes: each
// search returns (no stack overflow, no backtracking blow-up), and agrees with itself on a
// second run.
TEST(PatternScaling, EveryProtocolsPatternsReturnOnFourMebibyteInput) {
  const auto patterns = schema_patterns(true);
  ASSERT_GE(patterns.size(), schema_patterns().size());
  const std::vector<std::string> inputs = {std::string(4u << 20, 'a'), std::string(4u << 20, '0'),
                                           "a" + std::string(4u << 20, '.') + "a",
                                           std::string(4u << 20, ' ')};
  for (const auto& pattern : patterns) {
    const auto store = SchemaStore::from_document(json{{"type", "string"}, {"pattern", pattern}});
    const SchemaValidator validator(store);
    for (const auto& input : inputs) {
      const json value = input;
      const bool first = validator.validate(value, store->root()).empty();
      EXPECT_EQ(validator.validate(value, store->root()).empty(), first) << pattern;
    }
  }
}

TEST(PatternScaling, FourMebibyteStrings) {
  for (const auto& [pattern, list] : probes()) {
    const auto store =
        SchemaStore::from_document(json{{"type", "string"}, {"pattern", pattern}});
    const SchemaValidator validator(store);
    for (const Probe& probe : list) {
      const json value = probe.input();
      ASSERT_GE(value.get_ref<const std::string&>().size(), kSize);
      const Violations v = validator.validate(value, store->root());
      EXPECT_EQ(!has_errors(v), probe.matches)
          << pattern << ": " << probe.what << ": expected "
          << (probe.matches ? "a match" : "no match");
    }
  }
}

}  // namespace
}  // namespace rpckit::validate
