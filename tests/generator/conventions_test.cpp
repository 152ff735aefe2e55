// The convention warnings (lower/conventions.hpp) through `rpckit generate` and `check`, run
// as a process on an edited copy of the calculator fixture: each warning appears on stderr,
// located like a schema error, while the bindings are still written (exit 0); --strict makes
// it an error (exit 2, nothing written). Every schema of the repository is warning-free.
#include "lower/conventions.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>

#include "lower/lower.hpp"
#include "model.hpp"
#include "support.hpp"

namespace rpckit::gen::test {
namespace {

using ::testing::HasSubstr;
using J = nlohmann::ordered_json;

// A copy of the calculator fixture's schema, edited by `change`, and the runs over it.
class EditedCalculator {
 public:
  explicit EditedCalculator(const std::function<void(EditedCalculator&)>& change) {
    copy_tree(fixtures_dir() / "calculator" / "schema", schema());
    change(*this);
  }
  fs::path schema() const { return dir_.path() / "schema"; }
  fs::path out() const { return dir_.path() / "out"; }
  J json(const std::string& rel) const { return J::parse(read_file(schema() / rel)); }
  void save(const std::string& rel, const J& doc) const { write_file(schema() / rel, doc.dump(2) + "\n"); }
  // messages/cancel.json changed by `change`, saved as `rel`.
  void save_cancel_as(const std::string& rel, const std::function<void(J&)>& change) const {
    J doc = json("messages/cancel.json");
    change(doc);
    save(rel, doc);
  }
  RunResult generate(bool strict) const { return rpckit("generate", strict); }
  RunResult check(bool strict) const { return rpckit("check", strict); }

 private:
  RunResult rpckit(const std::string& command, bool strict) const {
    std::vector<std::string> argv = {rpckit_exe(), command, (schema() / "protocol.json").string(),
                                     "--out", out().string()};
    if (strict) argv.push_back("--strict");
    return run(argv);
  }
  TempDir dir_{"conventions"};
};

// The warning is printed, the bindings written; under --strict the same text is an error and
// nothing is written; `check --strict` fails the same way.
void expect_warning(const EditedCalculator& s, const std::string& file, const std::string& text) {
  const std::string located = (s.schema() / file).string() + ":";
  RunResult lax = s.generate(false);
  EXPECT_EQ(lax.exit_code, 0) << lax.err;
  EXPECT_THAT(lax.err, HasSubstr(located));
  EXPECT_THAT(lax.err, HasSubstr(": schema warning: " + text + "\n"));
  EXPECT_TRUE(fs::exists(s.out() / "demo_calc" / "types.hpp")) << "bindings are still written";
  RunResult check = s.check(false);
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_THAT(check.err, HasSubstr(": schema warning: " + text + "\n"));

  fs::remove_all(s.out());
  RunResult strict = s.generate(true);
  EXPECT_EQ(strict.exit_code, 2);
  EXPECT_THAT(strict.err, HasSubstr(located));
  EXPECT_THAT(strict.err, HasSubstr(": schema error: " + text + "\n"));
  EXPECT_THAT(strict.err, HasSubstr("rpckit: 1 convention warning is an error with --strict\n"));
  EXPECT_EQ(strict.out, "");
  EXPECT_FALSE(fs::exists(s.out())) << "nothing is written under --strict";
  RunResult strict_check = s.check(true);
  EXPECT_EQ(strict_check.exit_code, 2);
  EXPECT_THAT(strict_check.err, HasSubstr(": schema error: " + text + "\n"));
}

TEST(ConventionWarnings, ParamsNotNamedAfterTheMethod) {
  EditedCalculator s([](EditedCalculator& e) {
    e.save_cancel_as("messages/cancel.json", [](J& cancel) {
      cancel["definitions"]["StopParams"] = cancel["definitions"]["CancelParams"];
      cancel["definitions"].erase("CancelParams");
      cancel["properties"]["params"]["oneOf"][0]["$ref"] = "#/definitions/StopParams";
    });
  });
  expect_warning(s, "messages/cancel.json",
                 "messages/cancel.json#/properties/params/oneOf/0/$ref: expected "
                 "\"#/definitions/CancelParams\" (params named after the method \"cancel\"), got "
                 "\"#/definitions/StopParams\"");
}

TEST(ConventionWarnings, TitleIsNotTheMethod) {
  EditedCalculator s([](EditedCalculator& e) {
    e.save_cancel_as("messages/cancel.json", [](J& cancel) { cancel["title"] = "abort"; });
  });
  expect_warning(s, "messages/cancel.json",
                 "messages/cancel.json#/title: title \"abort\" differs from the method \"cancel\" "
                 "(properties/method/const)");
}

TEST(ConventionWarnings, MessageFileNotListed) {
  EditedCalculator s([](EditedCalculator& e) {
    e.save_cancel_as("messages/stop.json", [](J& stop) {
      stop["title"] = "stop";
      stop["properties"]["method"]["const"] = "stop";
    });
  });
  expect_warning(s, "protocol.json",
                 "protocol.json#/x-messages: message file \"messages/stop.json\" is not listed "
                 "(it sits with the listed messages)");
}

// Not message files: a type file a message reaches by $ref, a file that is no message, broken
// JSON, and a message-shaped file in a folder without listed messages.
TEST(ConventionWarnings, OtherFilesBesideTheMessagesAreNotMessageFiles) {
  EditedCalculator s([](EditedCalculator& e) {
    e.save_cancel_as("messages/cancel.json", [](J& cancel) {
      cancel["definitions"]["CancelParams"]["properties"]["reason"] = J{{"$ref", "reason.json"}};
    });
    e.save("messages/reason.json", J{{"title", "Reason"}, {"type", "string"}});
    e.save("messages/notes.json", J{{"description", "not a schema the protocol lists"}});
    write_file(e.schema() / "messages" / "broken.json", "{\"x-kind\": ");
    e.save_cancel_as("drafts/stop.json", [](J& stop) { stop["properties"]["method"]["const"] = "stop"; });
  });
  RunResult r = s.generate(true);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST(ConventionWarnings, EveryWarningIsReported) {
  EditedCalculator s([](EditedCalculator& e) {
    e.save_cancel_as("messages/cancel.json", [](J& cancel) { cancel["title"] = "abort"; });
    e.save_cancel_as("messages/stop.json", [](J& stop) {
      stop["title"] = "stop";
      stop["properties"]["method"]["const"] = "stop";
    });
  });
  RunResult r = s.generate(true);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("title \"abort\""));
  EXPECT_THAT(r.err, HasSubstr("message file \"messages/stop.json\""));
  EXPECT_THAT(r.err, HasSubstr("rpckit: 2 convention warnings are errors with --strict\n"));
}

// The repository's schemas follow the conventions: `rpckit generate` on them prints nothing.
TEST(ConventionWarnings, NoneInTheRepositorysSchemas) {
  std::vector<fs::path> protocols = {source_dir() / "schema/protocol.json"};
  for (const char* root : {"schema", "tests/generator/fixtures", "examples", "docs"}) {
    for (const std::string& f : list_files(source_dir() / root)) {
      if (fs::path(f).filename() == "protocol.json" && f != "protocol.json") {
        protocols.push_back(source_dir() / root / f);
      }
    }
  }
  ASSERT_GE(protocols.size(), 10u);
  for (const fs::path& protocol : protocols) {
    SchemaSet set = SchemaSet::load(protocol);
    for (const SchemaWarning& w : convention_warnings(set, lower(set))) {
      ADD_FAILURE() << protocol << ": " << w.text();
    }
  }
}

}  // namespace
}  // namespace rpckit::gen::test
