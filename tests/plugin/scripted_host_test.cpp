// The test helper itself: it reaps what it spawns and its stdout check is not vacuous.
#include <sys/wait.h>

#include <cerrno>
#include <thread>

#include "plugin_test_support.hpp"

namespace plugin_test {
namespace {

// waitpid() says the pid is no child of ours any more: reaped, not a zombie.
bool fully_reaped(pid_t pid) {
  int status = 0;
  return ::waitpid(pid, &status, WNOHANG) == -1 && errno == ECHILD;
}

TEST(ScriptedHost, ReapsAChildThatExitsOnStdinEof) {
  TempDir dir;
  pid_t pid = -1;
  {
    ScriptedHost host({"/bin/cat", dir.path() / "stderr.txt"});
    pid = host.pid();
    ASSERT_GT(pid, 0);
    host.start();
  }
  EXPECT_TRUE(fully_reaped(pid));
}

TEST(ScriptedHost, KillsAndReapsAChildThatWillNotExit) {
  TempDir dir;
  pid_t pid = -1;
  ScriptedHost::Options options("/bin/sleep", dir.path() / "stderr.txt", {"30"});
  options.exit_grace = Millis(50);
  auto started = Clock::now();
  {
    ScriptedHost host(options);
    pid = host.pid();
    host.start();
  }
  EXPECT_TRUE(fully_reaped(pid));
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(5));
}

TEST(ScriptedHost, ReportsExitCodeAndCapturesStderr) {
  TempDir dir;
  ScriptedHost host({"/bin/sh", dir.path() / "stderr.txt", {"-c", "echo to-stderr >&2; exit 3"}});
  host.start();
  EXPECT_EQ(host.wait_exit(), std::optional<int>(3));
  EXPECT_TRUE(host.reaped());
  EXPECT_NE(host.stderr_text().find("to-stderr"), std::string::npos);
}

TEST(ScriptedHost, StdoutCheckRejectsTextThatIsNotFrames) {
  TempDir dir;
  ScriptedHost host({"/bin/sh", dir.path() / "stderr.txt",
                     {"-c", "printf 'Content-Length: 2\\r\\n\\r\\n{}hello'"}});
  host.start();
  EXPECT_EQ(host.wait_exit(), std::optional<int>(0));
  // The reader drains the pipe to EOF; wait for it before looking at the bytes.
  const std::string expected = "Content-Length: 2\r\n\r\n{}hello";
  auto until = Clock::now() + kWait;
  while (host.stdout_bytes().size() < expected.size() && Clock::now() < until) {
    std::this_thread::sleep_for(Millis(2));
  }
  EXPECT_EQ(host.stdout_bytes(), expected);
  std::string problem = host.check_stdout_frames();
  EXPECT_NE(problem, "");  // "{}" is no JSON-RPC envelope, "hello" no frame
}

TEST(ScriptedHost, StdoutCheckAcceptsFramesOnly) {
  TempDir dir;
  ScriptedHost host({"/bin/sh", dir.path() / "stderr.txt",
                     {"-c", "printf 'Content-Length: 17\\r\\n\\r\\n{\"jsonrpc\":\"2.0\"}'"}});
  host.start();
  EXPECT_EQ(host.wait_exit(), std::optional<int>(0));
  ASSERT_TRUE(host.wait_for([](const Frame& f) { return f.json.is_object(); }));
  std::size_t count = 0;
  EXPECT_EQ(host.check_stdout_frames(&count), "");
  EXPECT_EQ(count, 1u);
}

}  // namespace
}  // namespace plugin_test
