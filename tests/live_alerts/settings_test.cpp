// settings_from_panel (each panel value kind, wrong kinds ignored) and the panel schema.
#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "settings.hpp"

namespace live_alerts {
namespace {

using nlohmann::json;

// Values as they arrive on the wire (get_panel_values / on_panel_change).
sn::PanelValues from_wire(const json& values) { return values.get<sn::PanelValues>(); }

sn::ChannelRef ref(const std::string& id) {
  sn::ChannelRef r;
  r.channel_id = id;
  r.channel_login = "login" + id;
  r.display_name = "Streamer" + id;
  return r;
}

TEST(SettingsFromPanel, NoValuesMeansDefaults) {
  Settings s = settings_from_panel({});
  EXPECT_TRUE(s.channel_ids.empty());
  EXPECT_TRUE(s.games.empty());
  EXPECT_FALSE(s.quiet);
  EXPECT_EQ(s, Settings{});
}

TEST(SettingsFromPanel, ChannelListGivesChannelIds) {
  sn::PanelValues values;
  values["channels"].value = std::vector<sn::ChannelRef>{ref("1"), ref("2"), ref("1")};
  EXPECT_EQ(settings_from_panel(values).channel_ids, (std::set<std::string>{"1", "2"}));
}

TEST(SettingsFromPanel, StringListGivesLowerCasedGames) {
  sn::PanelValues values;
  values["games"].value = std::vector<std::string>{"Just Chatting", "CHESS", "chess"};
  EXPECT_EQ(settings_from_panel(values).games,
            (std::set<std::string>{"just chatting", "chess"}));
}

TEST(SettingsFromPanel, ToggleGivesQuiet) {
  sn::PanelValues values;
  values["quiet"].value = true;
  EXPECT_TRUE(settings_from_panel(values).quiet);
  values["quiet"].value = false;
  EXPECT_FALSE(settings_from_panel(values).quiet);
}

TEST(SettingsFromPanel, AllKindsFromTheWire) {
  Settings s = settings_from_panel(from_wire(json{
      {"channels",
       {{{"channel_id", "10"}, {"channel_login", "a"}, {"display_name", "A"}, {"extra", 1}}}},
      {"games", {"Poker"}},
      {"quiet", true},
      {"unknown_key", 3}}));
  EXPECT_EQ(s.channel_ids, std::set<std::string>{"10"});
  EXPECT_EQ(s.games, std::set<std::string>{"poker"});
  EXPECT_TRUE(s.quiet);
}

TEST(SettingsFromPanel, ValuesOfTheWrongKindAreIgnored) {
  const json channel_refs = json::array(
      {{{"channel_id", "1"}, {"channel_login", "l"}, {"display_name", "d"}}});
  const json strings = json::array({"1", "Chess"});
  const json others[] = {json(true), json(3.5), json(1), json("1"), json{{"nested", "object"}},
                         json(nullptr)};
  std::vector<std::pair<std::string, json>> cases;
  for (const json& other : others) {
    cases.emplace_back("channels", other);
    cases.emplace_back("games", other);
    if (!other.is_boolean()) cases.emplace_back("quiet", other);
  }
  cases.emplace_back("channels", strings);     // a string_list where a channel_list belongs
  cases.emplace_back("games", channel_refs);   // a channel_list where a string_list belongs
  cases.emplace_back("quiet", strings);
  cases.emplace_back("quiet", channel_refs);
  for (const auto& [key, value] : cases) {
    EXPECT_EQ(settings_from_panel(from_wire(json{{key, value}})), Settings{})
        << key << " = " << value.dump();
  }
  // A wrong kind under one key leaves the others alone.
  Settings s = settings_from_panel(from_wire(json{{"channels", "1"}, {"games", {"Chess"}},
                                                  {"quiet", "yes"}}));
  EXPECT_TRUE(s.channel_ids.empty());
  EXPECT_EQ(s.games, std::set<std::string>{"chess"});
  EXPECT_FALSE(s.quiet);
}

TEST(SettingsFromPanel, EmptyListsMeanNoFilter) {
  Settings s = settings_from_panel(from_wire(json{{"channels", json::array()},
                                                  {"games", json::array()}}));
  EXPECT_EQ(s, Settings{});
}

TEST(PanelSchema, FitsTheHostsLimits) {
  json schema = panel_schema();
  std::string title = schema.at("title");
  EXPECT_FALSE(title.empty());
  EXPECT_LE(title.size(), 60u);
  ASSERT_LE(schema.at("sections").size(), 8u);
  std::regex key_pattern("^[a-z0-9_]{1,40}$");
  std::map<std::string, std::string> types;
  for (const json& section : schema.at("sections")) {
    ASSERT_LE(section.at("fields").size(), 24u);
    for (const json& field : section.at("fields")) {
      std::string key = field.at("key");
      EXPECT_TRUE(std::regex_match(key, key_pattern)) << key;
      types[key] = field.at("type");
    }
  }
  // The keys settings_from_panel reads, with the kinds it expects.
  EXPECT_EQ(types, (std::map<std::string, std::string>{
                       {"channels", "channel_list"}, {"games", "string_list"}, {"quiet", "toggle"}}));
  // And it decodes back through the generated codec unchanged.
  EXPECT_EQ(schema.get<sn::PanelSchema>(), panel_schema());
}

}  // namespace
}  // namespace live_alerts
