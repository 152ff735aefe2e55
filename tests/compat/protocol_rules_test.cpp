// The protocol rules: messages removed, renamed, added, their kind and gate; error codes;
// capabilities; constants; and the version bump that allows breaking changes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support.hpp"

namespace rpckit::compat::test {
namespace {

using ::testing::ElementsAre;

void unlist_message(const SchemaCopy& copy, const std::string& file) {
  edit(copy, "protocol.json", [&](J& d) { erase_value(d["x-messages"], file); });
}

TEST(ProtocolRules, RemovedMessageBreaksItsReceiver) {
  SchemaCopy copy;
  unlist_message(copy, "messages/set_status.json");
  Report r = compare_with(copy);
  EXPECT_THAT(rows(r), ElementsAre("breaking | message.removed | plugin_to_host | new host <- old "
                                   "plugin, C++ API | message set_status | message removed"));
  EXPECT_EQ(r.changes[0].why, "a new host drops an old plugin's notification");
  EXPECT_EQ(r.changes[0].old_location, "messages/set_status.json#");
  EXPECT_TRUE(r.fails());
}

TEST(ProtocolRules, RenamedMessageIsOneBreakingChange) {
  SchemaCopy copy;
  J log = copy.json("messages/log.json");
  log["title"] = "write_log";
  log["properties"]["method"]["const"] = "write_log";
  copy.save("messages/write_log.json", log);
  edit(copy, "protocol.json", [](J& d) {
    for (J& m : d["x-messages"]) {
      if (m == "messages/log.json") m = "messages/write_log.json";
    }
  });
  Report r = compare_with(copy);
  EXPECT_THAT(rows(r), ElementsAre("breaking | message.renamed | plugin_to_host | host and plugin "
                                   "| message log | renamed log -> write_log"));
  EXPECT_EQ(r.changes[0].new_location, "messages/write_log.json#/properties/method");
}

TEST(ProtocolRules, NewMessageIsAdditive) {
  SchemaCopy copy;
  gen::test::apply_additive_change(copy);
  Report r = compare_with(copy);
  EXPECT_EQ(find(r, "message on_test_event", "message.added").verdict, Verdict::kAdditive);
  EXPECT_EQ(row(find(r, "message get_test_value", "message.added")),
            "additive | message.added | plugin_to_host | host | message get_test_value | new "
            "request plugin_to_host");
  EXPECT_EQ(find(r, "message get_test_value", "message.added").why,
            "an old host answers it with method_not_found (-32601), which a caller handles");
}

TEST(ProtocolRules, ChangedKindIsBreaking) {
  SchemaCopy copy;
  edit(copy, "messages/log.json", [](J& d) {
    d["x-kind"] = "request";
    d["required"] = J::parse(R"(["jsonrpc", "id", "method", "params"])");
  });
  Report r = compare_with(copy);
  EXPECT_THAT(rows(r), ElementsAre("breaking | message.kind_changed | plugin_to_host | host and "
                                   "plugin | message log | kind notification -> request"));
  EXPECT_EQ(r.changes[0].new_location, "messages/log.json#/x-kind");
}

TEST(ProtocolRules, AMessageNowSentBothWaysIsAdditiveForItsNewReceiver) {
  SchemaCopy copy;
  edit(copy, "messages/log.json",
       [](J& d) { d["x-direction"] = J::parse(R"(["plugin_to_host", "host_to_plugin"])"); });
  Report r = compare_with(copy);
  EXPECT_THAT(rows(r), ElementsAre("additive | message.direction_added | host_to_plugin | plugin "
                                   "| message log | now also sent host_to_plugin"));
  EXPECT_EQ(r.changes[0].why, "an old plugin ignores it");
  EXPECT_EQ(r.changes[0].new_location, "messages/log.json#/x-direction");
  EXPECT_FALSE(r.fails());  // the old way is unchanged: its payloads compare equal
}

TEST(ProtocolRules, AMessageTurnedAroundIsBreaking) {
  SchemaCopy copy;
  edit(copy, "messages/log.json", [](J& d) { d["x-direction"] = "host_to_plugin"; });
  Report r = compare_with(copy);
  EXPECT_THAT(rows(r), ElementsAre("breaking | message.direction_changed | host_to_plugin | host "
                                   "and plugin | message log | direction plugin_to_host -> "
                                   "host_to_plugin"));
  EXPECT_EQ(r.changes[0].why, "the old receiver sends it now, and the old sender receives it");
  EXPECT_TRUE(r.fails());
}

TEST(ProtocolRules, ChangedGateIsBreaking) {
  SchemaCopy copy;
  edit(copy, "messages/notify.json",
       [](J& d) { d["x-gate"].push_back(J::parse(R"({"granted": "ui", "value": "panel"})")); });
  Report r = compare_with(copy);
  EXPECT_THAT(rows(r),
              ElementsAre("breaking | gate.changed | plugin_to_host | host and plugin | message "
                          "notify | gate [{\"granted\":\"host_methods\",\"value\":\"notify\"}] -> "
                          "[{\"granted\":\"host_methods\",\"value\":\"notify\"},{\"granted\":"
                          "\"ui\",\"value\":\"panel\"}]"));
}

TEST(ProtocolRules, ANewParamGatedByACapabilityIsAdditiveAnOldOneGatedBreaks) {
  // notify gains a param that is sent only when the receiver declared a capability: an old
  // sender never sends it, so every notify it sends still passes the gate.
  SchemaCopy copy;
  edit(copy, "messages/notify.json", [](J& d) {
    d["definitions"]["NotifyParams"]["properties"]["sound"] = J::parse(R"({"type": "string"})");
    d["x-gate"].push_back(J::parse(R"({"capability": "audio", "param": "sound"})"));
  });
  Report r = compare_with(copy);
  EXPECT_THAT(rows(r), ElementsAre("additive | gate.new_param_gated | plugin_to_host | host and "
                                   "plugin | message notify | params.sound sent only with "
                                   "capability \"audio\"",
                                   "additive | member.optional_added | plugin_to_host | host | "
                                   "notify.params.sound | new optional member"));
  EXPECT_FALSE(r.fails());
  // The same clause on a param the old version had: old senders may send it ungated.
  SchemaCopy old_param;
  edit(old_param, "messages/notify.json", [](J& d) {
    d["x-gate"].push_back(J::parse(R"({"capability": "audio", "param": "level"})"));
  });
  Report changed = compare_with(old_param);
  ASSERT_EQ(changed.changes.size(), 1u);
  EXPECT_EQ(changed.changes[0].rule, "gate.changed");
  EXPECT_TRUE(changed.fails());
}

TEST(ProtocolRules, AResultWhenForANewParamIsAdditiveForAnOldOneBreaking) {
  // notify answers a request carrying a new param `queue` with a Queued result (x-result-when).
  auto queued = [](J& d, const std::string& member, const char* position_type) {
    d["definitions"]["Queued"] = J::parse(R"({"type": "object", "required": ["position"],
        "properties": {"position": {"type": "integer"}}})");
    d["definitions"]["Queued"]["properties"]["position"]["type"] = position_type;
    d["x-result-when"] = J::object();
    d["x-result-when"][member] = J::parse(R"({"$ref": "#/definitions/Queued"})");
  };
  // Sent only to a host that declared the capability `queueing`, as MCP's task is.
  SchemaCopy copy;
  edit(copy, "messages/notify.json", [&](J& d) {
    d["definitions"]["NotifyParams"]["properties"]["queue"] = J::parse(R"({"type": "boolean"})");
    d["x-gate"].push_back(J::parse(R"({"capability": "queueing", "param": "queue"})"));
    queued(d, "queue", "integer");
  });
  Report r = compare_with(copy);
  EXPECT_THAT(rows(r), ElementsAre("additive | gate.new_param_gated | plugin_to_host | host and "
                                   "plugin | message notify | params.queue sent only with "
                                   "capability \"queueing\"",
                                   "additive | member.optional_added | plugin_to_host | host | "
                                   "notify.params.queue | new optional member",
                                   "additive | result_when.added | plugin_to_host | host and "
                                   "plugin | message notify | a request carrying params.queue is "
                                   "answered with another result"));
  EXPECT_FALSE(r.fails());
  // Ungated, a new plugin sends it to an old host, which answers with NotifyResult.
  SchemaCopy ungated;
  edit(ungated, "messages/notify.json", [&](J& d) {
    d["definitions"]["NotifyParams"]["properties"]["queue"] = J::parse(R"({"type": "boolean"})");
    queued(d, "queue", "integer");
  });
  const Report ungated_report = compare_with(ungated);
  const Change& unsafe = find(ungated_report, "message notify", "result_when.added");
  EXPECT_EQ(unsafe.verdict, Verdict::kBreaking);
  EXPECT_EQ(unsafe.affected, "old host <- new plugin");
  // The same for a param the old version had: an old caller that sends it breaks.
  SchemaCopy old_param;
  edit(old_param, "messages/notify.json", [&](J& d) { queued(d, "level", "integer"); });
  Report changed = compare_with(old_param);
  ASSERT_EQ(changed.changes.size(), 1u);
  EXPECT_EQ(changed.changes[0].rule, "result_when.added");
  EXPECT_TRUE(changed.fails());
  // The entry taken away again (the copy is the old version): breaking the same way.
  Report removed = compare_back(old_param);
  ASSERT_EQ(removed.changes.size(), 1u);
  EXPECT_EQ(removed.changes[0].rule, "result_when.removed");
  EXPECT_TRUE(removed.fails());
  // An entry in both versions: its result is compared as a result is, by the payload rules.
  SchemaCopy before, after;
  edit(before, "messages/notify.json", [&](J& d) { queued(d, "level", "integer"); });
  edit(after, "messages/notify.json", [&](J& d) { queued(d, "level", "string"); });
  Report retyped = compare(gen::SchemaSet::load(before.path("protocol.json")),
                           gen::SchemaSet::load(after.path("protocol.json")), schema_only());
  ASSERT_EQ(retyped.changes.size(), 1u);
  EXPECT_EQ(retyped.changes[0].rule, "type.changed");
  EXPECT_EQ(retyped.changes[0].where, "notify.result(params.level).position");
}

TEST(ProtocolRules, AClauseOnTheSendersOwnCapabilityBreaksOneSideEachWay) {
  // notify now needs the plugin to have declared "notifications" of itself: an old host gets
  // it less often, a new host that checks gates refuses it from an old plugin.
  SchemaCopy copy;
  edit(copy, "messages/notify.json",
       [](J& d) { d["x-gate"].push_back(J::parse(R"({"sender_capability": "notifications"})")); });
  Report r = compare_with(copy);
  EXPECT_THAT(rows(r), ElementsAre("breaking | gate.sender_capability_added | plugin_to_host | "
                                   "new host <- old plugin | message notify | sent only by a "
                                   "plugin that declared \"notifications\""));
  EXPECT_THAT(find(r, "message notify", "gate.sender_capability_added").why,
              ::testing::HasSubstr("an old host only gets it less often"));
  EXPECT_THAT(rows(compare_back(copy)),
              ElementsAre("breaking | gate.sender_capability_removed | plugin_to_host | old host "
                          "<- new plugin | message notify | no longer needs the plugin to "
                          "declare \"notifications\""));
  // With another clause changed too, it is one changed gate.
  SchemaCopy both;
  edit(both, "messages/notify.json", [](J& d) {
    d["x-gate"].push_back(J::parse(R"({"sender_capability": "notifications"})"));
    d["x-gate"].push_back(J::parse(R"({"granted": "ui", "value": "panel"})"));
  });
  Report mixed = compare_with(both);
  ASSERT_EQ(mixed.changes.size(), 1u);
  EXPECT_EQ(mixed.changes[0].rule, "gate.changed");
}

TEST(ProtocolRules, ACapabilityKeyedByAParamBreaksTheNewReceiverOfAnOldSender) {
  // notify needs the host's "notifications"; then the member of it that params.kind names
  // ("plain" when absent), as MCP's elicitation/create became keyed by its mode.
  SchemaCopy plain;
  edit(plain, "messages/notify.json",
       [](J& d) { d["x-gate"].push_back(J::parse(R"({"capability": "notifications"})")); });
  SchemaCopy keyed;
  edit(keyed, "messages/notify.json", [](J& d) {
    d["x-gate"].push_back(
        J::parse(R"({"capability": "notifications", "keyed_by": "kind", "default": "plain"})"));
  });
  auto load = [](const SchemaCopy& c) { return gen::SchemaSet::load(c.path("protocol.json")); };
  Report r = compare(load(plain), load(keyed), schema_only());
  EXPECT_THAT(rows(r), ElementsAre("breaking | gate.capability_keyed | plugin_to_host | new host "
                                   "<- old plugin | message notify | needs the member of "
                                   "\"notifications\" that params.kind names (\"plain\" when "
                                   "absent), no longer \"notifications\" alone"));
  // With another clause added too, the rest is compared as before: here, one changed gate.
  SchemaCopy more;
  edit(more, "messages/notify.json", [](J& d) {
    d["x-gate"].push_back(
        J::parse(R"({"capability": "notifications", "keyed_by": "kind", "default": "plain"})"));
    d["x-gate"].push_back(J::parse(R"({"granted": "ui", "value": "panel"})"));
  });
  Report mixed = compare(load(plain), load(more), schema_only());
  ASSERT_EQ(mixed.changes.size(), 2u);
  EXPECT_EQ(mixed.changes[0].rule, "gate.capability_keyed");
  EXPECT_EQ(mixed.changes[1].rule, "gate.changed");
}

TEST(ProtocolRules, RenamedCapabilityIsBreakingWhereverItAppears) {
  SchemaCopy copy;
  // The capability, in the vocabulary and in the gate that names it.
  edit(copy, "capabilities.json", [](J& d) {
    for (J& v : d["definitions"]["EventName"]["enum"]) {
      if (v == "on_watch_tick") v = "on_watch_timer";
    }
  });
  edit(copy, "messages/on_watch_tick.json",
       [](J& d) { d["x-gate"][0]["value"] = "on_watch_timer"; });
  Report r = compare_with(copy);
  EXPECT_THAT(
      rows(r),
      ElementsAre("breaking | capability.renamed | host_to_plugin | plugin <- host (old/new mixed) "
                  "| EventName | capability renamed \"on_watch_tick\" -> \"on_watch_timer\"",
                  "breaking | gate.capability_renamed | host_to_plugin | host and plugin | message "
                  "on_watch_tick | gate capability renamed \"on_watch_tick\" -> \"on_watch_timer\"",
                  "breaking | capability.renamed |  | reader <- writer (old/new mixed) | EventName "
                  "| capability renamed \"on_watch_tick\" -> \"on_watch_timer\""));
  // The vocabulary reaches the plugin in the grant (initialize params), and the manifest.
  EXPECT_THAT(r.changes[0].via, ElementsAre("initialize.params"));
  EXPECT_THAT(r.changes[2].via, ElementsAre("Manifest"));
  EXPECT_EQ(r.changes[0].new_location, "capabilities.json#/definitions/EventName/enum/3");
  EXPECT_EQ(r.changes[1].new_location, "messages/on_watch_tick.json#/x-gate/0");
}

TEST(ProtocolRules, ErrorCodesRemovedOrRenamedBreakAddedAreAdditive) {
  SchemaCopy copy;
  edit(copy, "errors.json", [](J& d) {
    J& codes = d["definitions"]["ErrorCode"];
    // -32002 unknown_stream goes; -32005 is renamed; -32099 is new.
    codes["enum"].erase(7);
    codes["x-enum-names"].erase(7);
    codes["x-enum-descriptions"].erase(7);
    codes["x-enum-names"][9] = "no_credential";
    codes["enum"].push_back(-32099);
    codes["x-enum-names"].push_back("quota_exceeded");
    codes["x-enum-descriptions"].push_back("Added by the test.");
  });
  Report r = compare_with(copy);
  EXPECT_THAT(rows(r),
              ElementsAre("breaking | error.removed |  | host and plugin, C++ API | error code "
                          "-32002 | error code unknown_stream removed",
                          "breaking | error.renamed |  | host and plugin, C++ API | error code "
                          "-32005 | error code renamed credential_unavailable -> no_credential",
                          "additive | error.added |  | host and plugin | error code -32099 | new "
                          "error code quota_exceeded"));
  EXPECT_EQ(r.changes[0].old_location, "errors.json#/definitions/ErrorCode/enum/7");
}

// x-error-data: typing a known code's data breaks old senders of other data; taking the type
// away breaks the C++ API (its maker and reader go); another type breaks both.
TEST(ProtocolRules, ErrorDataTypedUntypedOrRetypedBreaks) {
  SchemaCopy copy;
  edit(copy, "errors.json", [](J& d) {
    d["definitions"]["ErrorCode"]["x-error-data"] =
        J::parse(R"({"invalid_params": {"$ref": "#/definitions/ErrorData"}})");
  });
  EXPECT_THAT(rows(compare_with(copy)),
              ElementsAre("breaking | error.data_typed |  | host and plugin | error code -32602 | "
                          "error.data of invalid_params now has a schema"));
  EXPECT_THAT(rows(compare_back(copy)),
              ElementsAre("breaking | error.data_untyped |  | C++ API | error code -32602 | "
                          "error.data of invalid_params no longer has a schema"));
  SchemaCopy retyped;
  edit(retyped, "errors.json", [](J& d) {
    d["definitions"]["ErrorCode"]["x-error-data"] =
        J::parse(R"({"invalid_params": {"type": "string"}})");
  });
  // The copy that types the code by ErrorData -> the one that types it as a string.
  Report r = compare(gen::SchemaSet::load(copy.path("protocol.json")),
                     gen::SchemaSet::load(retyped.path("protocol.json")), schema_only());
  EXPECT_THAT(rows(r),
              ElementsAre("breaking | error.data_changed |  | host and plugin, C++ API | error "
                          "code -32602 | error.data of invalid_params has another schema"));
}

TEST(ProtocolRules, ConstantsChangedOrRemovedBreakAddedAreAdditive) {
  SchemaCopy copy;
  edit(copy, "protocol.json", [](J& d) {
    d["properties"]["ping_interval_ms"]["const"] = 15000;
    d["properties"].erase("notify_burst");
    d["properties"]["max_panels"] = J::parse(R"({"type": "integer", "const": 4})");
  });
  Report r = compare_with(copy);
  EXPECT_THAT(rows(r),
              ElementsAre("breaking | constant.changed |  | host and plugin | constant "
                          "ping_interval_ms | 30000 -> 15000",
                          "additive | constant.added |  | host and plugin | constant max_panels | "
                          "new constant 4",
                          "breaking | constant.removed |  | host and plugin, C++ API | constant "
                          "notify_burst | constant removed"));
  EXPECT_EQ(r.changes[0].new_location, "protocol.json#/properties/ping_interval_ms/const");
  EXPECT_TRUE(r.fails());
}

// A one-shot protocol's exchange (core line plugins): a step's deadline is something both
// sides must agree on; its description is documentation.
TEST(ProtocolRules, AChangedExchangeIsBreakingItsDescriptionIsNot) {
  SchemaCopy copy;
  edit(copy, "core_line/protocol.json", [](J& d) {
    d["x-exchange"]["steps"][1]["within"] = "launch_timeout_ms";
    d["x-exchange"]["description"] = "reworded";
  });
  gen::SchemaSet before =
      gen::SchemaSet::load(gen::test::source_dir() / "schema" / "core_line" / "protocol.json");
  gen::SchemaSet after = gen::SchemaSet::load(copy.path("core_line/protocol.json"));
  Report r = compare(before, after, schema_only());
  ASSERT_EQ(r.changes.size(), 1U) << ::testing::PrintToString(rows(r));
  const Change& c = find(r, "protocol x-exchange.steps", "protocol.exchange");
  EXPECT_EQ(c.verdict, Verdict::kBreaking);
  EXPECT_NE(c.change.find("\"within\":\"handshake_timeout_ms\""), std::string::npos) << c.change;
  EXPECT_NE(c.change.find("\"within\":\"launch_timeout_ms\""), std::string::npos) << c.change;
  EXPECT_EQ(c.new_location, "protocol.json#/x-exchange/steps");
  EXPECT_TRUE(r.fails());
}

TEST(ProtocolRules, AVersionBumpAllowsBreakingChanges) {
  SchemaCopy copy;
  unlist_message(copy, "messages/set_status.json");
  edit(copy, "protocol.json", [](J& d) { d["properties"]["protocol_version"]["const"] = 2; });
  Report r = compare_with(copy);
  EXPECT_THAT(rows(r),
              ElementsAre("breaking | constant.version |  | host and plugin | constant "
                          "protocol_version | 1 -> 2",
                          "breaking | message.removed | plugin_to_host | new host <- old plugin, "
                          "C++ API | message set_status | message removed"));
  EXPECT_TRUE(r.version_bumped);
  EXPECT_TRUE(r.breaking());
  EXPECT_FALSE(r.fails());
}

TEST(ProtocolRules, AVersionGoingDownIsNoBump) {
  SchemaCopy copy;
  edit(copy, "protocol.json", [](J& d) { d["properties"]["protocol_version"]["const"] = 0; });
  Report r = compare_with(copy);
  EXPECT_FALSE(r.version_bumped);
  EXPECT_TRUE(r.fails());
}

TEST(ProtocolRules, TheAdditiveChangeIsAllAdditive) {
  SchemaCopy copy;
  gen::test::apply_additive_change(copy);
  Report r = compare_with(copy, {});  // with the C++ API
  EXPECT_THAT(
      rows(r),
      ElementsAre(
          "additive | error.added |  | host and plugin | error code -32099 | new error code "
          "quota_exceeded",
          "additive | enum.value_added | host_to_plugin | plugin | EventName | new capability "
          "\"on_test_event\" (open enum)",
          "additive | enum.value_added | host_to_plugin | plugin | HostMethodName | new capability "
          "\"get_test_value\" (open enum)",
          "additive | enum.value_added | host_to_plugin | plugin | UiCapability | new capability "
          "\"overlay\" (open enum)",
          "additive | member.optional_added | host_to_plugin | plugin | Channel.is_favorite | new "
          "optional member",
          "additive | message.added | host_to_plugin | plugin | message on_test_event | new "
          "notification host_to_plugin",
          "additive | message.added | plugin_to_host | host | message get_test_value | new request "
          "plugin_to_host",
          // The manifest, read by the host, names capabilities too.
          "additive | enum.value_added |  | reader | EventName | new capability \"on_test_event\" "
          "(open enum)",
          "additive | enum.value_added |  | reader | HostMethodName | new capability "
          "\"get_test_value\" (open enum)",
          "additive | enum.value_added |  | reader | UiCapability | new capability \"overlay\" "
          "(open enum)"));
  EXPECT_FALSE(r.fails());
}

}  // namespace
}  // namespace rpckit::compat::test
