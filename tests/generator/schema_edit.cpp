#include "schema_edit.hpp"

#include <stdexcept>

namespace rpckit::gen::test {

using J = nlohmann::ordered_json;

SchemaCopy::SchemaCopy() : dir_("additive") { copy_tree(source_dir() / "schema", dir_.path()); }

J SchemaCopy::json(const std::string& rel) const { return J::parse(read_file(path(rel))); }

void SchemaCopy::save(const std::string& rel, const J& doc) const {
  write_file(path(rel), doc.dump(2) + "\n");
}

void append_enum_value(const SchemaCopy& s, const std::string& rel, const std::string& name,
                       const std::string& value) {
  J doc = s.json(rel);
  J& e = doc["definitions"][name];
  e["enum"].push_back(value);
  if (e.contains("x-enum-descriptions")) e["x-enum-descriptions"].push_back("Added by the test.");
  if (e.contains("x-enum-names")) e["x-enum-names"].push_back(value);
  s.save(rel, doc);
}

namespace {

// Lists `added` in protocol.json's x-messages right after `after`.
void list_message_after(const SchemaCopy& s, const std::string& after, const std::string& added) {
  J protocol = s.json("protocol.json");
  J& list = protocol["x-messages"];
  J grown = J::array();
  for (const J& entry : list) {
    grown.push_back(entry);
    if (entry == after) grown.push_back(added);
  }
  if (grown.size() != list.size() + 1) {
    throw std::runtime_error("protocol.json x-messages does not list " + after);
  }
  list = grown;
  s.save("protocol.json", protocol);
}

}  // namespace

void apply_additive_change(const SchemaCopy& s) {
  // 1. A new event: its message file, its x-messages entry (after the last event), its name.
  J event = s.json("messages/on_stream_stop.json");
  event["title"] = "on_test_event";
  event["description"] = "A test event added by the additive-change test.";
  event["x-gate"] = J::parse(R"([{"granted": "events", "value": "on_test_event"}])");
  event["properties"]["method"]["const"] = "on_test_event";
  event["properties"]["params"]["$ref"] = "#/definitions/OnTestEventParams";
  event["definitions"] = J::parse(R"({"OnTestEventParams": {
      "type": "object", "required": ["channel_id"],
      "properties": {"channel_id": {"type": "string"}, "detail": {"type": ["string", "null"]}}}})");
  s.save("messages/on_test_event.json", event);
  list_message_after(s, "messages/on_panel_change.json", "messages/on_test_event.json");
  append_enum_value(s, "capabilities.json", "EventName", "on_test_event");

  // 2. A new host method, shaped like get_followed_live (a gated plugin-to-host request).
  J method = s.json("messages/get_followed_live.json");
  method["title"] = "get_test_value";
  method["description"] = "A test host method added by the additive-change test.";
  method["x-gate"] = J::parse(R"([{"granted": "host_methods", "value": "get_test_value"}])");
  method["x-result"]["$ref"] = "#/definitions/GetTestValueResult";
  method["properties"]["method"]["const"] = "get_test_value";
  method["properties"]["params"]["$ref"] = "#/definitions/GetTestValueParams";
  method["definitions"] = J::parse(R"({
      "GetTestValueParams": {"type": "object", "required": ["key"],
                             "properties": {"key": {"type": "string"}}},
      "GetTestValueResult": {"type": "object", "required": ["value"],
                             "properties": {"value": {"type": "string"}}}})");
  s.save("messages/get_test_value.json", method);
  list_message_after(s, "messages/set_status.json", "messages/get_test_value.json");
  append_enum_value(s, "capabilities.json", "HostMethodName", "get_test_value");

  // 3. A new optional field in Channel.
  J channel = s.json("types/channel.json");
  channel["properties"]["is_favorite"] =
      J::parse(R"({"description": "Added by the test.", "type": "boolean"})");
  s.save("types/channel.json", channel);

  // 4. A new value appended to an existing string enum.
  append_enum_value(s, "capabilities.json", "UiCapability", "overlay");

  // 5. A new error code appended to ErrorCode.
  J errors = s.json("errors.json");
  J& codes = errors["definitions"]["ErrorCode"];
  codes["enum"].push_back(-32099);
  codes["x-enum-names"].push_back("quota_exceeded");
  codes["x-enum-descriptions"].push_back("Added by the test.");
  s.save("errors.json", errors);
}

}  // namespace rpckit::gen::test
