// Process hygiene: no descriptor of the host leaks into a plugin, no zombie is left behind
// (every test's TearDown checks that too), and an application may call the Host from its
// callbacks without deadlocking it.
#include <fcntl.h>
#include <unistd.h>

#include "host_test_support.hpp"

namespace host_test {
namespace {

class HostHygiene : public HostTest {};

using namespace std::chrono_literals;

TEST_F(HostHygiene, NoDescriptorOfTheHostLeaksIntoThePlugin) {
  // Descriptors without O_CLOEXEC, as a careless application would have them.
  int stray_file = ::open("/dev/null", O_RDONLY);
  int stray_pipe[2] = {-1, -1};
  ASSERT_GE(stray_file, 0);
  ASSERT_EQ(::pipe(stray_pipe), 0);
  make_host(0.05);
  add(PluginSpec("test.fds", {"well-behaved", "report_fds"}).with_host_methods({"log"}));
  host().start("test.fds");
  ASSERT_TRUE(app_.await([&] { return !app_.calls("test.fds", "log").empty(); }, 10s));
  EXPECT_EQ(app_.calls("test.fds", "log")[0].params["message"], "fds=0,1,2");
  ::close(stray_file);
  ::close(stray_pipe[0]);
  ::close(stray_pipe[1]);
}

TEST_F(HostHygiene, NoZombieWhileRestartingNorAfterwards) {
  make_host(0.05);
  add(PluginSpec("test.crashy", {"crash-after-initialize", "code=2"}));
  add(PluginSpec("test.steady", {"well-behaved"}));
  host().start_all();
  ASSERT_TRUE(await_running("test.steady"));
  ASSERT_TRUE(app_.await_lifecycle("test.crashy", Kind::kStopped, StopCause::kCrashed, 2, 10s));
  // A crashed plugin is reaped as soon as its exit is seen: never a zombie.
  EXPECT_EQ(zombie_pids(), std::vector<int>{});
  // Both plugin processes are ours while they run.
  int steady_pid = plugin_state("test.steady")["pid"];
  auto children = child_pids();
  EXPECT_NE(std::find(children.begin(), children.end(), steady_pid), children.end());
  host().stop_all();
  EXPECT_EQ(zombie_pids(), std::vector<int>{});
  // TearDown: none left at all once the host is gone.
}

TEST_F(HostHygiene, DestroyingARunningHostStopsAndReapsEverything) {
  make_host(0.05);
  add(PluginSpec("test.a", {"well-behaved"}));
  add(PluginSpec("test.b", {"no-exit-after-exit"}));
  add(PluginSpec("test.c", {"hang-in-initialize"}));
  host().start_all();
  ASSERT_TRUE(await_running("test.a"));
  ASSERT_TRUE(await_running("test.b"));
  ASSERT_TRUE(
      app_.await([&] { return app_.count_frames("test.c", true, "initialize") >= 1; }, 10s));
  EXPECT_EQ(child_pids().size(), 3u);
  {
    Watchdog watchdog("~Host", 30s);
    destroy_host();
  }
  EXPECT_EQ(child_pids(), std::vector<int>{});
}

// The application calls back into the Host from on_report and on_lifecycle (e.g. to show the
// plugin's state next to a report): reports made while the host holds its own locks must not
// deadlock.
TEST_F(HostHygiene, CallbacksMayCallTheHost) {
  Watchdog watchdog("callbacks calling the Host", 60s);
  make_host(0.05, 4);
  app_.set_reentrant_host(&host());
  // A report from add_plugin (duplicate id).
  add(PluginSpec("test.reentrant", {"stop-reading"}).with_events({"on_chat_message"}));
  rs::LoadedManifest again = load(dir_.path() / "plugins" / "test.reentrant");
  EXPECT_FALSE(host().add_plugin(again, grant({}, {})));
  EXPECT_TRUE(app_.has_report("test.reentrant", "already loaded"));
  host().start("test.reentrant");
  ASSERT_TRUE(await_running("test.reentrant"));
  // Reports from emit() (events dropped because the plugin does not read).
  ASSERT_TRUE(eventually(
      [&] {
        host().emit<msg::OnChatMessage>(chat(1, 8192));
        return app_.has_report("test.reentrant", "dropped: the plugin is not reading");
      },
      10s));
  // Stopping and destroying the host (TearDown) with the callbacks still calling it.
  destroy_host();
}

}  // namespace
}  // namespace host_test
