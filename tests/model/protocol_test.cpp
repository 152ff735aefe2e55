// rpckit::model::Protocol: the annotations of each protocol in schema/, read once, with where
// they are written; and a draft whose annotations are malformed still links.
#include "rpckit/model/protocol.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

namespace rpckit::model {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

fs::path schema_dir() { return fs::path(RPCKIT_TEST_SOURCE_DIR) / "schema"; }

TEST(Protocol, StreamNookMessagesAreTheListInItsOrderWithTheirKindAndDirection) {
  const SchemaSet set = SchemaSet::load(schema_dir() / "protocol.json");
  const Protocol p = Protocol::link(set);
  EXPECT_THAT(p.roles(), ElementsAre("host", "plugin"));
  ASSERT_TRUE(p.message_list());
  ASSERT_EQ(p.messages().size(), p.message_list()->json->size());
  EXPECT_EQ(p.messages().front().method, "initialize");
  EXPECT_TRUE(p.messages().front().request());
  EXPECT_THAT(p.messages().front().routes(),
              ElementsAre(std::make_pair(std::string("host"), std::string("plugin"))));
  EXPECT_EQ(p.messages().front().file.loc().str(), "messages/initialize.json#");
  std::set<std::string> methods;
  for (const Message& m : p.messages()) {
    EXPECT_FALSE(m.method.empty()) << m.file.loc().str();
    EXPECT_TRUE(methods.insert(m.method).second) << m.method << " twice";
    EXPECT_EQ(m.request(), m.result.has_value()) << m.method << ": a request has a result";
    if (m.params) {
      EXPECT_EQ(m.params->pointer, "/properties/params");
    }
  }
  ASSERT_TRUE(p.profile());
  EXPECT_EQ(p.profile()->loc().str(), "protocol.json#/x-profile");
  const Json* cap = p.named_constant(*p.profile(), "max_frame_bytes");
  ASSERT_NE(cap, nullptr);
  EXPECT_TRUE(cap->is_number_unsigned());
  EXPECT_EQ(Protocol::text(*p.profile(), "spawned"), "plugin");
  ASSERT_TRUE(p.jsonrpc("ErrorObject"));
  EXPECT_EQ(p.jsonrpc("ErrorObject")->loc().str(), "jsonrpc.json#/definitions/ErrorObject");
  EXPECT_FALSE(p.jsonrpc("Nope"));
  EXPECT_FALSE(p.exchange());
}

TEST(Protocol, EveryProtocolInSchemaLinksWithEachListedFile) {
  for (const char* name : {"loaf", "codex_metadata", "desktop", "core_line"}) {
    SCOPED_TRACE(name);
    const SchemaSet set = SchemaSet::load(schema_dir() / name / "protocol.json");
    const Protocol p = Protocol::link(set);
    EXPECT_EQ(p.roles().size(), 2u);
    const Json& root = *set.root().json;
    EXPECT_EQ(p.messages().size(), root.value("x-messages", Json::array()).size());
    EXPECT_EQ(p.type_files().size(), root.value("x-types", Json::array()).size());
    for (const Message& m : p.messages()) EXPECT_FALSE(m.method.empty()) << m.file.loc().str();
  }
}

TEST(Protocol, AnExchangeProtocolHasItsStepsEachWithTheTypeTitledSo) {
  const SchemaSet set = SchemaSet::load(schema_dir() / "core_line" / "protocol.json");
  const Protocol p = Protocol::link(set);
  ASSERT_TRUE(p.exchange());
  EXPECT_EQ(p.exchange()->node.loc().str(), "protocol.json#/x-exchange");
  EXPECT_FALSE(p.exchange()->discriminator.empty());
  ASSERT_FALSE(p.exchange()->steps.empty());
  for (const ExchangeStep& step : p.exchange()->steps) {
    ASSERT_TRUE(step.schema) << step.type;
    EXPECT_EQ(Protocol::text(*step.schema, "title"), step.type);
    EXPECT_THAT(p.roles(), ::testing::Contains(step.from));
  }
}

TEST(Protocol, MalformedAnnotationsLinkAsAbsent) {
  const fs::path dir = fs::temp_directory_path() / "rpckit-model-malformed";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "p.json") << R"({"x-roles": ["a", 7, "b"], "x-messages": ["m.json", 3],
    "x-profile": {"framing": 1, "max_frame_bytes": "no_such_constant"},
    "x-exchange": {"steps": [{"from": "a", "type": "Untitled"}]}})";
  std::ofstream(dir / "m.json") << R"({"properties": {"method": {"enum": ["m"]}},
    "x-kind": 3, "x-direction": "sideways"})";
  const SchemaSet set = SchemaSet::load(dir / "p.json", {.policy = KeywordPolicy::kDraft07});
  const Protocol p = Protocol::link(set);
  EXPECT_THAT(p.roles(), ElementsAre("a", "b"));
  ASSERT_EQ(p.messages().size(), 1u);
  EXPECT_EQ(p.messages()[0].method, "");  // no const: the reader says what it needs
  EXPECT_TRUE(p.messages()[0].request());
  EXPECT_TRUE(p.messages()[0].routes().empty());
  EXPECT_EQ(p.messages()[0].kind->loc().str(), "m.json#/x-kind");
  EXPECT_EQ(Protocol::text(*p.profile(), "framing"), "");
  EXPECT_EQ(p.named_constant(*p.profile(), "max_frame_bytes"), nullptr);
  ASSERT_EQ(p.exchange()->steps.size(), 1u);
  EXPECT_FALSE(p.exchange()->steps[0].schema);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace rpckit::model
