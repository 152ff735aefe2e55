// rpckit::mcp::ToolSet: tools added, replaced and removed at run time, tools/list in pages,
// tools/call by name; typed tools whose arguments and results are structs generated from
// tool_types/ with x-type-schemas, so the schema the model is shown is the one the arguments
// are decoded by.
#include "rpckit/mcp/tool_set.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "mcp_test_tools/types.hpp"
#include "rpckit/codec/json_writer.hpp"
#include "rpckit/codec/text_decoder.hpp"
#include "rpckit/endpoint/rpc_error.hpp"

namespace {

namespace m = ::mcp::v2025_11_25;
namespace tools = ::mcp_test::tools;
using nlohmann::json;
using rpckit::mcp::ToolSet;
using ::testing::HasSubstr;

tools::WordCount count_words(const tools::WordCountArgs& args) {
  std::istringstream in(args.text);
  tools::WordCount out;
  for (std::string word; in >> word;) {
    if (args.min_length && static_cast<std::int64_t>(word.size()) < *args.min_length) continue;
    ++out.words;
    if (!out.longest || word.size() > out.longest->size()) out.longest = word;
  }
  return out;
}

m::ToolsCallParams call_of(const std::string& name, const json& arguments) {
  m::ToolsCallParams p;
  p.name = name;
  p.arguments.emplace();
  for (const auto& [key, value] : arguments.items()) (*p.arguments)[key] = value;
  return p;
}

m::Tool named(const std::string& name) {
  m::Tool t;
  t.name = name;
  return t;
}

std::vector<std::string> names(const m::ToolsListResult& r) {
  std::vector<std::string> out;
  for (const m::Tool& t : r.tools) out.push_back(t.name);
  return out;
}

m::ToolsCallResult echo(const m::ToolsCallParams& p) {
  return rpckit::mcp::text_result(ToolSet::arguments_of(p).value("text", ""));
}

TEST(ToolSet, ATypedToolIsShownTheSchemaItsStructsWereGeneratedFrom) {
  // The generated text: $refs replaced by what they name, annotations left out.
  EXPECT_EQ(json::parse(json_schema(static_cast<const tools::WordCountArgs*>(nullptr))),
            json::parse(R"({"description": "count_words's arguments.", "type": "object",
                "properties": {
                  "text": {"description": "The text to count the words of.", "type": "string"},
                  "min_length": {"description": "Shorter words are not counted.",
                                 "type": "integer", "minimum": 1},
                  "language": {"description": "How words are told apart.", "type": "string",
                               "enum": ["latin", "cjk"]}},
                "required": ["text"]})"));
  ToolSet set;
  set.add<tools::WordCountArgs>("count_words", "Counts the words of a text.", count_words);
  m::ToolsListResult listed = set.list({});
  ASSERT_EQ(listed.tools.size(), 1u);
  const json tool = listed.tools[0];
  EXPECT_EQ(tool["description"], "Counts the words of a text.");
  // The whole schema, its top-level description too (ToolInputSchema is open).
  EXPECT_EQ(tool["inputSchema"],
            json::parse(json_schema(static_cast<const tools::WordCountArgs*>(nullptr))));
  EXPECT_EQ(tool["outputSchema"],
            json::parse(json_schema(static_cast<const tools::WordCount*>(nullptr))));
  EXPECT_EQ(tool["outputSchema"]["properties"]["words"],
            json::parse(R"({"type": "integer", "minimum": 0})"));
}

TEST(ToolSet, AToolListFromAnotherServerKeepsEveryKeywordOfItsSchemas) {
  // What a client relays to a model must be what the server wrote: the schema keywords MCP's
  // types do not declare, a capability MCP does not define, a result's own extra members.
  const std::string text =
      R"({"nextCursor":"2","tools":[{"inputSchema":{"$defs":{"unit":{"enum":["m","s"]}},)"
      R"("additionalProperties":false,"properties":{"u":{"$ref":"#/$defs/unit"}},)"
      R"("required":["u"],"title":"Args","type":"object"},"name":"convert"}],"x-trace":7})";
  m::ToolsListResult listed;
  rpckit::codec::decode_text(text, listed, "result");
  const auto& schema = listed.tools.at(0).inputSchema;
  EXPECT_EQ(schema.additional_properties.at("additionalProperties").get(), json(false));
  EXPECT_EQ(schema.additional_properties.at("title").get(), json("Args"));
  EXPECT_EQ(listed.additional_properties.at("x-trace").get(), json(7));
  EXPECT_EQ(rpckit::codec::to_json_text(listed), text);

  m::ServerCapabilities caps;
  rpckit::codec::decode_text(R"({"tools":{},"vendor.example/search":{"fuzzy":true}})", caps,
                             "capabilities");
  EXPECT_EQ(json(caps), json::parse(R"({"tools":{},"vendor.example/search":{"fuzzy":true}})"));
}

TEST(ToolSet, ASchemaTheAuthorGaveIsKept) {
  ToolSet set;
  m::Tool tool = named("count_words");
  tool.inputSchema =
      json::parse(R"({"type": "object", "properties": {"text": {"type": "string"}}})")
          .get<m::ToolInputSchema>();
  set.add<tools::WordCountArgs>(tool, count_words);
  EXPECT_FALSE(json(set.list({}).tools[0].inputSchema).contains("required"));
}

TEST(ToolSet, ATypedCallDecodesItsArgumentsAndAnswersStructured) {
  ToolSet set;
  set.add<tools::WordCountArgs>("count_words", "", count_words);
  m::ToolsCallResult r =
      set.call(call_of("count_words", {{"text", "a quick brown fox"}, {"min_length", 2}}));
  EXPECT_FALSE(r.isError_or_default());
  ASSERT_TRUE(r.structuredContent);
  EXPECT_EQ(json(*r.structuredContent), json::parse(R"({"words": 3, "longest": "quick"})"));
  // The same as text, for clients that read only content.
  EXPECT_EQ(json::parse(json(r.content[0])["text"].get<std::string>()), json(*r.structuredContent));
}

TEST(ToolSet, ArgumentsOutsideTheSchemaAreAToolErrorThatSaysWhere) {
  ToolSet set;
  set.add<tools::WordCountArgs>("count_words", "", count_words);
  for (const json& bad :
       {json{{"text", 5}}, json::object(), json{{"text", "x"}, {"min_length", 0}}}) {
    m::ToolsCallResult r = set.call(call_of("count_words", bad));
    EXPECT_TRUE(r.isError_or_default()) << bad;
    const std::string text = json(r.content.at(0))["text"];
    EXPECT_THAT(text, HasSubstr("invalid arguments: arguments")) << bad;
  }
  m::ToolsCallResult r = set.call(call_of("count_words", {{"text", 5}}));
  EXPECT_THAT(json(r.content.at(0))["text"].get<std::string>(), HasSubstr("arguments.text"));
}

TEST(ToolSet, AnUnknownToolIsInvalidParams) {
  ToolSet set;
  try {
    set.call(call_of("nope", json::object()));
    ADD_FAILURE() << "no RpcError";
  } catch (const rpckit::RpcError& e) {
    EXPECT_EQ(e.code(), rpckit::jsonrpc_code::kInvalidParams);
    EXPECT_EQ(e.message(), "Unknown tool: nope");
  }
}

// tasks spec: a receiver that did not declare tasks for a request type "MUST process requests
// of that type normally, ignoring any task-augmentation metadata", and a tool's taskSupport
// binds only a server that declared tasks.requests.tools.call. Until ToolSet is told so
// (declare_tasks), call() serves a task call as a plain call, whatever the tool says.
TEST(ToolSet, ATaskCallIsServedAsAPlainCallWhateverTheToolsTaskSupport) {
  ToolSet set;
  int runs = 0;
  for (const char* support : {"", "forbidden", "optional", "required"}) {
    m::Tool tool = named(std::string("t-") + support);
    if (*support != '\0') tool.execution = json{{"taskSupport", support}}.get<m::ToolExecution>();
    set.add(tool, [&runs](const m::ToolsCallParams&) {
      ++runs;
      return m::ToolsCallResult{};
    });
    for (bool as_task : {false, true}) {
      m::ToolsCallParams p = call_of(tool.name, json::object());
      if (as_task) p.task = m::TaskMetadata{.ttl = 60000};
      EXPECT_FALSE(set.call(p).isError_or_default()) << tool.name << (as_task ? " as a task" : "");
    }
  }
  EXPECT_EQ(runs, 8);
}

TEST(ToolSet, AToolsExceptionIsAToolErrorAndItsRpcErrorTheCallsError) {
  ToolSet set;
  set.add(named("fails"), [](const m::ToolsCallParams&) -> m::ToolsCallResult {
    throw std::runtime_error("disk full");
  });
  set.add(named("refuses"), [](const m::ToolsCallParams&) -> m::ToolsCallResult {
    throw rpckit::RpcError(-32001, "not now");
  });
  m::ToolsCallResult r = set.call(call_of("fails", json::object()));
  EXPECT_TRUE(r.isError_or_default());
  EXPECT_EQ(json(r.content.at(0))["text"], "fails failed: disk full");
  EXPECT_THROW(set.call(call_of("refuses", json::object())), rpckit::RpcError);
}

TEST(ToolSet, EveryAddReplaceAndRemoveIsReported) {
  ToolSet set;
  int changes = 0;
  set.on_change([&changes] { ++changes; });
  EXPECT_TRUE(set.add(named("a"), echo));
  EXPECT_TRUE(set.add(named("b"), echo));
  m::Tool a = named("a");
  a.description = "replaced";
  EXPECT_FALSE(set.add(a, echo));  // a replacement keeps its place
  EXPECT_EQ(names(set.list({})), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(set.list({}).tools[0].description, "replaced");
  EXPECT_TRUE(set.remove("a"));
  EXPECT_FALSE(set.remove("a"));
  EXPECT_FALSE(set.contains("a"));
  EXPECT_EQ(set.size(), 1u);
  EXPECT_EQ(changes, 4);  // two adds, a replacement, a removal
}

TEST(ToolSet, PagesFollowTheirCursorsAcrossChanges) {
  ToolSet set;
  for (const char* name : {"t1", "t2", "t3", "t4", "t5"}) set.add(named(name), echo);
  set.set_page_size(2);
  m::ToolsListResult first = set.list({});
  EXPECT_EQ(names(first), (std::vector<std::string>{"t1", "t2"}));
  ASSERT_TRUE(first.nextCursor);
  set.remove("t2");  // the page already sent
  set.remove("t3");  // the next page's first
  m::ToolsListParams next;
  next.cursor = first.nextCursor;
  m::ToolsListResult second = set.list(next);
  EXPECT_EQ(names(second), (std::vector<std::string>{"t4", "t5"}));
  EXPECT_FALSE(second.nextCursor);  // the last page
  for (const char* bad : {"", "x", "0", "99", "-1", "1 "}) {
    m::ToolsListParams p;
    p.cursor = bad;
    EXPECT_THROW(set.list(p), rpckit::RpcError) << bad;
  }
}

TEST(ToolSet, AToolMayChangeTheSetWhileItRuns) {
  ToolSet set;
  set.add(named("grow"), [&set](const m::ToolsCallParams&) {
    set.add(named("grown"), echo);  // no lock is held while a tool runs
    return rpckit::mcp::text_result("grew");
  });
  set.call(call_of("grow", json::object()));
  EXPECT_TRUE(set.contains("grown"));
  EXPECT_EQ(json(set.call(call_of("grown", {{"text", "hi"}})).content.at(0))["text"], "hi");
}

}  // namespace
