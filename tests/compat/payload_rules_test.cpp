// The payload rules, each on an edited copy of schema/, in both directions: host_to_plugin
// params (the plugin receives), plugin_to_host params (the host receives), and results, which
// flow back (get_followed_live's result: the plugin receives; initialize's: the host).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include "support.hpp"

namespace rpckit::compat::test {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(PayloadRules, UnchangedSchemaHasNoDifferences) {
  SchemaCopy copy;
  Report r = compare_with(copy, {});  // with the C++ API
  EXPECT_THAT(rows(r), IsEmpty());
  EXPECT_FALSE(r.fails());
  EXPECT_EQ(r.old_version, "1");
  EXPECT_EQ(r.new_version, "1");
}

TEST(PayloadRules, NewOptionalMemberIsAdditive) {
  SchemaCopy copy;
  edit(copy, "types/channel.json",
       [](J& d) { d["properties"]["is_favorite"] = J::parse(R"({"type": "boolean"})"); });
  Report r = compare_with(copy);
  EXPECT_THAT(rows(r), ElementsAre("additive | member.optional_added | host_to_plugin | plugin | "
                                   "Channel.is_favorite | new optional member"));
  EXPECT_THAT(r.changes[0].via, ElementsAre("on_stream_start.params", "on_followed_live.params",
                                            "get_followed_live.result"));
  EXPECT_EQ(r.changes[0].new_location, "types/channel.json#/properties/is_favorite");
  EXPECT_FALSE(r.fails());
}

TEST(PayloadRules, NewRequiredMemberBreaksTheNewReceiver) {
  SchemaCopy copy;
  // notify params: the plugin sends, the host receives.
  edit(copy, "messages/notify.json", [](J& d) {
    J& p = d["definitions"]["NotifyParams"];
    p["properties"]["title"] = J::parse(R"({"type": "string"})");
    p["required"].push_back("title");
  });
  // get_followed_live's result: the host sends it back, the plugin receives.
  edit(copy, "messages/get_followed_live.json", [](J& d) {
    J& p = d["definitions"]["GetFollowedLiveResult"];
    p["properties"]["total"] = J::parse(R"({"type": "integer"})");
    p["required"].push_back("total");
  });
  Report r = compare_with(copy);
  // In x-messages order: get_followed_live comes first.
  EXPECT_THAT(rows(r),
              ElementsAre("breaking | member.required_added | host_to_plugin | new plugin <- old "
                          "host | get_followed_live.result.total | new required member",
                          "breaking | member.required_added | plugin_to_host | new host <- old "
                          "plugin | notify.params.title | new required member"));
  EXPECT_EQ(r.changes[0].why, "a new plugin requires `total`; an old host does not send it");
  EXPECT_EQ(r.changes[1].why, "a new host requires `title`; an old plugin does not send it");
  EXPECT_EQ(r.changes[1].new_location,
            "messages/notify.json#/definitions/NotifyParams/properties/title");
  EXPECT_TRUE(r.fails());
}

TEST(PayloadRules, RemovedMemberBreaksOnlyWhenTheReceiverRequiredIt) {
  SchemaCopy copy;
  edit(copy, "types/channel.json", [](J& d) {
    d["properties"].erase("login");
    erase_value(d["required"], "login");
  });
  edit(copy, "messages/notify.json",
       [](J& d) { d["definitions"]["NotifyParams"]["properties"].erase("level"); });
  Report r = compare_with(copy);
  EXPECT_THAT(
      rows(r),
      ElementsAre("breaking | member.required_removed | host_to_plugin | old plugin <- new host | "
                  "Channel.login | removed member the receiver required",
                  "breaking | member.optional_removed | plugin_to_host | host <- plugin, C++ API | "
                  "notify.params.level | removed optional member"));
  EXPECT_EQ(r.changes[0].why, "an old plugin requires `login`; a new host no longer sends it");
  EXPECT_EQ(r.changes[0].old_location, "types/channel.json#/properties/login");
  EXPECT_EQ(r.changes[0].new_location, "");
  EXPECT_EQ(r.changes[1].why,
            "the wire stays compatible (it was optional), but its generated field is gone");
}

TEST(PayloadRules, NarrowerBreaksTheNewReceiverWiderTheOldOne) {
  SchemaCopy copy;
  // host -> plugin: null no longer allowed (narrower), integer -> number (wider).
  edit(copy, "types/channel.json", [](J& d) {
    d["properties"]["game_id"]["type"] = "string";
    d["properties"]["viewer_count"]["type"] = J::parse(R"(["number", "null"])");
  });
  // plugin -> host: a tighter bound (narrower) in notify params; a result member loses its
  // pattern (wider) in initialize's result, which the plugin sends back to the host.
  edit(copy, "messages/notify.json",
       [](J& d) { d["definitions"]["NotifyParams"]["properties"]["message"]["maxLength"] = 200; });
  edit(copy, "messages/initialize.json",
       [](J& d) { d["definitions"]["InitializeResult"]["properties"]["hooks"]["maxItems"] = 8; });
  Report r = compare_with(copy);
  EXPECT_THAT(
      rows(r),
      ElementsAre(
          "breaking | constraint.tighter | plugin_to_host | new host <- old plugin | "
          "initialize.result.hooks | maxItems none -> 8",
          "breaking | null.disallowed | host_to_plugin | new plugin <- old host | Channel.game_id "
          "| null no longer allowed",
          "breaking | type.wider | host_to_plugin | old plugin <- new host | Channel.viewer_count "
          "| "
          "type integer -> number",
          "breaking | constraint.tighter | plugin_to_host | new host <- old plugin | "
          "notify.params.message | maxLength none -> 200"));
}

TEST(PayloadRules, OpeningAStructKeepsTheWireATypedRestNarrowsIt) {
  // A struct without additionalProperties ignores the members it does not declare: opening it
  // with any JSON ({}) accepts what it accepted; giving the others a type accepts less.
  SchemaCopy open_any;
  edit(open_any, "types/channel.json", [](J& d) { d["additionalProperties"] = J::object(); });
  EXPECT_THAT(rows(compare_with(open_any)), IsEmpty());
  Report api = compare_with(open_any, {});
  EXPECT_THAT(rows(api), ElementsAre());
  EXPECT_FALSE(api.fails());

  SchemaCopy open_typed;
  edit(open_typed, "types/channel.json",
       [](J& d) { d["additionalProperties"] = J::parse(R"({"type": "string"})"); });
  Report r = compare_with(open_typed);
  EXPECT_THAT(rows(r), ElementsAre("breaking | type.narrower | host_to_plugin | new plugin <- old "
                                   "host | Channel.* | type any JSON -> string"));
  EXPECT_TRUE(r.fails());
  // And back: the old receiver checked the others, the new sender may send anything.
  EXPECT_THAT(rows(compare_back(open_typed)),
              ElementsAre("breaking | type.wider | host_to_plugin | old plugin <- new host | "
                          "Channel.* | type string -> any JSON"));
  // Closing it again drops its additional_properties member: the C++ API breaks.
  EXPECT_THAT(rows(compare_back(open_any, {})),
              ElementsAre("breaking | api.changed |  | C++ API | struct Channel "
                          "additional_properties | is gone",
                          "breaking | api.changed |  | C++ API | generated headers | 1 "
                          "declaration changed or gone"));
}

TEST(PayloadRules, LooserConstraintBreaksTheOldReceiver) {
  SchemaCopy copy;
  edit(copy, "messages/initialize.json", [](J& d) {
    d["definitions"]["InitializeParams"]["properties"]["host_version"].erase("pattern");
  });
  Report r = compare_with(copy);
  ASSERT_EQ(r.changes.size(), 1u);
  EXPECT_EQ(r.changes[0].verdict, Verdict::kBreaking);
  EXPECT_EQ(r.changes[0].rule, "constraint.looser");
  EXPECT_EQ(r.changes[0].direction, "host_to_plugin");
  EXPECT_EQ(r.changes[0].affected, "old plugin <- new host");
  EXPECT_EQ(r.changes[0].where, "initialize.params.host_version");
  EXPECT_EQ(r.changes[0].why, "an old plugin rejects values a new host may send");
}

TEST(PayloadRules, NewValueOfAnOpenEnumIsAdditiveOfAClosedOneBreaking) {
  SchemaCopy copy;
  // notify's level: an inline enum the host receives.
  edit(copy, "messages/notify.json", [](J& d) {
    d["definitions"]["NotifyParams"]["properties"]["level"]["enum"].push_back("debug");
  });
  Report open = compare_with(copy);
  EXPECT_THAT(rows(open), ElementsAre("additive | enum.value_added | plugin_to_host | host | "
                                      "notify.params.level | new value \"debug\" (open enum)"));
  EXPECT_EQ(open.changes[0].why, "an old host decodes it as unknown and passes it on unchanged");

  CompareOptions closed = schema_only();
  closed.closed_enums = {"NotifyLevel"};
  Report r = compare_with(copy, closed);
  EXPECT_THAT(rows(r), ElementsAre("breaking | enum.value_added_closed | plugin_to_host | old host "
                                   "<- new plugin | notify.params.level | new value \"debug\" "
                                   "(closed enum)"));
  EXPECT_EQ(r.changes[0].why, "an old host rejects a value it does not list");
}

TEST(PayloadRules, RemovedEnumValueBreaksBothKinds) {
  SchemaCopy copy;
  edit(copy, "messages/notify.json", [](J& d) {
    J& level = d["definitions"]["NotifyParams"]["properties"]["level"];
    erase_value(level["enum"], "error");
  });
  Report open = compare_with(copy);
  EXPECT_THAT(rows(open), ElementsAre("breaking | enum.value_removed | plugin_to_host | host <- "
                                      "plugin, C++ API | notify.params.level | value \"error\" "
                                      "removed (open enum)"));
  CompareOptions closed = schema_only();
  closed.closed_enums = {"NotifyLevel"};
  EXPECT_THAT(rows(compare_with(copy, closed)),
              ElementsAre("breaking | enum.value_removed | plugin_to_host | new host <- old plugin "
                          "| notify.params.level | value \"error\" removed (closed enum)"));
}

TEST(PayloadRules, UnionMembersAddedAreAdditiveRemovedBreaking) {
  SchemaCopy copy;
  edit(copy, "types/panel_field.json", [](J& d) {
    erase_value(d["oneOf"], J::parse(R"({"$ref": "#/definitions/FolderField"})"));
    d["oneOf"].push_back(J::parse(R"({"$ref": "#/definitions/ColorField"})"));
    d["definitions"]["ColorField"] = J::parse(R"({"title": "ColorField", "type": "object",
        "required": ["key", "type", "label"], "properties": {"key": {"type": "string"},
        "type": {"const": "color"}, "label": {"type": "string"}}})");
  });
  Report r = compare_with(copy);
  EXPECT_THAT(rows(r),
              ElementsAre("breaking | union.member_removed | plugin_to_host | host <- plugin, C++ "
                          "API | PanelField<type=\"folder\"> | union member removed",
                          "additive | union.member_added | plugin_to_host | host | "
                          "PanelField<type=\"color\"> | new union member"));
}

// An anyOf of required lists beside the members (MCP's ResourceContents: "text" or "blob") is
// a rule on the object, not a union: added, the new receiver rejects objects without it.
TEST(PayloadRules, AnAnyOfOfRequiredListsIsARuleOnTheObjectNotAUnion) {
  SchemaCopy copy;
  edit(copy, "messages/notify.json", [](J& d) {
    d["definitions"]["NotifyParams"]["anyOf"] =
        J::parse(R"([{"required": ["level"]}, {"required": ["message", "level"]}])");
  });
  const std::string rule = R"("level" or ("message" and "level"))";
  EXPECT_THAT(rows(compare_with(copy)),
              ElementsAre("breaking | object.alternatives_narrower | plugin_to_host | new host <- "
                          "old plugin | notify.params | members required as an alternative: "
                          "none -> " +
                          rule));
  EXPECT_THAT(rows(compare_back(copy)),
              ElementsAre("breaking | object.alternatives_wider | plugin_to_host | old host <- "
                          "new plugin | notify.params | members required as an alternative: " +
                          rule + " -> none"));
}

TEST(PayloadRules, AMapThatBecameAStructIsComparedMemberByMember) {
  // PanelValues as a map of any JSON, then as a struct: each member is a value the map held
  // under its name, so only the struct's members narrow; unknown ones are ignored as before.
  SchemaCopy map;
  edit(map, "types/panel_values.json", [](J& d) { d["additionalProperties"] = J::object(); });
  SchemaCopy object;
  edit(object, "types/panel_values.json", [](J& d) {
    d.erase("additionalProperties");
    d["properties"] = J::parse(R"({"volume": {"type": "number"}, "theme": {"type": "string"}})");
    d["required"] = J::array({"theme"});
  });
  auto load = [](const SchemaCopy& c) { return gen::SchemaSet::load(c.path("protocol.json")); };
  Report r = compare(load(map), load(object), schema_only());
  EXPECT_THAT(rows(r),
              ElementsAre("breaking | type.narrower | host_to_plugin | new plugin <- old host | "
                          "PanelValues.volume | type any JSON -> number",
                          "breaking | member.now_required | host_to_plugin | new plugin <- old "
                          "host | PanelValues.theme | map key now a required member",
                          "breaking | type.narrower | host_to_plugin | new plugin <- old host | "
                          "PanelValues.theme | type any JSON -> string"));
  // And back: the old receiver required theme and typed both.
  EXPECT_THAT(rows(compare(load(object), load(map), schema_only())),
              ElementsAre("breaking | type.wider | host_to_plugin | old plugin <- new host | "
                          "PanelValues.volume | type number -> any JSON",
                          "breaking | member.now_optional | host_to_plugin | old plugin <- new "
                          "host | PanelValues.theme | required member now a map key",
                          "breaking | type.wider | host_to_plugin | old plugin <- new host | "
                          "PanelValues.theme | type string -> any JSON"));
  // A struct of optional members that take any JSON is the map it was: nothing changes.
  SchemaCopy loose;
  edit(loose, "types/panel_values.json", [](J& d) {
    d.erase("additionalProperties");
    d["properties"] = J::parse(R"({"volume": {}})");
  });
  EXPECT_THAT(rows(compare(load(map), load(loose), schema_only())), ElementsAre());
}

TEST(PayloadRules, ATaggedUnionThatBecameOneTakingAnyObjectIsWider) {
  // PanelField, tagged by type, becomes "any object, or an array of them": everything an old
  // plugin sent is still accepted, and a new plugin may send what an old host rejects.
  SchemaCopy copy;
  edit(copy, "types/panel_field.json", [](J& d) {
    d.erase("x-discriminator");
    d.erase("oneOf");
    d["anyOf"] = J::parse(R"([{"type": "object", "additionalProperties": {}},
        {"type": "array", "items": {"type": "object", "additionalProperties": {}}}])");
  });
  EXPECT_THAT(rows(compare_with(copy)),
              ElementsAre("breaking | type.wider | plugin_to_host | old host <- new plugin | "
                          "PanelField | discriminator `type` -> none: an untagged union takes "
                          "any object"));
  EXPECT_THAT(rows(compare_back(copy)),
              ElementsAre("breaking | type.narrower | plugin_to_host | new host <- old plugin | "
                          "PanelField | discriminator none -> `type`: an untagged union that "
                          "took any object"));
  // Untagged without such a member: each version tells the members apart its own way.
  SchemaCopy strings;
  edit(strings, "types/panel_field.json", [](J& d) {
    d.erase("x-discriminator");
    d.erase("oneOf");
    d["anyOf"] =
        J::parse(R"([{"type": "string"}, {"type": "array", "items": {"type": "string"}}])");
  });
  Report r = compare_with(strings);
  ASSERT_FALSE(r.changes.empty());
  EXPECT_EQ(r.changes[0].rule, "union.discriminator_changed");
}

TEST(PayloadRules, ATaggedUnionThatBecameTheObjectMemberOfAUnionOfKindsIsWiderAndComparedByTag) {
  // PanelField, tagged by type, becomes "a field, or an array of fields" (MCP's sampling content):
  // the tagged union moves to its own file, where its toggle gains a member, and the old
  // union's members still compare tag by tag.
  SchemaCopy copy;
  auto block = copy.json("types/panel_field.json");
  block["title"] = "PanelFieldBlock";
  block["definitions"]["ToggleField"]["properties"]["hint"] = J::parse(R"({"type": "string"})");
  copy.save("types/panel_field_block.json", block);
  edit(copy, "types/panel_field.json", [](J& d) {
    d.erase("x-discriminator");
    d.erase("oneOf");
    d["anyOf"] = J::parse(R"([{"$ref": "panel_field_block.json"},
        {"type": "array", "items": {"$ref": "panel_field_block.json"}}])");
  });
  EXPECT_THAT(rows(compare_with(copy)),
              ElementsAre("breaking | type.wider | plugin_to_host | old host <- new plugin | "
                          "PanelField | the union tagged by `type` became a union of JSON kinds",
                          "additive | member.optional_added | plugin_to_host | host | "
                          "ToggleField.hint | new optional member"));
  EXPECT_THAT(
      rows(compare_back(copy)),
      ElementsAre("breaking | type.narrower | plugin_to_host | new host <- old plugin | "
                  "PanelField | a union of JSON kinds became the union tagged by `type` "
                  "in it",
                  "breaking | member.optional_removed | plugin_to_host | host <- plugin, C++ "
                  "API | PanelField<type=\"toggle\">.hint | removed optional member"));
}

TEST(PayloadRules, AnUntaggedUnionsMembersAreMatchedByJsonKindNotPlace) {
  // "A field, or an array of fields", then the same members the other way round: the wire is
  // the same (each member is told by its JSON kind, the tagged one an object).
  auto block_or_array = [](bool array_first) {
    auto copy = std::make_unique<SchemaCopy>();
    auto block = copy->json("types/panel_field.json");
    block["title"] = "PanelFieldBlock";
    copy->save("types/panel_field_block.json", block);
    edit(*copy, "types/panel_field.json", [array_first](J& d) {
      d.erase("x-discriminator");
      d.erase("oneOf");
      J one = J::parse(R"({"$ref": "panel_field_block.json"})");
      J many = J::parse(R"({"type": "array", "items": {"$ref": "panel_field_block.json"}})");
      d["anyOf"] = array_first ? J::array({many, one}) : J::array({one, many});
    });
    return copy;
  };
  auto load = [](const SchemaCopy& c) { return gen::SchemaSet::load(c.path("protocol.json")); };
  const auto before = block_or_array(false);
  const auto after = block_or_array(true);
  EXPECT_THAT(rows(compare(load(*before), load(*after), schema_only())), ElementsAre());
}

}  // namespace
}  // namespace rpckit::compat::test
