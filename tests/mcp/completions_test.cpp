// completion/complete (server/utilities/completion) from PromptSet and ResourceTemplateSet: a
// function per argument or variable, what was typed and the arguments already resolved passed
// to it, at most 100 values with total and hasMore, -32602 for an unknown prompt or template,
// and nothing from a set for the other kind of reference.
#include "rpckit/mcp/completions.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "rpckit/endpoint/rpc_error.hpp"
#include "rpckit/mcp/prompt_set.hpp"
#include "rpckit/mcp/resource_template_set.hpp"

namespace {

namespace m = ::mcp::v2025_11_25;
using rpckit::mcp::PromptSet;
using rpckit::mcp::ResourceTemplateSet;
using rpckit::mcp::starts_with;
using Suggestions = std::vector<std::string>;

m::CompletionCompleteParams about_prompt(std::string name, std::string argument,
                                         std::string typed) {
  m::CompletionCompleteParams p;
  p.ref.value = m::PromptReference{.name = std::move(name)};
  p.argument = {.name = std::move(argument), .value = std::move(typed)};
  return p;
}

m::CompletionCompleteParams about_template(std::string uri, std::string variable,
                                           std::string typed) {
  m::CompletionCompleteParams p;
  p.ref.value = m::ResourceTemplateReference{.uri = std::move(uri)};
  p.argument = {.name = std::move(variable), .value = std::move(typed)};
  return p;
}

void add_greet(PromptSet& prompts) {
  m::Prompt greet;
  greet.name = "greet";
  prompts.add(
      greet, [](const m::PromptsGetParams&) { return m::PromptsGetResult{}; },
      {{"name", starts_with({"Ada", "Alan", "Grace"})},
       // A tone that depends on the name already chosen.
       {"tone", [](std::string_view typed, const std::map<std::string, std::string>& resolved) {
          const auto name = resolved.find("name");
          return Suggestions{std::string(typed) + "-for-" +
                             (name == resolved.end() ? std::string("anyone") : name->second)};
        }}});
}

TEST(Completions, APromptsArgumentIsCompletedByItsFunction) {
  PromptSet prompts;
  add_greet(prompts);
  auto r = prompts.complete(about_prompt("greet", "name", "A"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->completion.values, (Suggestions{"Ada", "Alan"}));
  EXPECT_FALSE(r->completion.total);
  EXPECT_FALSE(r->completion.hasMore);

  m::CompletionCompleteParams with_context = about_prompt("greet", "tone", "warm");
  with_context.context =
      m::CompletionContext{.arguments = std::map<std::string, std::string>{{"name", "Grace"}}};
  EXPECT_EQ(prompts.complete(with_context)->completion.values, (Suggestions{"warm-for-Grace"}));
  EXPECT_EQ(prompts.complete(about_prompt("greet", "tone", "warm"))->completion.values,
            (Suggestions{"warm-for-anyone"}));
  // An argument without a function: no values, not an error.
  EXPECT_TRUE(prompts.complete(about_prompt("greet", "other", "x"))->completion.values.empty());
}

TEST(Completions, AnUnknownPromptIsInvalidParamsAndATemplateRefIsNotThePromptSets) {
  PromptSet prompts;
  add_greet(prompts);
  try {
    (void)prompts.complete(about_prompt("nope", "name", ""));
    ADD_FAILURE() << "no RpcError";
  } catch (const rpckit::RpcError& e) {
    EXPECT_EQ(e.code(), rpckit::jsonrpc_code::kInvalidParams);
    EXPECT_EQ(std::string(e.what()), "Unknown prompt: nope");
  }
  EXPECT_FALSE(prompts.complete(about_template("sample://echo/{text}", "text", "")));
}

TEST(Completions, ATemplatesVariableIsCompletedAndAnswersKeepToOneHundredValues) {
  ResourceTemplateSet templates;
  m::ResourceTemplate numbers;
  numbers.uriTemplate = "sample://n/{n}";
  numbers.name = "numbers";
  Suggestions many;
  for (int i = 0; i < 250; ++i) many.push_back(std::to_string(i));
  templates.add(numbers,
                [](const m::ResourcesReadParams&, const rpckit::mcp::UriTemplate::Values&) {
                  return m::ResourcesReadResult{};
                },
                {{"n", starts_with(many)}});
  auto all = templates.complete(about_template("sample://n/{n}", "n", ""));
  ASSERT_TRUE(all);
  EXPECT_EQ(all->completion.values.size(), rpckit::mcp::kMaxCompletionValues);
  EXPECT_EQ(all->completion.values.front(), "0");
  EXPECT_EQ(all->completion.total, 250);
  EXPECT_EQ(all->completion.hasMore, true);
  auto ones = templates.complete(about_template("sample://n/{n}", "n", "24"));
  EXPECT_EQ(ones->completion.values, (Suggestions{"24", "240", "241", "242", "243", "244", "245",
                                                  "246", "247", "248", "249"}));
  EXPECT_FALSE(ones->completion.hasMore);

  EXPECT_FALSE(templates.complete(about_prompt("greet", "name", "")));
  try {
    (void)templates.complete(about_template("sample://other/{x}", "x", ""));
    ADD_FAILURE() << "no RpcError";
  } catch (const rpckit::RpcError& e) {
    EXPECT_EQ(e.code(), rpckit::jsonrpc_code::kInvalidParams);
  }
}

}  // namespace
