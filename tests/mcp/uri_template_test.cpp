// rpckit::mcp::UriTemplate (RFC 6570 read backwards) and ResourceTemplateSet: what each
// expression matches and how its value is decoded, what the constructor refuses and where, and
// that matching takes linear time on URIs a backtracking matcher would never finish.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "rpckit/endpoint/rpc_error.hpp"
#include "rpckit/mcp/resource_template_set.hpp"

namespace {

namespace m = ::mcp::v2025_11_25;
using rpckit::mcp::ResourceTemplateSet;
using rpckit::mcp::UriTemplate;
using Values = UriTemplate::Values;

std::optional<Values> match(std::string_view text, std::string_view uri) {
  return UriTemplate(text).match(uri);
}

TEST(UriTemplate, ASimpleVariableIsOneSegmentPercentDecoded) {
  EXPECT_EQ(match("sample://echo/{text}", "sample://echo/h%C3%A9llo%20there"),
            (Values{{"text", "h\xC3\xA9llo there"}}));
  EXPECT_EQ(match("sample://echo/{text}", "sample://echo/it's(fine)*!"),
            (Values{{"text", "it's(fine)*!"}}));  // as encodeURIComponent leaves them
  EXPECT_FALSE(match("sample://echo/{text}", "sample://echo/"));      // one character or more
  EXPECT_FALSE(match("sample://echo/{text}", "sample://echo/a/b"));   // '/' is reserved
  EXPECT_FALSE(match("sample://echo/{text}", "sample://echo/100%"));  // '%' without XX
  EXPECT_FALSE(match("sample://echo/{text}", "sample://echo/%zz"));
  EXPECT_FALSE(match("sample://echo/{text}", "sample://other/x"));
  EXPECT_FALSE(match("sample://echo/{text}", "sample://echo/x?y=1"));
}

TEST(UriTemplate, SeveralVariablesSplitWithTheEarlierTakingTheMost) {
  EXPECT_EQ(match("db://{table}/{id}", "db://users/42"),
            (Values{{"id", "42"}, {"table", "users"}}));
  EXPECT_EQ(match("x://{a,b}", "x://1,2"), (Values{{"a", "1"}, {"b", "2"}}));
  EXPECT_EQ(match("x://{a}{b}", "x://abcd"), (Values{{"a", "abc"}, {"b", "d"}}));
  EXPECT_EQ(match("x://{name}.{ext}", "x://a.tar.gz"), (Values{{"ext", "gz"}, {"name", "a.tar"}}));
}

TEST(UriTemplate, ReservedAndFragmentValuesHoldReservedCharacters) {
  EXPECT_EQ(match("file:///{+path}", "file:///home/ada/notes%20today.txt"),
            (Values{{"path", "home/ada/notes today.txt"}}));
  EXPECT_EQ(match("doc://x{#section}", "doc://x#a/b"), (Values{{"section", "a/b"}}));
  EXPECT_EQ(match("doc://x{#section}", "doc://x"), Values{});  // left out: absent
}

TEST(UriTemplate, LabelAndPathSegmentsMayEachBeLeftOut) {
  EXPECT_EQ(match("x://h{/a,b}", "x://h/1/2"), (Values{{"a", "1"}, {"b", "2"}}));
  EXPECT_EQ(match("x://h{/a,b}", "x://h/1"), (Values{{"a", "1"}}));
  EXPECT_EQ(match("x://h{/a,b}", "x://h"), Values{});
  EXPECT_EQ(match("x://h{.fmt}", "x://h.json"), (Values{{"fmt", "json"}}));
  EXPECT_FALSE(match("x://h{/a}", "x://h/1/2"));
}

TEST(UriTemplate, TheQueryIsNamesInAnyOrderEachAtMostOnce) {
  const UriTemplate t("search://items{?q,page}{&limit}");
  EXPECT_EQ(t.variables(), (std::vector<std::string>{"q", "page", "limit"}));
  EXPECT_EQ(t.match("search://items?q=red%20fox&page=2"),
            (Values{{"page", "2"}, {"q", "red fox"}}));
  EXPECT_EQ(t.match("search://items?limit=5&q=x"), (Values{{"limit", "5"}, {"q", "x"}}));
  EXPECT_EQ(t.match("search://items"), Values{});
  EXPECT_EQ(t.match("search://items?q="), (Values{{"q", ""}}));
  EXPECT_FALSE(t.match("search://items?other=1"));  // not the template's
  EXPECT_FALSE(t.match("search://items?q=1&q=2"));
  EXPECT_FALSE(t.match("search://items?q=1&&page=2"));
  EXPECT_FALSE(t.match("search://items?q=a/b"));  // '/' is reserved: %2F in a value
  EXPECT_EQ(match("x://{+path}{?v}", "x://a/b?v=1"), (Values{{"path", "a/b"}, {"v", "1"}}));
}

TEST(UriTemplate, WhatItDoesNotTakeIsRefusedWithWhereAndWhy) {
  const auto refusal = [](std::string_view text) -> std::string {
    try {
      UriTemplate t(text);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "taken";
  };
  EXPECT_EQ(refusal("x://{list*}"),
            "URI template \"x://{list*}\": at offset 4: explode (*) and prefix (:n) modifiers "
            "are not matched");
  EXPECT_NE(refusal("x://{name:3}").find("modifiers"), std::string::npos);
  EXPECT_NE(refusal("x://{;id}").find("path-style"), std::string::npos);
  EXPECT_NE(refusal("x://{=id}").find("reserved by RFC 6570"), std::string::npos);
  EXPECT_NE(refusal("x://{id").find("offset 4: '{' is never closed"), std::string::npos);
  EXPECT_NE(refusal("x://id}").find("offset 6: '}' closes no expression"), std::string::npos);
  EXPECT_NE(refusal("x://{a}/{a}").find("named twice"), std::string::npos);
  EXPECT_NE(refusal("x://{}").find("is not a variable name"), std::string::npos);
  EXPECT_NE(refusal("x://{a..b}").find("is not a variable name"), std::string::npos);
  EXPECT_NE(refusal("x://{a-b}").find("is not a variable name"), std::string::npos);
  EXPECT_NE(refusal("x://a b").find("offset 5: a character"), std::string::npos);
  EXPECT_NE(refusal("x://a%2").find("two hexadecimal digits"), std::string::npos);
  EXPECT_NE(refusal("x://{&a}").find("continues a {?...}"), std::string::npos);
  EXPECT_NE(refusal("x://a?b=1{?c}").find("literal '?'"), std::string::npos);
  EXPECT_NE(refusal("x://{?a}/b").find("may follow a {?...}"), std::string::npos);
  EXPECT_NE(refusal("x://{?a}{b}").find("may follow a {?...}"), std::string::npos);
  EXPECT_EQ(refusal("x://{a.b_1%41}/%7E"), "taken");
}

// A backtracking matcher tries every split of the URI between the variables: cubic or worse on
// these (at 256 KiB, 10^15 splits and more). Each must finish within ctest's timeout, as an NFA
// simulation does (linear).
TEST(UriTemplate, MatchingIsLinearInTheUri) {
  const std::string run(256 << 10, 'a');
  EXPECT_FALSE(match("x://{a}{b}{c}.{d}", "x://" + run));  // no '.': every split fails
  const auto values = match("x://{a}{b}{c}", "x://" + run);
  ASSERT_TRUE(values);
  EXPECT_EQ(values->at("a").size(), run.size() - 2);
  std::string pct;
  for (int i = 0; i < (1 << 16); ++i) pct += "%41";
  EXPECT_FALSE(match("x://{+a}{+b}/", "x://" + pct + "x"));
}

m::ResourceTemplate resource_template(std::string uri_template, std::string name) {
  m::ResourceTemplate t;
  t.uriTemplate = std::move(uri_template);
  t.name = std::move(name);
  return t;
}

ResourceTemplateSet::Read text_of(std::string variable) {
  return [variable](const m::ResourcesReadParams& p, const Values& v) {
    m::ResourcesReadResult r;
    m::ResourceContents c;
    c.uri = p.uri;
    c.text = v.at(variable);
    r.contents = {c};
    return r;
  };
}

TEST(ResourceTemplateSet, AReadIsServedByTheFirstTemplateThatMatches) {
  ResourceTemplateSet templates;
  templates.add(resource_template("notes://{id}", "note"), text_of("id"));
  templates.add(resource_template("notes://{+path}", "any"), text_of("path"));
  m::ResourcesReadParams read;
  read.uri = "notes://n%201";
  EXPECT_EQ(templates.read(read).contents.at(0).text, "n 1");
  read.uri = "notes://a/b";
  EXPECT_EQ(templates.read(read).contents.at(0).text, "a/b");
  EXPECT_TRUE(templates.matches("notes://a/b"));
  read.uri = "other://x";
  EXPECT_FALSE(templates.matches(read.uri));
  EXPECT_FALSE(templates.try_read(read));
  try {
    templates.read(read);
    ADD_FAILURE() << "read an unknown URI";
  } catch (const rpckit::RpcError& e) {
    EXPECT_EQ(e.code(), -32002);
    ASSERT_TRUE(e.data());
    EXPECT_EQ(e.data()->get(), (nlohmann::json{{"uri", "other://x"}}));
  }
}

TEST(ResourceTemplateSet, TemplatesComeAndGoAndAreListedInPages) {
  ResourceTemplateSet templates;
  int changes = 0;
  templates.on_change([&] { ++changes; });
  templates.set_page_size(1);
  EXPECT_TRUE(templates.add(resource_template("a://{x}", "a"), text_of("x")));
  EXPECT_TRUE(templates.add(resource_template("b://{x}", "b"), text_of("x")));
  EXPECT_FALSE(templates.add(resource_template("a://{x}", "a2"), text_of("x")));  // replaced
  EXPECT_THROW(templates.add(resource_template("c://{x*}", "c"), text_of("x")),
               std::invalid_argument);
  EXPECT_EQ(changes, 3);
  EXPECT_EQ(templates.size(), 2U);
  m::ResourcesTemplatesListParams list;
  const auto first = templates.list(list);
  ASSERT_EQ(first.resourceTemplates.size(), 1U);
  EXPECT_EQ(first.resourceTemplates[0].name, "a2");
  ASSERT_TRUE(first.nextCursor);
  list.cursor = first.nextCursor;
  const auto second = templates.list(list);
  EXPECT_EQ(second.resourceTemplates.at(0).name, "b");
  EXPECT_FALSE(second.nextCursor);
  EXPECT_TRUE(templates.remove("a://{x}"));
  EXPECT_FALSE(templates.matches("a://1"));
  EXPECT_TRUE(templates.matches("b://1"));
}

}  // namespace
