// rpckit::model's annotation vocabulary (annotations.hpp): every keyword the schemas in schema/
// use is one it spells, the loader accepts exactly those, and no code outside runtime/model
// spells one itself (the one-model rule of the toolkit: a new annotation is taught once).
#include "rpckit/model/annotations.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rpckit/model/protocol.hpp"

namespace rpckit::model {
namespace {

namespace fs = std::filesystem;

fs::path source_dir() { return fs::path(RPCKIT_TEST_SOURCE_DIR); }

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Every "x-" key of an object anywhere in `j`.
void collect_keys(const Json& j, std::set<std::string>& out) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      if (is_annotation_key(key)) out.insert(key);
      collect_keys(value, out);
    }
  } else if (j.is_array()) {
    for (const Json& item : j) collect_keys(item, out);
  }
}

TEST(Annotations, EachKeywordNamesItsAnnotationBack) {
  std::set<std::string_view> seen;
  for (auto a = static_cast<std::uint8_t>(Annotation::kNamespace);
       a <= static_cast<std::uint8_t>(kLastAnnotation); ++a) {
    const std::string_view k = keyword(static_cast<Annotation>(a));
    EXPECT_TRUE(k.starts_with("x-")) << k;
    EXPECT_TRUE(seen.insert(k).second) << k << " spelled twice";
    EXPECT_EQ(annotation_named(k), static_cast<Annotation>(a)) << k;
  }
  EXPECT_EQ(seen.size(), 23U);
  EXPECT_FALSE(annotation_named("x-unknown"));
  EXPECT_FALSE(annotation_named("kind"));
}

TEST(Annotations, EveryKeyTheSchemasWriteIsOneTheModelSpells) {
  std::set<std::string> keys;
  for (const auto& entry : fs::recursive_directory_iterator(source_dir() / "schema")) {
    if (entry.path().extension() != ".json") continue;
    collect_keys(Json::parse(read(entry.path())), keys);
  }
  ASSERT_GE(keys.size(), 15U) << "the scan of schema/ found too few annotations";
  for (const std::string& key : keys) {
    EXPECT_TRUE(annotation_named(key))
        << key << " is written in schema/ but not in annotations.hpp";
  }
}

TEST(Annotations, TheGeneratorPolicyRefusesAnUnknownAnnotationWhereItIsWritten) {
  Json doc = Json::parse(R"({"x-messages": [], "x-colour": "blue"})");
  try {
    (void)SchemaSet::from_document(doc, "protocol.json", source_dir());
    FAIL() << "an unknown annotation loaded";
  } catch (const SchemaError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("/x-colour"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("unsupported keyword"));
  }
}

TEST(Annotations, AnnotationHandsOutTheNodeAsWrittenWithWhereItIs) {
  const SchemaSet set =
      SchemaSet::from_document(Json::parse(R"({"x-roles": ["a", "b"], "x-messages": [],
                      "definitions": {"E": {"enum": ["x"], "x-enum-names": ["kX"]}}})"),
                               "protocol.json", source_dir());
  const auto roles = annotation(set.root(), Annotation::kRoles);
  ASSERT_TRUE(roles);
  EXPECT_EQ(roles->loc().str(), "protocol.json#/x-roles");
  EXPECT_EQ(roles->json->size(), 2U);
  EXPECT_FALSE(annotation(set.root(), Annotation::kProfile));
  const auto names = annotation(set.root().child("definitions").child("E"), Annotation::kEnumNames);
  ASSERT_TRUE(names);
  EXPECT_EQ(names->loc().str(), "protocol.json#/definitions/E/x-enum-names");
}

TEST(Annotations, AMessageFileIsAnObjectWithAKindOrAMethod) {
  EXPECT_TRUE(looks_like_message(Json::parse(R"({"x-kind": "notification"})")));
  EXPECT_TRUE(looks_like_message(Json::parse(R"({"properties": {"method": {"const": "m"}}})")));
  EXPECT_FALSE(looks_like_message(Json::parse(R"({"properties": {"id": {}}})")));
  EXPECT_FALSE(looks_like_message(Json::parse(R"(["x-kind"])")));
  EXPECT_FALSE(looks_like_message(Json()));
}

// Code, not prose: comments are dropped, and a keyword inside a message ("needs \"x-result\"",
// an escaped quote) is text for a person. What is left of the form "x-..." or "/x-..." is a
// keyword looked up or written, and only rpckit::model may do that.
TEST(Annotations, NoCodeOutsideTheModelSpellsAnAnnotationKeyword) {
  const std::regex literal(R"re((^|[^\\])"/?x-[a-z])re");
  std::vector<std::string> found;
  std::size_t scanned = 0;
  for (const char* dir : {"runtime", "generator", "examples"}) {
    for (const auto& entry : fs::recursive_directory_iterator(source_dir() / dir)) {
      const fs::path& path = entry.path();
      if (path.extension() != ".cpp" && path.extension() != ".hpp") continue;
      const std::string relative = fs::relative(path, source_dir()).generic_string();
      if (relative.starts_with("runtime/model/")) continue;
      ++scanned;
      std::istringstream lines(read(path));
      std::string line;
      for (int number = 1; std::getline(lines, line); ++number) {
        const std::size_t comment = line.find("//");
        const std::string code = line.substr(0, comment);
        if (std::regex_search(code, literal)) {
          found.push_back(relative + ":" + std::to_string(number) + ": " + line);
        }
      }
    }
  }
  EXPECT_GE(scanned, 200U) << "the scan read too few files";
  EXPECT_THAT(found, ::testing::IsEmpty())
      << "use rpckit::model::Annotation (runtime/model/include/rpckit/model/annotations.hpp)";
}

}  // namespace
}  // namespace rpckit::model
