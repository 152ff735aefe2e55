// rpckit::mcp::PromptSet and ResourceSet: prompts and resources added and removed at run time,
// listed in pages, served by name or URI, with MCP's errors for what is not there (-32602 for a
// prompt or a missing required argument, -32002 with the URI for a resource).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rpckit/codec/decode_error.hpp"
#include "rpckit/codec/json_reader.hpp"
#include "rpckit/codec/text_decoder.hpp"
#include "rpckit/endpoint/rpc_error.hpp"
#include "rpckit/mcp/prompt_set.hpp"
#include "rpckit/mcp/resource_set.hpp"
#include "rpckit/mcp/tool_results.hpp"

namespace {

namespace m = ::mcp::v2025_11_25;
using nlohmann::json;
using rpckit::mcp::PromptSet;
using rpckit::mcp::ResourceSet;

// The RpcError `fn` throws, or a failure.
template <class Fn>
rpckit::RpcError error_of(Fn fn) {
  try {
    fn();
  } catch (const rpckit::RpcError& e) {
    return e;
  }
  ADD_FAILURE() << "no RpcError";
  return rpckit::RpcError(0, "");
}

m::Prompt greet_prompt() {
  m::Prompt p;
  p.name = "greet";
  p.arguments =
      std::vector<m::PromptArgument>{{.name = "name", .required = true}, {.name = "tone"}};
  return p;
}

m::PromptsGetResult greeting(const m::PromptsGetParams& p) {
  m::PromptsGetResult r;
  m::PromptMessage message;
  message.role = m::ConversationRole::kUser;
  message.content = rpckit::mcp::text_block("Greet " + p.arguments->at("name"));
  r.messages = {message};
  return r;
}

TEST(PromptSet, AGetRunsThePromptOnceItsRequiredArgumentsAreThere) {
  PromptSet prompts;
  prompts.add(greet_prompt(), greeting);
  m::PromptsGetParams get;
  get.name = "greet";
  get.arguments = std::map<std::string, std::string>{{"name", "Ada"}};
  EXPECT_EQ(json(prompts.get(get).messages.at(0).content)["text"], "Greet Ada");
  get.arguments = std::map<std::string, std::string>{{"tone", "warm"}};  // no name
  rpckit::RpcError missing = error_of([&] { prompts.get(get); });
  EXPECT_EQ(missing.code(), rpckit::jsonrpc_code::kInvalidParams);
  EXPECT_EQ(missing.message(), "Missing required argument of greet: name");
  get.arguments.reset();
  EXPECT_EQ(error_of([&] { prompts.get(get); }).code(), rpckit::jsonrpc_code::kInvalidParams);
  get.name = "nope";
  EXPECT_EQ(error_of([&] { prompts.get(get); }).message(), "Unknown prompt: nope");
}

TEST(PromptSet, ChangesAreReportedAndListedInPages) {
  PromptSet prompts;
  int changes = 0;
  prompts.on_change([&changes] { ++changes; });
  for (const char* name : {"a", "b", "c"}) {
    m::Prompt p;
    p.name = name;
    EXPECT_TRUE(prompts.add(p, greeting));
  }
  EXPECT_TRUE(prompts.remove("b"));
  EXPECT_EQ(changes, 4);
  prompts.set_page_size(1);
  m::PromptsListResult first = prompts.list({});
  ASSERT_EQ(first.prompts.size(), 1u);
  EXPECT_EQ(first.prompts[0].name, "a");
  m::PromptsListParams next;
  next.cursor = first.nextCursor;
  m::PromptsListResult second = prompts.list(next);
  ASSERT_EQ(second.prompts.size(), 1u);
  EXPECT_EQ(second.prompts[0].name, "c");
  EXPECT_FALSE(second.nextCursor);
}

m::ResourcesReadResult text_of(const m::ResourcesReadParams& p) {
  m::ResourcesReadResult r;
  m::ResourceContents c;
  c.uri = p.uri;
  c.text = "contents of " + p.uri;
  r.contents = {c};
  return r;
}

m::Resource resource(const std::string& uri) {
  m::Resource r;
  r.uri = uri;
  r.name = uri.substr(uri.rfind('/') + 1);
  return r;
}

TEST(ResourceSet, AReadIsServedByItsUriAndAnUnknownOneIsNotFoundWithTheUri) {
  ResourceSet resources;
  resources.add(resource("file:///notes/a.txt"), text_of);
  m::ResourcesReadParams read;
  read.uri = "file:///notes/a.txt";
  EXPECT_EQ(resources.read(read).contents.at(0).text, "contents of file:///notes/a.txt");
  read.uri = "file:///notes/b.txt";
  EXPECT_FALSE(resources.try_read(read));
  rpckit::RpcError missing = error_of([&] { resources.read(read); });
  EXPECT_EQ(missing.code(), -32002);
  EXPECT_EQ(missing.message(), "Resource not found");
  ASSERT_TRUE(missing.data());
  EXPECT_EQ(missing.data()->get(), json({{"uri", "file:///notes/b.txt"}}));
}

TEST(ResourceSet, ResourcesComeAndGoWhileTheServerRuns) {
  ResourceSet resources;
  int changes = 0;
  resources.on_change([&changes] { ++changes; });
  resources.add(resource("file:///a"), text_of);
  resources.add(resource("file:///b"), [&resources](const m::ResourcesReadParams& p) {
    resources.remove("file:///b");  // a read may change the set: no lock is held
    return text_of(p);
  });
  m::ResourcesReadParams read;
  read.uri = "file:///b";
  EXPECT_EQ(resources.read(read).contents.size(), 1u);
  EXPECT_FALSE(resources.contains("file:///b"));
  EXPECT_EQ(changes, 3);
  m::ResourcesListResult listed = resources.list({});
  ASSERT_EQ(listed.resources.size(), 1u);
  EXPECT_EQ(listed.resources[0].uri, "file:///a");
  m::ResourcesListParams bad;
  bad.cursor = "a";
  EXPECT_EQ(error_of([&] { resources.list(bad); }).code(), rpckit::jsonrpc_code::kInvalidParams);
}

// TextResourceContents | BlobResourceContents as one struct: a read's contents carry text or
// blob (or both, as the SDK's union takes), or neither decoder takes them.
TEST(ResourceContents, TextOrBlobMustBePresentForBothDecoders) {
  auto error_of_text = [](const std::string& text) -> std::string {
    m::ResourcesReadResult r;
    try {
      rpckit::codec::decode_text(text, r, "result");
    } catch (const rpckit::codec::DecodeError& e) {
      return e.what();
    }
    return "(no error)";
  };
  auto streaming_reads = [](const std::string& text) {
    m::ResourcesReadResult r;
    rpckit::codec::JsonReader in(text);
    return read_json(in, r);  // false: left to the DOM decoder for its error
  };
  for (const char* contents :
       {R"({"uri":"file:///a","text":"hi"})", R"({"uri":"file:///a","blob":"aGk="})",
        R"({"blob":"aGk=","text":"hi","uri":"file:///a"})"}) {
    const std::string text = std::string(R"({"contents":[)") + contents + "]}";
    SCOPED_TRACE(text);
    EXPECT_EQ(error_of_text(text), "(no error)");
    EXPECT_TRUE(streaming_reads(text));
  }
  const std::string neither =
      R"({"contents":[{"uri":"file:///a","text":"x"},{"uri":"file:///b","mimeType":"text/plain"}]})";
  EXPECT_EQ(error_of_text(neither),
            R"(result.contents[1]: missing required field: "text" or "blob")");
  EXPECT_FALSE(streaming_reads(neither));
  // An embedded resource in a tool result is the same type.
  m::ToolsCallResult call;
  EXPECT_THROW(
      rpckit::codec::decode_text(
          R"({"content":[{"type":"resource","resource":{"uri":"file:///a"}}]})", call, "result"),
      rpckit::codec::DecodeError);
}

}  // namespace
