// LiveTracker: which updates of the live set deserve an alert, under the settings' filters.
#include <gtest/gtest.h>

#include "tracker.hpp"

namespace live_alerts {
namespace {

sn::Channel ch(const std::string& id, std::optional<std::string> game = std::string("Chess")) {
  sn::Channel c;
  c.channel_id = id;
  c.login = "login" + id;
  c.display_name = "Streamer" + id;
  if (game) c.game_name = *game;
  return c;
}

std::vector<std::string> ids(const std::vector<sn::Channel>& channels) {
  std::vector<std::string> out;
  for (const sn::Channel& c : channels) out.push_back(c.channel_id);
  return out;
}

using Ids = std::vector<std::string>;

TEST(LiveTracker, AnEmptyTrackerReportsEveryWantedChannel) {
  LiveTracker tracker;
  EXPECT_EQ(ids(tracker.update({ch("1"), ch("2")}, {})), (Ids{"1", "2"}));
  EXPECT_EQ(tracker.live_ids(), (Ids{"1", "2"}));
}

TEST(LiveTracker, ReportsOnlyChannelsThatWereNotLiveBefore) {
  LiveTracker tracker;
  tracker.update({ch("1"), ch("2")}, {});
  EXPECT_EQ(ids(tracker.update({ch("2"), ch("1"), ch("3")}, {})), Ids{"3"});
  EXPECT_EQ(ids(tracker.update({ch("1"), ch("2"), ch("3")}, {})), Ids{});
  EXPECT_EQ(tracker.live().size(), 3u);
}

TEST(LiveTracker, AChannelThatWentOfflineAndCameBackIsReportedAgain) {
  LiveTracker tracker;
  tracker.update({ch("1"), ch("2")}, {});
  EXPECT_EQ(ids(tracker.update({ch("1")}, {})), Ids{});
  EXPECT_EQ(tracker.live_ids(), Ids{"1"});
  EXPECT_EQ(ids(tracker.update({ch("1"), ch("2")}, {})), Ids{"2"});
}

TEST(LiveTracker, AnEmptyUpdateClearsTheLiveSet) {
  LiveTracker tracker;
  tracker.update({ch("1")}, {});
  EXPECT_EQ(ids(tracker.update({}, {})), Ids{});
  EXPECT_TRUE(tracker.live().empty());
}

TEST(LiveTracker, KeepsTheLatestChannelData) {
  LiveTracker tracker;
  tracker.update({ch("1", "Chess")}, {});
  tracker.update({ch("1", "Poker")}, {});
  ASSERT_TRUE(tracker.live().at("1").game_name);
  EXPECT_EQ(*tracker.live().at("1").game_name, "Poker");
}

TEST(LiveTracker, FiltersByChannel) {
  Settings settings;
  settings.channel_ids = {"2", "9"};
  LiveTracker tracker;
  EXPECT_EQ(ids(tracker.update({ch("1"), ch("2"), ch("3")}, settings)), Ids{"2"});
  // Filtered channels are still tracked as live: no alert when the filter later widens.
  EXPECT_EQ(tracker.live_ids(), (Ids{"1", "2", "3"}));
  EXPECT_EQ(ids(tracker.update({ch("1"), ch("2"), ch("3")}, {})), Ids{});
}

TEST(LiveTracker, FiltersByGameCaseInsensitively) {
  Settings settings;
  settings.games = {"just chatting", "chess"};  // settings hold lower-cased names
  LiveTracker tracker;
  auto went_live = tracker.update(
      {ch("1", "Just Chatting"), ch("2", "CHESS"), ch("3", "Poker"), ch("4", std::nullopt),
       ch("5", "just chatting")},
      settings);
  EXPECT_EQ(ids(went_live), (Ids{"1", "2", "5"}));
}

TEST(LiveTracker, ChannelAndGameFiltersMustBothPass) {
  Settings settings;
  settings.channel_ids = {"1", "2"};
  settings.games = {"chess"};
  EXPECT_TRUE(LiveTracker::wanted(ch("1", "Chess"), settings));
  EXPECT_FALSE(LiveTracker::wanted(ch("2", "Poker"), settings));
  EXPECT_FALSE(LiveTracker::wanted(ch("3", "Chess"), settings));
  EXPECT_FALSE(LiveTracker::wanted(ch("1", std::nullopt), settings));
  EXPECT_TRUE(LiveTracker::wanted(ch("3", std::nullopt), Settings{}));
}

TEST(LiveTracker, RestoreSeedsTheLiveSetFromSavedIds) {
  LiveTracker tracker;
  tracker.update({ch("7")}, {});
  tracker.restore({"2", "1"});
  EXPECT_EQ(tracker.live_ids(), (Ids{"1", "2"}));  // 7 is gone: restore replaces
  EXPECT_EQ(ids(tracker.update({ch("1"), ch("2"), ch("3")}, {})), Ids{"3"});
  EXPECT_EQ(tracker.live().at("1").display_name, "Streamer1");  // placeholders replaced
}

TEST(AlertText, NamesTheChannelAndItsGame) {
  EXPECT_EQ(alert_text(ch("1", "Chess")), "Streamer1 is live playing Chess");
  EXPECT_EQ(alert_text(ch("1", std::nullopt)), "Streamer1 is live");
  sn::Channel unicode = ch("2", "Pokémon");
  unicode.display_name = "ストリーマー";
  EXPECT_EQ(alert_text(unicode), "ストリーマー is live playing Pokémon");
}

}  // namespace
}  // namespace live_alerts
