// Unions: PanelField (tagged by "type") and PanelValue (chosen by JSON type), each with an
// rpckit::JsonValue alternative that keeps a shape this version does not know.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "support.hpp"
#include "streamnook_v1/messages.hpp"
#include "streamnook_v1/types.hpp"

namespace bindings_test {
namespace {

namespace sn = streamnook::v1;

// Decodes `text` as a PanelField, checks it holds alternative T and re-encodes to the input.
template <class T>
T panel_field(const std::string& text) {
  SCOPED_TRACE(text);
  const json input = json::parse(text);
  sn::PanelField field = decode_as<sn::PanelField>(input);
  EXPECT_TRUE(std::holds_alternative<T>(field.value)) << "index " << field.value.index();
  EXPECT_EQ(encode(field), input);
  EXPECT_EQ(decode_as<sn::PanelField>(encode(field)), field);
  const T* member = std::get_if<T>(&field.value);
  return member != nullptr ? *member : T{};
}

TEST(Unions, PanelFieldEveryKnownType) {
  auto toggle = panel_field<sn::ToggleField>(
      R"({"key":"enabled","type":"toggle","label":"Enabled","default":true})");
  EXPECT_EQ(toggle.key, "enabled");
  EXPECT_EQ(toggle.default_, true);

  auto number = panel_field<sn::NumberField>(
      R"({"key":"n","type":"number","label":"N","min":0,"max":600,"default":12.5})");
  EXPECT_EQ(number.min, 0.0);
  EXPECT_EQ(number.max, 600.0);
  EXPECT_EQ(number.default_, 12.5);

  auto select = panel_field<sn::SelectField>(
      R"({"key":"q","type":"select","label":"Q","options":[{"value":"best","label":"Best"}],
          "default":"best"})");
  ASSERT_EQ(select.options.size(), 1u);
  EXPECT_EQ(select.options[0].value, "best");

  auto text = panel_field<sn::TextField>(
      R"({"key":"note","type":"text","label":"Note","placeholder":"…"})");
  EXPECT_EQ(text.placeholder, "…");

  auto list = panel_field<sn::StringListField>(
      R"({"key":"games","type":"string_list","label":"Games","default":["Rust"]})");
  EXPECT_EQ(list.default_, std::vector<std::string>{"Rust"});

  auto channels = panel_field<sn::ChannelListField>(
      R"({"key":"c","type":"channel_list","label":"C",
          "default":[{"channel_id":"1","channel_login":"a","display_name":"A"}]})");
  ASSERT_TRUE(channels.default_.has_value());
  EXPECT_EQ(channels.default_->at(0).channel_login, "a");

  auto slider = panel_field<sn::SliderField>(
      R"({"key":"s","type":"slider","label":"S","min":500,"max":10000,"step":250,"unit":"s",
          "display_divisor":1000,"default":1500})");
  EXPECT_EQ(slider.step, 250.0);
  EXPECT_EQ(slider.display_divisor, 1000.0);

  auto folder = panel_field<sn::FolderField>(
      R"({"key":"dir","type":"folder","label":"Dir","default":""})");
  EXPECT_EQ(folder.default_, "");
}

TEST(Unions, PanelFieldUnknownTypeIsKeptWhole) {
  // New field types are additive (spec 6): a newer host/plugin may send one.
  const json input = json::parse(
      R"({"key":"accent","type":"color_picker","label":"Accent","default":"#9146FF",
          "alpha":true,"presets":["#fff",{"nested":[1,2]}]})");
  auto field = decode_as<sn::PanelField>(input);
  const auto* raw = std::get_if<rpckit::JsonValue>(&field.value);
  ASSERT_NE(raw, nullptr);
  EXPECT_EQ(raw->get(), input) << "kept whole, unknown keys included";
  EXPECT_EQ(encode(field), input);

  // Inside a whole register_panel, next to known fields.
  const json params = json::parse(
      R"({"schema":{"title":"T","sections":[{"label":"S","fields":[
          {"key":"a","type":"toggle","label":"A"},
          {"key":"accent","type":"color_picker","label":"Accent"}]}]}})");
  auto decoded = params_of<sn::messages::RegisterPanel>(params);
  const auto& fields = decoded.schema.sections.at(0).fields;
  ASSERT_EQ(fields.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<sn::ToggleField>(fields[0].value));
  EXPECT_TRUE(std::holds_alternative<rpckit::JsonValue>(fields[1].value));
  EXPECT_EQ(encode(decoded), params);
}

