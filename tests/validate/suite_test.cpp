// The official JSON Schema Test Suite, draft7 (the Debian package json-schema-test-suite):
// every case of every file, the suite's verdict required, enums strict as JSON Schema has them.
// What the validator deliberately does not do is in kSkips below, each with its reason.
#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "rpckit/validate/schema_store.hpp"
#include "rpckit/validate/schema_validator.hpp"

namespace rpckit::validate {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kSuiteDir = "/usr/share/json-schema-test-suite/tests/draft7";

// A case, a group or a whole file left out. Empty fields match anything.
struct Skip {
  std::string_view file;   // relative to kSuiteDir: "optional/format/iri.json"
  std::string_view group;  // the group's description
  std::string_view test;   // the case's description
  std::string_view reason;
};

constexpr std::string_view kRemote =
    "a remote $ref (http://localhost:1234/...): the store loads only files next to the schema";
constexpr std::string_view kId =
    "$id changes the base URI or names a schema: the store resolves $refs by file path and "
    "JSON pointer only";
constexpr std::string_view kMeta =
    "a $ref to the draft-07 metaschema by URL: the store does not bundle it";
constexpr std::string_view kUnknownFormat =
    "a format the validator treats as an annotation (draft-07 7.2 allows it)";

constexpr std::string_view kContent =
    "contentMediaType and contentEncoding are annotations in draft-07 (8.2: a validator need "
    "not check them; ajv does not)";

constexpr Skip kSkips[] = {
    {"refRemote.json", "", "", kRemote},
    {"ref.json", "remote ref, containing refs itself", "", kMeta},
    {"ref.json", "Recursive references between schemas", "", kId},
    {"definitions.json", "", "", kMeta},
    {"optional/content.json", "", "", kContent},
    // format "regex": ECMAScript syntax; checking it would need the full ECMAScript grammar
    // (what RE2 cannot run is still a valid regex).
    {"optional/ecmascript-regex.json", "", "", kUnknownFormat},
    {"optional/format/idn-email.json", "", "", kUnknownFormat},
    {"optional/format/idn-hostname.json", "", "", kUnknownFormat},
    {"optional/format/iri.json", "", "", kUnknownFormat},
    {"optional/format/iri-reference.json", "", "", kUnknownFormat},
    {"optional/format/json-pointer.json", "", "", kUnknownFormat},
    {"optional/format/relative-json-pointer.json", "", "", kUnknownFormat},
    {"optional/format/regex.json", "", "", kUnknownFormat},
    {"optional/format/uri-template.json", "", "", kUnknownFormat},
};

const Skip* skip_for(const std::string& file, const std::string& group, const std::string& test) {
  for (const Skip& s : kSkips) {
    if (s.file == file && (s.group.empty() || s.group == group) &&
        (s.test.empty() || s.test == test)) {
      return &s;
    }
  }
  return nullptr;
}

std::vector<fs::path> suite_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(kSuiteDir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

json read_json(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

enum class Outcome { kValid, kInvalid, kError };

const char* name(Outcome o) {
  return o == Outcome::kValid ? "valid" : o == Outcome::kInvalid ? "invalid" : "error";
}

struct Totals {
  std::size_t run = 0, skipped = 0, failed = 0, skipped_but_passing = 0;
  std::map<const Skip*, std::size_t> used;  // cases each skip entry matched
};

TEST(JsonSchemaTestSuite, Draft7) {
  ASSERT_TRUE(fs::is_directory(kSuiteDir))
      << kSuiteDir << " is missing: install the Debian package json-schema-test-suite "
      << "(tools/bootstrap does)";
  Totals totals;
  const auto files = suite_files();
  ASSERT_FALSE(files.empty());
  for (const fs::path& path : files) {
    const std::string file = fs::relative(path, kSuiteDir).generic_string();
    const json groups = read_json(path);
    for (const json& group : groups) {
      const std::string group_name = group.at("description").get<std::string>();
      // A schema the store refuses (a pattern RE2 cannot run) fails every case of its group.
      std::shared_ptr<const SchemaStore> store;
      std::string load_error;
      try {
        store = SchemaStore::from_document(group.at("schema"), "schema.json", kSuiteDir);
      } catch (const std::exception& e) {
        load_error = e.what();
      }
      for (const json& test : group.at("tests")) {
        const std::string test_name = test.at("description").get<std::string>();
        const bool expected = test.at("valid").get<bool>();
        Outcome got = Outcome::kError;
        std::string detail = load_error;
        if (store) {
          try {
            const SchemaValidator validator(store, {.strict_enums = true});
            const Violations v = validator.validate(test.at("data"), store->root());
            got = has_errors(v) ? Outcome::kInvalid : Outcome::kValid;
            if (!v.empty()) detail = v.front().instance + ": " + v.front().message();
          } catch (const std::exception& e) {
            detail = e.what();
          }
        }
        const bool pass = got == (expected ? Outcome::kValid : Outcome::kInvalid);
        if (const Skip* skip = skip_for(file, group_name, test_name)) {
          ++totals.skipped;
          ++totals.used[skip];
          if (pass) ++totals.skipped_but_passing;
          continue;
        }
        ++totals.run;
        if (!pass) {
          ++totals.failed;
          ADD_FAILURE() << file << ": \"" << group_name << "\" / \"" << test_name
                        << "\": expected " << (expected ? "valid" : "invalid") << ", got "
                        << name(got) << (detail.empty() ? "" : " (" + detail + ")")
                        << "\n  schema: " << group.at("schema").dump()
                        << "\n  data: " << test.at("data").dump();
        }
      }
    }
  }
  std::cout << "JSON Schema Test Suite draft7: " << files.size() << " files, " << totals.run
            << " cases run (" << totals.failed << " failed), " << totals.skipped
            << " skipped (" << totals.skipped_but_passing
            << " of which the validator gets right anyway)\n";
  for (const Skip& s : kSkips) {
    std::cout << "  skipped " << totals.used[&s] << ": " << s.file
              << (s.group.empty() ? "" : " / " + std::string(s.group)) << " (" << s.reason
              << ")\n";
    // A skip that matches nothing is stale (a renamed case): the list says only what is true.
    EXPECT_GT(totals.used[&s], 0u)
        << "skip entry matches no case: " << s.file << " / " << s.group << " / " << s.test;
  }
}

}  // namespace
}  // namespace rpckit::validate
