// live-alerts' state in data_dir across restarts (spec 2: events missed while a plugin is
// down are not replayed; after a restart it rebuilds its view from get_followed_live).
#include <fstream>

#include "plugin_test_support.hpp"

namespace plugin_test {
namespace {

Json read_json(const fs::path& path) {
  std::ifstream in(path);
  return Json::parse(in, nullptr, false);
}

TEST(PluginState, FirstRunWithoutStateIsABaseline) {
  TempDir dir;
  LiveAlertsHost la(dir.path());
  la.set_live(channels({"1", "2", "3"}));
  la.handshake(init_params(full_grant(), dir.path()));
  la.stop();
  EXPECT_EQ(la.host.count_from_plugin("get_followed_live"), 1u);
  EXPECT_EQ(la.host.count_from_plugin("notify"), 0u);
  Json state = read_json(dir.path() / "data" / "state.json");
  EXPECT_EQ(state.value("live", Json()), (Json{"1", "2", "3"})) << state.dump();
}

TEST(PluginState, RestartAlertsOnlyWhatWentLiveWhileDown) {
  TempDir dir;
  {
    LiveAlertsHost first(dir.path(), "stderr-1.txt");
    first.set_live(channels({"1"}));
    first.handshake(init_params(full_grant(), dir.path()));
    first.host.notify("on_followed_live", Json{{"channels", channels({"1", "2"})}});
    ASSERT_TRUE(first.host.wait_request("notify"));
    first.stop();
    EXPECT_EQ(notify_messages(first.host), std::vector<std::string>{alert_for("2")});
  }
  EXPECT_EQ(read_json(dir.path() / "data" / "state.json").value("live", Json()),
            (Json{"1", "2"}));

  // While it was down: 3 went live, 1 went offline. No event is replayed.
  LiveAlertsHost second(dir.path(), "stderr-2.txt");
  second.set_live(channels({"2", "3"}));
  second.handshake(init_params(full_grant(), dir.path()));
  ASSERT_TRUE(second.host.wait_request("notify"));
  second.stop();
  EXPECT_EQ(notify_messages(second.host), std::vector<std::string>{alert_for("3")});
  EXPECT_EQ(read_json(dir.path() / "data" / "state.json").value("live", Json()),
            (Json{"2", "3"}));
}

TEST(PluginState, RestartWithoutGetFollowedLiveDiffsTheFirstEventAgainstTheState) {
  TempDir dir;
  {
    LiveAlertsHost first(dir.path(), "stderr-1.txt");
    first.set_live(channels({"1", "2"}));
    first.handshake(init_params(full_grant(), dir.path()));
    first.stop();
  }
  LiveAlertsHost second(dir.path(), "stderr-2.txt");
  second.handshake(init_params(grant({"on_followed_live"}, {"notify", "log"}, {}), dir.path()));
  second.host.notify("on_followed_live", Json{{"channels", channels({"1", "2", "4"})}});
  ASSERT_TRUE(second.host.wait_request("notify"));
  second.stop();
  EXPECT_EQ(notify_messages(second.host), std::vector<std::string>{alert_for("4")});
}

TEST(PluginState, CorruptStateFileIsReportedAndTreatedAsAFirstRun) {
  TempDir dir;
  fs::create_directories(dir.path() / "data");
  {
    std::ofstream out(dir.path() / "data" / "state.json");
    out << "{\"live\": [\"1\", ";  // cut short
  }
  LiveAlertsHost la(dir.path());
  la.set_live(channels({"1", "2"}));
  la.handshake(init_params(full_grant(), dir.path()));
  auto warning = la.host.wait_for([](const Frame& f) {
    return f.method() == "log" && f.params().value("level", "") == "warning" &&
           f.params().at("message").get<std::string>().find("is not a valid state file") !=
               std::string::npos;
  });
  EXPECT_TRUE(warning);
  la.stop();
  EXPECT_EQ(la.host.count_from_plugin("notify"), 0u);
  EXPECT_EQ(read_json(dir.path() / "data" / "state.json").value("live", Json()),
            (Json{"1", "2"}));
}

}  // namespace
}  // namespace plugin_test