TEST(Unions, PanelFieldTagErrors) {
  EXPECT_EQ(decode_error<sn::PanelField>(json::parse(R"({"key":"a","label":"A"})")),
            "value.type: missing required field");
  EXPECT_EQ(decode_error<sn::PanelField>(json::parse(R"({"key":"a","type":7,"label":"A"})")),
            "value.type: expected string, got integer");
  EXPECT_EQ(decode_error<sn::PanelField>(json::parse(R"({"key":"a","type":null,"label":"A"})")),
            "value.type: expected string, got null");
  EXPECT_EQ(decode_error<sn::PanelField>(json("toggle")), "value: expected object, got string");
  // A known tag is decoded strictly: its members are checked.
  EXPECT_EQ(decode_error<sn::PanelField>(json::parse(R"({"key":"a","type":"slider","label":"A",
                                                        "min":0,"max":1})")),
            "value.step: missing required field");
  // The tag is case-sensitive: "Toggle" is an unknown type, kept whole.
  auto upper = decode_as<sn::PanelField>(json::parse(R"({"key":"a","type":"Toggle","label":"A"})"));
  EXPECT_TRUE(std::holds_alternative<rpckit::JsonValue>(upper.value));
}

// A member decoded on its own checks its "const" tag (compared as text, without parsing the
// schema's value on every decode): the same error whatever the wrong value is.
TEST(Unions, AMembersConstTagIsChecked) {
  EXPECT_EQ(
      decode_as<sn::ToggleField>(json::parse(R"({"key":"a","type":"toggle","label":"A"})")).key,
      "a");
  EXPECT_EQ(
      decode_error<sn::ToggleField>(json::parse(R"({"key":"a","type":"slider","label":"A"})")),
      R"(value.type: expected "toggle", got "slider")");
  EXPECT_EQ(
      decode_error<sn::ToggleField>(json::parse(R"({"key":"a","type":"Toggle","label":"A"})")),
      R"(value.type: expected "toggle", got "Toggle")");
  EXPECT_EQ(decode_error<sn::ToggleField>(json::parse(R"({"key":"a","type":7,"label":"A"})")),
            R"(value.type: expected "toggle", got 7)");
  EXPECT_EQ(decode_error<sn::ToggleField>(json::parse(R"({"key":"a","label":"A"})")),
            "value.type: missing required field");
}

// ---- PanelValue / PanelValues -------------------------------------------------------------

template <class T>
void expect_panel_value(const json& input, const T& expected) {
  SCOPED_TRACE(input.dump());
  auto value = decode_as<sn::PanelValue>(input);
  const T* member = std::get_if<T>(&value.value);
  ASSERT_NE(member, nullptr) << "index " << value.value.index();
  EXPECT_TRUE(*member == expected);
  EXPECT_EQ(encode(value), input);
}

TEST(Unions, PanelValueEveryKind) {
  expect_panel_value(json(true), true);
  expect_panel_value(json(false), false);
  expect_panel_value(json(12.5), 12.5);
  expect_panel_value(json(3), 3.0);  // integers are numbers; 3 re-encodes as 3.0 (equal JSON)
  expect_panel_value(json(-1), -1.0);
  expect_panel_value(json("drops_first"), std::string("drops_first"));
  expect_panel_value(json(""), std::string(""));
  expect_panel_value(json::parse(R"(["VALORANT","Rust"])"),
                     std::vector<std::string>{"VALORANT", "Rust"});
  sn::ChannelRef ref;
  ref.channel_id = "71092938";
  ref.channel_login = "xqc";
  ref.display_name = "xQc";
  expect_panel_value(
      json::parse(R"([{"channel_id":"71092938","channel_login":"xqc","display_name":"xQc"}])"),
      std::vector<sn::ChannelRef>{ref});
}

