// rpckit::model's loader on small schemas written to a temporary folder: what each keyword
// policy walks and accepts, where a file that cannot be loaded is reported, how a $ref's file
// and fragment are read.
#include "rpckit/model/schema_set.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace rpckit::model {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class SchemaSetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("rpckit-model-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const std::string& relative, const std::string& text) {
    fs::create_directories((dir_ / relative).parent_path());
    std::ofstream(dir_ / relative) << text;
  }
  fs::path path(const std::string& relative) const { return dir_ / relative; }

  // The message of the SchemaError a load throws ("" when it loads).
  static std::string load_error(const fs::path& file, const LoadOptions& options) {
    try {
      SchemaSet::load(file, options);
    } catch (const SchemaError& e) {
      return e.what();
    }
    return "";
  }

  static LoadOptions draft07() { return {.policy = KeywordPolicy::kDraft07}; }

  fs::path dir_;
};

TEST_F(SchemaSetTest, AKeywordOutsideTheWhitelistIsRefusedForTheGeneratorAndReadForValidation) {
  write("p.json", R"({"type": "object", "patternProperties": {"^x": {"type": "string"}}})");
  EXPECT_EQ(load_error(path("p.json"), {}),
            "p.json#/patternProperties: unsupported keyword \"patternProperties\"");
  EXPECT_EQ(load_error(path("p.json"), draft07()), "");
}

TEST_F(SchemaSetTest, Draft07FollowsReferencesWhereverTheyAreWrittenButNotInData) {
  write("p.json", R"({
    "x-types": ["types/listed.json"],
    "x-error-codes": "types/codes.json#/definitions/Code",
    "if": {"$ref": "types/under_if.json"},
    "patternProperties": {"^a": {"$ref": "./types/../types/under_pattern.json"}},
    "default": {"$ref": "types/in_default.json"},
    "enum": ["types/in_enum.json"],
    "x-error-messages": {"pattern": "types/in_messages.json"}
  })");
  for (const char* file : {"types/listed.json", "types/codes.json", "types/under_if.json",
                           "types/under_pattern.json"}) {
    write(file, R"({"definitions": {"Code": {"enum": [1]}}})");
  }
  const SchemaSet set = SchemaSet::load(path("p.json"), draft07());
  std::vector<std::string> loaded;
  for (const fs::path& file : set.files())
    loaded.push_back(fs::relative(file, dir_).generic_string());
  EXPECT_THAT(loaded, ElementsAre("p.json", "types/codes.json", "types/listed.json",
                                  "types/under_if.json", "types/under_pattern.json"));
  EXPECT_TRUE(set.loaded("./types/under_pattern.json"));
  EXPECT_FALSE(set.loaded("types/in_default.json"));
}

TEST_F(SchemaSetTest, Draft07LeavesRemoteReferencesToResolve) {
  write("p.json", R"({"properties": {"a": {"$ref": "http://example.com/a.json#/x"}}})");
  const SchemaSet set = SchemaSet::load(path("p.json"), draft07());
  const Node a = set.root().child("properties").child("a");
  try {
    set.resolve(a, "http://example.com/a.json#/x");
    FAIL() << "a remote reference resolved";
  } catch (const SchemaError& e) {
    EXPECT_EQ(std::string(e.what()),
              "p.json#/properties/a/$ref: only relative file references are supported, got "
              "\"http://example.com/a.json#/x\"");
  }
}

TEST_F(SchemaSetTest, AFileThatCannotBeLoadedIsReportedWhereItIsNamed) {
  write("p.json", R"({"x-messages": ["m.json"]})");
  write("m.json", "{not json");
  // The generator reads the lists after the protocol file, each entry's problems in the file
  // itself...
  EXPECT_THAT(load_error(path("p.json"), {}), HasSubstr("m.json#: invalid JSON: "));
  // ...validation follows x- paths as it follows $refs, and names the value that names them.
  EXPECT_THAT(
      load_error(path("p.json"), draft07()),
      HasSubstr("p.json#/x-messages/0: cannot load referenced file: m.json#: invalid JSON"));
  write("p.json", R"({"properties": {"a": {"$ref": "gone.json"}}})");
  for (const LoadOptions& options : {LoadOptions{}, draft07()}) {
    EXPECT_EQ(
        load_error(path("p.json"), options),
        "p.json#/properties/a/$ref: cannot load referenced file: gone.json#: cannot read file");
  }
}

TEST_F(SchemaSetTest, VisitSeesEverySchemaObjectInWalkOrderAndNothingInData) {
  write("p.json", R"({
    "properties": {"a": {"pattern": "^a"}, "b": {"items": [{"type": "string"}]}},
    "const": {"pattern": "not a schema"},
    "allOf": [{"$ref": "t.json"}]
  })");
  write("t.json", R"({"not": {"pattern": "^t"}})");
  std::vector<std::string> seen;
  LoadOptions options = draft07();
  options.visit = [&](const Node& node) { seen.push_back(node.loc().str()); };
  SchemaSet::load(path("p.json"), options);
  EXPECT_THAT(seen, ElementsAre("p.json#", "p.json#/properties", "p.json#/properties/a",
                                "p.json#/properties/b", "p.json#/properties/b/items/0",
                                "p.json#/allOf/0", "t.json#", "t.json#/not"));
}

TEST_F(SchemaSetTest, AFragmentIsPercentDecodedThenReadAsAJsonPointer) {
  const Json document =
      Json::parse(R"({"definitions": {"a/b~c": {"const": 1}, "percent%field": {"const": 2}}})");
  const SchemaSet set = SchemaSet::from_document(document, "doc.json", dir_, draft07());
  EXPECT_EQ(set.resolve(set.root(), "#/definitions/a~1b~0c").json->at("const"), 1);
  EXPECT_EQ(set.resolve(set.root(), "#/definitions/percent%25field").json->at("const"), 2);
  const Node node = set.resolve(set.root(), "doc.json#/definitions/percent%25field");
  EXPECT_EQ(node.loc().str(), "doc.json#/definitions/percent%field");
  EXPECT_EQ(node.child("const").loc().str(), "doc.json#/definitions/percent%field/const");
  EXPECT_EQ(set.root().child("definitions").child("a/b~c").pointer, "/definitions/a~1b~0c");
}

TEST_F(SchemaSetTest, AnInMemoryDocumentLoadsTheFilesItReferencesFromItsFolder) {
  write("types/t.json", R"({"definitions": {"T": {"type": "integer"}}})");
  const Json document = Json::parse(R"({"$ref": "types/t.json#/definitions/T"})");
  const SchemaSet set = SchemaSet::from_document(document, "schema.json", dir_, draft07());
  EXPECT_TRUE(set.loaded("types/t.json"));
  EXPECT_EQ(set.resolve(set.root(), "types/t.json#/definitions/T").json->at("type"), "integer");
  try {
    set.resolve(set.root(), "#/definitions/Nope");
    FAIL() << "a pointer at nothing resolved";
  } catch (const SchemaError& e) {
    EXPECT_EQ(std::string(e.what()),
              "schema.json#/$ref: reference \"#/definitions/Nope\" points at nothing");
  }
}

}  // namespace
}  // namespace rpckit::model
