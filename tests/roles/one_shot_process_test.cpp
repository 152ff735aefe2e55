// The spawner's side of a one-shot exchange (rpckit::roles::OneShotProcess) against real
// children that misbehave: each stall ends at its deadline with the status that names it,
// whatever the load (every case blocks for certain; the deadline only decides when it ends).
#include "rpckit/roles/one_shot_process.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace rpckit::roles {
namespace {

using std::chrono::milliseconds;
using Status = LineReceived::Status;

OneShotProcess::Settings sh(const std::string& script, milliseconds invoke = milliseconds(0)) {
  OneShotProcess::Settings s;
  s.spawn.executable = "/bin/sh";
  s.spawn.args = {"-c", script};
  s.spawn.stderr_log = "/dev/null";
  s.max_line_bytes = 8 * 1024 * 1024;
  s.strict_lines = true;
  s.invoke_timeout = invoke;
  s.teardown_timeout = milliseconds(10000);  // ends early when the child exits
  s.reap_timeout = milliseconds(10000);
  return s;
}

TEST(OneShotProcess, ReadsStrictLinesAsJsonObjects) {
  OneShotProcess p(sh("printf '  {\"a\": 1} \\r\\n\\n[2]\\n{\"b\"'"));
  ASSERT_EQ(p.launch(), std::nullopt);
  LineReceived first = p.receive_line(milliseconds(0));
  ASSERT_EQ(first.status, Status::kOk) << first.reason;
  EXPECT_EQ(first.message, nlohmann::json::parse(R"({"a": 1})"));
  EXPECT_EQ(first.line, R"({"a": 1})");
  LineReceived blank = p.receive_line(milliseconds(0));
  EXPECT_EQ(blank.status, Status::kMalformed);
  EXPECT_EQ(blank.reason, "an empty line");
  LineReceived array = p.receive_line(milliseconds(0));
  EXPECT_EQ(array.status, Status::kMalformed);
  EXPECT_EQ(array.reason, "a JSON array, not an object");
  // The last line ended by EOF, not a newline, is a line; this one is cut short.
  LineReceived last = p.receive_line(milliseconds(0));
  EXPECT_EQ(last.status, Status::kMalformed);
  EXPECT_EQ(last.line, R"({"b")");
  EXPECT_EQ(last.reason.rfind("not one JSON value: ", 0), 0U) << last.reason;
  EXPECT_EQ(p.receive_line(milliseconds(0)).status, Status::kEof);
}

TEST(OneShotProcess, ALineThatIsNotAnObjectIsMalformed) {
  OneShotProcess p(sh("echo '\"text\"'; echo '{\"a\":1} x'"));
  ASSERT_EQ(p.launch(), std::nullopt);
  EXPECT_EQ(p.receive_line(milliseconds(0)).reason, "a JSON string, not an object");
  LineReceived trailing = p.receive_line(milliseconds(0));  // more than one JSON value
  EXPECT_EQ(trailing.status, Status::kMalformed);
  EXPECT_EQ(trailing.reason.rfind("not one JSON value: ", 0), 0U) << trailing.reason;
}

TEST(OneShotProcess, TheEndOfOutputIsEof) {
  OneShotProcess p(sh("exit 0"));
  ASSERT_EQ(p.launch(), std::nullopt);
  EXPECT_EQ(p.receive_line(milliseconds(0)).status, Status::kEof);
}

TEST(OneShotProcess, SilenceEndsAtTheStepDeadline) {
  OneShotProcess p(sh("exec sleep 60"));
  ASSERT_EQ(p.launch(), std::nullopt);
  LineReceived got = p.receive_line(milliseconds(100));
  EXPECT_EQ(got.status, Status::kTimeout);
  EXPECT_EQ(got.reason, "nothing within 100 ms");
  EXPECT_FALSE(p.expired());
  EXPECT_TRUE(p.abort());
}

TEST(OneShotProcess, SilenceEndsAtTheInvokeDeadline) {
  OneShotProcess p(sh("exec sleep 60", milliseconds(200)));
  ASSERT_EQ(p.launch(), std::nullopt);
  LineReceived got = p.receive_line(milliseconds(0));
  EXPECT_EQ(got.status, Status::kTimeout);
  EXPECT_EQ(got.reason, "the invoke deadline (200 ms) passed");
  EXPECT_TRUE(p.expired());
}

// 2 MiB into a pipe nobody reads blocks the writer for good; the watchdog kills the child.
TEST(OneShotProcess, AWriteToAChildThatNeverReadsEndsAtTheInvokeDeadline) {
  OneShotProcess p(sh("exec sleep 60", milliseconds(200)));
  ASSERT_EQ(p.launch(), std::nullopt);
  std::error_code error = p.send_line("\"" + std::string(2 * 1024 * 1024, 'x') + "\"");
  EXPECT_EQ(error, std::errc::timed_out);
}

// The same when the pipes are held by a grandchild (a wrapper script's program): the whole
// process group is killed.
TEST(OneShotProcess, AGrandchildHoldingThePipesDiesWithTheChild) {
  OneShotProcess p(sh("sleep 60; exit 0", milliseconds(200)));
  ASSERT_EQ(p.launch(), std::nullopt);
  std::error_code error = p.send_line("\"" + std::string(2 * 1024 * 1024, 'x') + "\"");
  EXPECT_EQ(error, std::errc::timed_out);
  EXPECT_EQ(p.receive_line(milliseconds(0)).status, Status::kTimeout);
}

TEST(OneShotProcess, FinishReportsTheExitStatus) {
  OneShotProcess p(sh("cat >/dev/null; exit 3"));
  ASSERT_EQ(p.launch(), std::nullopt);
  EXPECT_FALSE(p.send_line("{}"));
  auto done = p.finish();
  EXPECT_EQ(done.status, OneShotProcess::Finish::Status::kExited);
  EXPECT_EQ(done.exit.code, 3);
}

TEST(OneShotProcess, AChildThatOutlivesItsStdinIsStillRunningAfterTheTeardown) {
  auto s = sh("exec sleep 60");
  s.teardown_timeout = milliseconds(200);
  OneShotProcess p(s);
  ASSERT_EQ(p.launch(), std::nullopt);
  EXPECT_EQ(p.finish().status, OneShotProcess::Finish::Status::kStillRunning);
  EXPECT_TRUE(p.abort());
}

TEST(OneShotProcess, LaunchSaysWhyItCannotStart) {
  auto missing = sh("");
  missing.spawn.executable = "/nonexistent/plugin";
  EXPECT_EQ(OneShotProcess(missing).launch(), "/nonexistent/plugin is not an existing regular file");
  auto not_on_path = sh("");
  not_on_path.spawn.executable = "no-such-command-anywhere";
  EXPECT_EQ(OneShotProcess(not_on_path).launch(), "\"no-such-command-anywhere\" is not on PATH");
  auto no_dir = sh("");
  no_dir.spawn.working_dir = "/nonexistent/dir";
  EXPECT_EQ(OneShotProcess(no_dir).launch(), "working directory /nonexistent/dir is not a directory");
}

TEST(OneShotProcess, TheChildSeesOnlyTheGivenEnvironment) {
  auto s = sh("env");
  s.spawn.environment = std::vector<std::string>{"ONLY=this"};
  OneShotProcess p(s);
  ASSERT_EQ(p.launch(), std::nullopt);
  // The shell itself may add PWD, SHLVL and _ to what it prints; nothing of ours is there.
  std::vector<std::string> names;
  for (LineReceived got = p.receive_line(milliseconds(0)); got.status != Status::kEof;
       got = p.receive_line(milliseconds(0))) {
    names.push_back(got.line.substr(0, got.line.find('=')));
    if (names.back() == "ONLY") {
      EXPECT_EQ(got.line, "ONLY=this");
    }
  }
  std::sort(names.begin(), names.end());
  for (const char* own : {"PWD", "SHLVL", "_"}) {
    names.erase(std::remove(names.begin(), names.end(), own), names.end());
  }
  EXPECT_EQ(names, std::vector<std::string>{"ONLY"});
}

}  // namespace
}  // namespace rpckit::roles