// An empty array matches both list kinds; it decodes as the first, string[]. A consumer of an
// empty channel_list value must therefore not insist on std::vector<ChannelRef>.
TEST(Unions, PanelValueEmptyArrayIsAStringList) {
  auto value = decode_as<sn::PanelValue>(json::array());
  EXPECT_TRUE(std::holds_alternative<std::vector<std::string>>(value.value));
  EXPECT_FALSE(std::holds_alternative<std::vector<sn::ChannelRef>>(value.value));
  EXPECT_EQ(encode(value), json::array());
  EXPECT_EQ(encode(sn::PanelValue{std::vector<sn::ChannelRef>{}}), json::array());
}

TEST(Unions, PanelValueUnknownShapesAreKeptWhole) {
  for (const char* text : {R"({"a":1,"b":[true]})", "null", "[1,2]", "[[\"a\"]]", "[null]"}) {
    SCOPED_TRACE(text);
    const json input = json::parse(text);
    auto value = decode_as<sn::PanelValue>(input);
    const auto* raw = std::get_if<rpckit::JsonValue>(&value.value);
    ASSERT_NE(raw, nullptr) << "index " << value.value.index();
    EXPECT_EQ(raw->get(), input);
    EXPECT_EQ(encode(value), input);
  }
}

TEST(Unions, PanelValueListsAreCheckedByTheirFirstItem) {
  // The kind of a list is chosen by its first item, then every item must be of that kind.
  EXPECT_EQ(decode_error<sn::PanelValue>(json::parse(R"(["a",1])")),
            "value[1]: expected string, got integer");
  EXPECT_EQ(decode_error<sn::PanelValue>(json::parse(R"([{"channel_id":"1"}])")),
            "value[0].channel_login: missing required field");
  // So a list of objects of some other shape (a future value kind) is an error, not kept
  // whole like the other unknown shapes (reported as a problem of the generated decoder).
  EXPECT_EQ(decode_error<sn::PanelValue>(json::parse(R"([{"r":255,"g":0,"b":0}])")),
            "value[0].channel_id: missing required field");
}

TEST(Unions, PanelValuesMapOfEveryKind) {
  const json values = json::parse(R"({"enabled":true,"max_parallel":3,"min_minutes":12.5,
      "priority":"drops_first","games":["VALORANT"],"none":[],
      "channels":[{"channel_id":"1","channel_login":"a","display_name":"A"}],
      "future":{"x":1},"weird key":"ok"})");
  auto params = params_of<sn::messages::OnPanelChange>(json{{"values", values}});
  const sn::PanelValues& v = params.values;
  ASSERT_EQ(v.size(), 9u);
  EXPECT_EQ(std::get<bool>(v.at("enabled").value), true);
  EXPECT_EQ(std::get<double>(v.at("max_parallel").value), 3.0);
  EXPECT_EQ(std::get<std::string>(v.at("priority").value), "drops_first");
  EXPECT_EQ(std::get<std::vector<std::string>>(v.at("games").value).size(), 1u);
  EXPECT_TRUE(std::get<std::vector<std::string>>(v.at("none").value).empty());
  EXPECT_EQ(std::get<std::vector<sn::ChannelRef>>(v.at("channels").value).at(0).channel_id, "1");
  EXPECT_EQ(std::get<rpckit::JsonValue>(v.at("future").value).get(), json::parse(R"({"x":1})"));
  EXPECT_EQ(std::get<std::string>(v.at("weird key").value), "ok");
  EXPECT_EQ(encode(params), json({{"values", values}}));
}

}  // namespace
}  // namespace bindings_test
