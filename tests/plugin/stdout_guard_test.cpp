// StdoutGuard, end to end: a plugin whose handlers printf, std::cout and write(1, ...) keeps a
// valid frame stream on stdout, and the text lands in the captured stderr (the host's log).
#include "plugin_test_support.hpp"

namespace plugin_test {
namespace {

TEST(PluginStdoutGuard, HandlerNoiseGoesToStderrAndFramesStayValid) {
  TempDir dir;
  ScriptedHost host({kNoisyPluginExe, dir.path() / "stderr.txt"});
  host.start();
  rpckit::CallResult init =
      host.call("initialize", init_params(grant({"on_followed_live"}, {}, {}), dir.path()));
  ASSERT_TRUE(init.ok()) << error_of(init).dump();
  EXPECT_EQ(init.result().at("hooks"), Json{"on_followed_live"});
  host.notify("initialized", Json::object());
  host.notify("on_followed_live", Json{{"channels", channels({"1"})}});
  rpckit::CallResult echo =
      host.call("invoke_action", Json{{"action", "noisy.echo"}, {"args", {{"x", 1}}}});
  ASSERT_TRUE(echo.ok()) << error_of(echo).dump();
  EXPECT_EQ(echo.result(), (Json{{"echo", {{"x", 1}}}}));
  rpckit::CallResult pong = host.call("ping", Json::object());
  ASSERT_TRUE(pong.ok()) << error_of(pong).dump();
  rpckit::CallResult bye = host.call("shutdown", std::nullopt);
  ASSERT_TRUE(bye.ok()) << error_of(bye).dump();
  EXPECT_TRUE(bye.result().is_null());
  host.notify("exit", std::nullopt);
  ASSERT_EQ(host.wait_exit(), std::optional<int>(0));

  std::size_t frames = 0;
  EXPECT_EQ(host.check_stdout_frames(&frames), "");
  EXPECT_EQ(frames, 4u);  // initialize, invoke_action, ping, shutdown answers
  EXPECT_EQ(host.stdout_bytes().find("noisy"), std::string::npos);

  std::string err = host.stderr_text();
  for (const char* where : {"on_start", "on_followed_live", "noisy.echo", "shutdown"}) {
    for (const char* how : {"printf", "cout", "write(1)"}) {
      std::string line = std::string("noisy ") + how + " in " + where;
      EXPECT_NE(err.find(line), std::string::npos) << line << "\nstderr:\n" << err;
    }
  }
  EXPECT_NE(err.find("noisy puts, never flushed by the handler"), std::string::npos) << err;
}

}  // namespace
}  // namespace plugin_test
