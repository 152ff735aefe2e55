// The renderer on the generator's fixture protocols: the content that matters, exactly (a
// message's facts and params table, an error row, a constant, the profile, examples), every
// link resolving, and byte-identical output.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "lower/lower.hpp"
#include "model.hpp"
#include "support.hpp"
#include "tool/docs/context.hpp"
#include "tool/docs/docs.hpp"
#include "tool/docs/markdown.hpp"

namespace rpckit::docs {
namespace {

namespace fs = std::filesystem;
using gen::test::fixtures_dir;
using gen::test::source_dir;
using ::testing::HasSubstr;
using ::testing::Not;

fs::path calculator() { return fixtures_dir() / "calculator" / "schema" / "protocol.json"; }

std::string render(const fs::path& protocol, const fs::path& examples_dir = {}) {
  auto set = gen::SchemaSet::load(protocol);
  auto module = gen::lower(set);
  Examples examples;
  if (!examples_dir.empty()) examples = load_examples(examples_dir, module);
  return render_markdown(set, module, examples);
}

// The text from the line starting with `start` up to (not including) the next line starting
// with `end_prefix`.
std::string section(const std::string& doc, const std::string& start,
                    const std::string& end_prefix = "### ") {
  std::size_t at = doc.find("\n" + start);
  if (at == std::string::npos) return "";
  std::size_t end = doc.find("\n" + end_prefix, at + 1);
  return doc.substr(at + 1, end == std::string::npos ? std::string::npos : end - at);
}

TEST(Render, MessageFactsAndParamsTable) {
  std::string evaluate = section(render(calculator()), "### `evaluate`");
  EXPECT_THAT(evaluate,
              HasSubstr("Evaluates one expression.\n\n"
                        "- **Kind:** request (answered with a result or an error)\n"
                        "- **Direction:** `client` to `server`\n"
                        "- **Gate:** `arithmetic` is in the grant's `features`\n"
                        "- **Deadline:** `2500` ms ([`evaluate_timeout_ms`](#constants))\n"
                        "- **Errors:** [`division_by_zero`](#error-codes) (1), "
                        "[`overflow`](#error-codes) (2)\n"
                        "- **Params:** required\n"));
  EXPECT_THAT(evaluate,
              HasSubstr("**Params** (`EvaluateParams`): Params of evaluate.\n\n"
                        "| member | type | presence | nullable | default | constraints | "
                        "description |\n"
                        "|---|---|---|---|---|---|---|\n"
                        "| `expression` | [`Expression`](#expression) | required | no | | | |\n"
                        "| `variables` | [`Variables`](#variables) | optional | no | | | |\n"
                        "| `settings` | [`Settings`](#settings) | optional | no | | | |\n"
                        "| `precision` | integer | optional | no | `6` | minimum: 0, maximum: "
                        "4294967295 | Digits after the point. |\n"));
  EXPECT_THAT(evaluate, HasSubstr("**Result** (`EvaluateResult`): Result of evaluate; open: "
                                  "other members (any JSON) are kept.\n\n"
                                  "| member | type | presence | nullable | default | constraints "
                                  "| description |\n|---|---|---|---|---|---|---|\n"
                                  "| `value` | [`Operand`](#operand) | required | no | | | |\n"
                                  "| `elapsed_ms` | number | required | no | | minimum: 0 | |\n"
                                  "\nOther members (any name) are allowed and kept as they are; "
                                  "each value: any JSON.\n"));
}

TEST(Render, NotificationsOptionalParamsAndDeclaredGates) {
  std::string doc = render(calculator());
  std::string cancel = section(doc, "### `cancel`");
  EXPECT_THAT(cancel, HasSubstr("- **Kind:** notification (never answered)\n"));
  EXPECT_THAT(cancel, Not(HasSubstr("Deadline")));
  EXPECT_THAT(cancel, HasSubstr("- **Params:** may be absent or `null` on receipt; senders "
                                "leave them out\n"));
  EXPECT_THAT(cancel, HasSubstr("| `request_id` | integer | optional | yes | | | |\n"));
  EXPECT_THAT(section(doc, "### `ping`"),
              HasSubstr("senders send `{}`\n\n**Params** (`PingParams`)\n\n"
                        "An empty object: no members.\n\n**Result:** `null`\n"));
  EXPECT_THAT(section(doc, "### `define`"),
              HasSubstr("- **Gate:** `params.name` is declared in the manifest's "
                        "`limits.functions`; and `big-numbers` is in the grant's `features`\n"));
}

TEST(Render, TypesWithPresenceNullabilityDefaultsAndConstraints) {
  std::string expression = section(render(calculator()), "### `Expression`");
  for (const char* row : {
           "| `text` | string | required | no | | minLength: 1, maxLength: 200, not pattern: "
           "`^\\s*$` | The source text; not blank. |\n",
           "| `label` | string | required | yes | | | Nullable: always present, may be null. |\n",
           "| `note` | string | optional | yes | | | Optional and nullable: absent, null or a "
           "string. |\n",
           "| `tags` | array of string | optional | no | | minItems: 1, maxItems: 8, uniqueItems; "
           "items: maxLength: 16 | Up to 8 distinct short tags. |\n",
           "| `slots` | array of nullable string | optional | no | | | |\n",
           "| `mode` | [`ExpressionMode`](#expressionmode) | optional | no | `\"exact\"` | | "
           "Inline "
           "enum without a title. |\n",
           "| `homepage` | string | optional | no | | format: uri | |\n",
           "| `created_at` | string | optional | no | | format: date-time | |\n",
       }) {
    EXPECT_THAT(expression, HasSubstr(row));
  }
  EXPECT_THAT(render(calculator()),
              HasSubstr("### `Circle`\n\nDefined in `types/shape.json#/definitions/Circle`.\n\n"
                        "| member | type | presence | nullable | default | constraints | "
                        "description |\n|---|---|---|---|---|---|---|\n"
                        "| `kind` | `\"circle\"` (const) | required | no | | | |\n"));
  // An open struct says what its other members may be.
  EXPECT_THAT(section(render(calculator()), "### `Settings`"),
              HasSubstr("| `digits` | integer | optional | no | | minimum: 0, maximum: 4294967295 "
                        "| |\n\nOther members (any name) are allowed and kept as they are; each "
                        "value: string (maxLength: 8).\n"));
}

TEST(Render, ErrorCodesCapabilitiesAndConstants) {
  std::string doc = render(calculator());
  std::string errors = section(doc, "## Error codes", "## ");
  // x-error-data gives overflow and invalid_name a data type: a column says which.
  EXPECT_THAT(errors, HasSubstr("| code | name | meaning | listed by | error.data |\n"
                                "|---|---|---|---|---|\n"
                                "| `-32602` | `invalid_params` | Params fail the schema. | | |\n"));
  EXPECT_THAT(errors, HasSubstr("| `1` | `division_by_zero` | The expression divides by zero. | "
                                "[`evaluate`](#evaluate) | |\n"));
  EXPECT_THAT(errors, HasSubstr("| `2` | `overflow` | The result does not fit. | "
                                "[`evaluate`](#evaluate) | [`OverflowData`](#overflowdata) |\n"));
  EXPECT_THAT(errors, HasSubstr("| `3` | `invalid_name` | A function name is not allowed. | "
                                "[`define`](#define) | string |\n"));
  EXPECT_THAT(errors,
              HasSubstr("Defined with them in `errors.json`: [`OverflowData`](#overflowdata), "
                        "[`ErrorData`](#errordata)."));
  EXPECT_THAT(section(doc, "## Capabilities", "## "),
              HasSubstr("| `big-numbers` | Arbitrary precision. |\n"));
  std::string constants = section(doc, "## Constants", "## ");
  EXPECT_THAT(constants, HasSubstr("| `server_name` | `\"calc \\\"pro\\\" \\\\ edition\"` | Name "
                                   "with \"quotes\" and a \\\\ backslash. |\n"));
  EXPECT_THAT(constants, HasSubstr("| `retry_backoff_ms` | `[100, 200, 400]` ms | Delays before "
                                   "each retry. |\n"));
  EXPECT_THAT(constants, HasSubstr("| `strict_mode` | `true` | |\n"));
}

TEST(Render, ProfileInWireNames) {
  std::string profile = section(render(calculator()), "## Profile", "## ");
  for (const char* row : {
           "| Framing | `ndjson` |\n",
           "| Frame cap (bytes) | `65536` ([`register_offsets_max`](#constants)) |\n",
           "| Request ids accepted | `string`, `integer`, `null` |\n",
           "| Lifecycle: Handshake | [`define`](#define) |\n",
           "| Error objects | an error object without `code` reads as `internal`; without "
           "`message`, as `unknown error` |\n",
       }) {
    EXPECT_THAT(profile, HasSubstr(row));
  }
}

TEST(Render, GrantLinksGatesToTheCapabilitiesTheyOpen) {
  std::string doc = render(source_dir() / "schema" / "protocol.json");
  EXPECT_THAT(section(doc, "### `get_credential`"),
              HasSubstr("- **Gate:** `params.kind` is in the grant's [`credentials`](#granted)\n"));
  EXPECT_THAT(section(doc, "### `UiCapability`"),
              HasSubstr("| `panel` | A settings panel: register_panel, get_panel_values, "
                        "on_panel_change (§9.3). | [`on_panel_change`](#on_panel_change), "
                        "[`register_panel`](#register_panel), "
                        "[`get_panel_values`](#get_panel_values) |\n"));
}

TEST(Render, ExamplesUnderTheirMessage) {
  gen::test::TempDir dir("docs-examples");
  gen::test::write_file(dir.path() / "evaluate.json", R"({
    "envelopes": [
      {"jsonrpc": "2.0", "id": "e1", "method": "evaluate", "params": {"precision": 2}},
      {"jsonrpc": "2.0", "id": "e2", "method": "evaluate", "params": {}},
      {"jsonrpc": "2.0", "id": "e3", "method": "evaluate", "params": {}}
    ],
    "results": [{"value": 4, "elapsed_ms": 0.5}],
    "invalid": [{"envelope": {"jsonrpc": "2.0", "method": "evaluate"}, "why": "no <id>"}]
  })");
  gen::test::write_file(dir.path() / "manifest.json", R"({"valid": []})");  // not a message
  std::string evaluate = section(render(calculator(), dir.path()), "### `evaluate`", "## ");
  EXPECT_THAT(
      evaluate,
      HasSubstr("**Examples**\n\n"
                "```json\n{\"jsonrpc\": \"2.0\", \"id\": \"e1\", \"method\": \"evaluate\", "
                "\"params\": {\"precision\": 2}}\n```\n\n"
                "```json\n{\"jsonrpc\": \"2.0\", \"id\": \"e2\", \"method\": \"evaluate\", "
                "\"params\": {}}\n```\n\n"
                "**Response**\n\n"
                "```json\n{\"jsonrpc\": \"2.0\", \"id\": \"e1\", \"result\": {\"value\": 4, "
                "\"elapsed_ms\": 0.5}}\n```\n\n"
                "**Not valid** (no &lt;id>)\n\n"
                "```json\n{\"jsonrpc\": \"2.0\", \"method\": \"evaluate\"}\n```\n"));
  EXPECT_THAT(evaluate, Not(HasSubstr("e3")));
}

TEST(Render, LongJsonBreaksWhereALineWouldPassNinetyColumns) {
  gen::Json j = gen::Json::parse(
      R"({"jsonrpc": "2.0", "id": 1, "method": "m",)"
      R"( "params": {"a": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "b": [1, 2]}})");
  EXPECT_EQ(json_block(j),
            "{\n"
            "  \"jsonrpc\": \"2.0\",\n"
            "  \"id\": 1,\n"
            "  \"method\": \"m\",\n"
            "  \"params\": {\"a\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\", \"b\": [1, 2]}\n"
            "}");
}

// Every "](#anchor)" is the GitHub anchor of a heading of the page, and no link placeholder
// is left, for every fixture protocol and StreamNook's.
TEST(Render, EveryLinkResolves) {
  std::vector<fs::path> protocols = {source_dir() / "schema" / "protocol.json"};
  for (const std::string& name : gen::test::fixture_names()) {
    protocols.push_back(fixtures_dir() / name / "schema" / "protocol.json");
  }
  for (const fs::path& protocol : protocols) {
    std::string doc = render(protocol);
    std::set<std::string> anchors;
    std::map<std::string, int> seen;
    bool in_code = false;
    std::istringstream lines(doc);
    for (std::string line; std::getline(lines, line);) {
      if (line.starts_with("```")) in_code = !in_code;
      if (in_code || !line.starts_with("#")) continue;
      std::string base = md::slug(line.substr(line.find(' ') + 1));
      std::string anchor = base;
      while (seen.count(anchor)) anchor = base + "-" + std::to_string(++seen[base]);
      seen[anchor] = 0;
      anchors.insert(anchor);
    }
    std::regex link(R"(\]\(#([^)]+)\))");
    for (auto it = std::sregex_iterator(doc.begin(), doc.end(), link); it != std::sregex_iterator();
         ++it) {
      EXPECT_TRUE(anchors.count((*it)[1].str())) << protocol << ": #" << (*it)[1].str();
    }
    EXPECT_EQ(doc.find_first_of(std::string("\x01\x02\x03\x1f", 4)), std::string::npos) << protocol;
  }
}

TEST(Render, ByteIdenticalAcrossRunsAndSchemaLocations) {
  fs::path examples = source_dir() / "tests" / "fixtures" / "examples";
  fs::path protocol = source_dir() / "schema" / "protocol.json";
  std::string first = render(protocol, examples);
  EXPECT_EQ(first, render(protocol, examples));
  gen::test::TempDir dir("docs-moved");
  gen::test::copy_tree(source_dir() / "schema", dir.path() / "elsewhere" / "schema");
  EXPECT_EQ(first, render(dir.path() / "elsewhere" / "schema" / "protocol.json", examples));
  EXPECT_THAT(first, Not(HasSubstr(source_dir().string())));
}

}  // namespace
}  // namespace rpckit::docs
