// Supervision with real processes: crashes, launch failures, handshake timeouts, missed
// pings, protocol violations on stdout, protocol version mismatch, exit grace, clean stops,
// and the plugin's data_dir / log file.
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <future>
#include <set>

#include "host_test_support.hpp"

namespace host_test {
namespace {

using namespace std::chrono_literals;
using std::chrono::microseconds;

// The kinds of a plugin's lifecycle, in order, as text ("stopped(crashed)").
std::vector<std::string> sequence(const std::vector<LifecycleRecord>& records) {
  std::vector<std::string> out;
  for (const auto& r : records) {
    std::string s(rs::to_string(r.kind));
    if (r.kind != Kind::kStarting && r.kind != Kind::kRunning) {
      s += "(" + std::string(rpckit::supervision::to_string(r.cause)) + ")";
    }
    out.push_back(s);
  }
  return out;
}

const LifecycleRecord* find(const std::vector<LifecycleRecord>& records, Kind kind,
                            std::size_t nth = 0) {
  for (const auto& r : records) {
    if (r.kind == kind && nth-- == 0) return &r;
  }
  return nullptr;
}

const LifecycleRecord* find(std::vector<LifecycleRecord>&& records, Kind kind,
                            std::size_t nth = 0) = delete;  // would dangle

class HostLifecycle : public HostTest {};

// crash at start -> stopped(crashed), restarts after 1 s, 5 s, 25 s (scaled), and the failure
// that would be restart number 4 within the window disables the plugin.
TEST_F(HostLifecycle, CrashAtStartRestartsWithBackoffThenDisables) {
  make_host(0.02);  // backoff 20, 100, 500 ms
  add(PluginSpec("test.crash-at-start", {"crash-at-start", "code=3"}));
  host().start("test.crash-at-start");
  ASSERT_TRUE(app_.await_lifecycle("test.crash-at-start", Kind::kDisabled, 1, 10s));
  std::this_thread::sleep_for(700ms);  // longer than the longest backoff: nothing more happens

  auto records = app_.lifecycle("test.crash-at-start");
  EXPECT_EQ(sequence(records), (std::vector<std::string>{
                                   "starting", "stopped(crashed)", "restart_scheduled(crashed)",  //
                                   "starting", "stopped(crashed)", "restart_scheduled(crashed)",  //
                                   "starting", "stopped(crashed)", "restart_scheduled(crashed)",  //
                                   "starting", "stopped(crashed)", "disabled(crashed)"}));
  std::vector<milliseconds> delays;
  for (const auto& r : records) {
    if (r.kind == Kind::kStopped) {
      EXPECT_EQ(r.detail, "exit code 3");
    }
    if (r.kind == Kind::kRestartScheduled) delays.push_back(r.delay);
  }
  EXPECT_EQ(delays, (std::vector<milliseconds>{20ms, 100ms, 500ms}));
  const LifecycleRecord* disabled = find(records, Kind::kDisabled);
  ASSERT_NE(disabled, nullptr);
  EXPECT_NE(disabled->detail.find("more than 3 restarts"), std::string::npos) << disabled->detail;
  EXPECT_EQ(host().state("test.crash-at-start"), State::kDisabled);
  // The user is told, once, in words.
  auto told = app_.told("test.crash-at-start");
  ASSERT_EQ(told.size(), 1u);
  EXPECT_NE(told[0].find("disabled: it kept failing (crashed)"), std::string::npos) << told[0];
  // The stderr of all four processes reached the log file.
  std::string log = read_file(log_dir("test.crash-at-start") / "plugin.log");
  std::vector<microseconds> launched;  // each process's own steady-clock reading at start
  const std::string started = "mode=crash-at-start started at_us=";
  for (auto at = log.find(started); at != std::string::npos; at = log.find(started, at + 1)) {
    launched.emplace_back(std::stoll(log.substr(at + started.size())));
  }
  ASSERT_EQ(launched.size(), 4u) << log;
  // Each restart really waited for its backoff. Read from the processes' own clocks, not from
  // when the events reached the application (their delivery may lag): process n printed its
  // time before it exited, the backoff began after the exit, and process n+1 printed after it.
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_GE(launched[i + 1] - launched[i], delays[i]) << "restart " << i + 1;
  }
}

// The manifest loader refuses an entry outside the plugin directory, so the tests copy or
// symlink the plugin binary into <dir>/bin/.
TEST_F(HostLifecycle, AbsoluteOrEscapingEntryIsRefusedByTheManifestLoader) {
  for (const std::string& entry : {std::string(kMisbehavingPluginExe), std::string("../plugin")}) {
    fs::path dir = dir_.path() / "bad-entry";
    fs::create_directories(dir);
    std::ofstream(dir / "plugin.toml")
        << "id = \"test.bad-entry\"\nname = \"x\"\nversion = \"1.0.0\"\nauthor = \"a\"\n"
        << "tier = \"C\"\ndescription = \"\"\nhost_min = \"7.0.0\"\n[runtime]\n"
        << "kind = \"process\"\nentry = " << Json(entry).dump() << "\n";
    rs::ManifestResult result = rs::load_manifest(dir);
    ASSERT_FALSE(result.ok()) << entry;
    EXPECT_EQ(result.issues[0].field, "runtime.entry") << result.issues[0].str();
  }
}

// A launch failure is reported as a lifecycle event (never thrown) and handled as a failure.
TEST_F(HostLifecycle, MissingEntryIsLaunchFailedNotThrown) {
  make_host(0.02);
  PluginSpec spec = PluginSpec("test.missing-entry", {"well-behaved"});
  spec.entry = PluginSpec::Entry::kMissing;
  add(spec);
  EXPECT_NO_THROW(host().start("test.missing-entry"));
  ASSERT_TRUE(app_.await_lifecycle("test.missing-entry", Kind::kDisabled, 1, 10s));
  auto records = app_.lifecycle("test.missing-entry");
  EXPECT_EQ(sequence(records),
            (std::vector<std::string>{
                "starting", "stopped(launch_failed)", "restart_scheduled(launch_failed)",  //
                "starting", "stopped(launch_failed)", "restart_scheduled(launch_failed)",  //
                "starting", "stopped(launch_failed)", "restart_scheduled(launch_failed)",  //
                "starting", "stopped(launch_failed)", "disabled(launch_failed)"}));
  const LifecycleRecord* stopped = find(records, Kind::kStopped);
  ASSERT_NE(stopped, nullptr);
  EXPECT_NE(stopped->detail.find("bin/plugin"), std::string::npos) << stopped->detail;
  EXPECT_NE(stopped->detail.find("No such file"), std::string::npos) << stopped->detail;
  EXPECT_EQ(app_.count_frames("test.missing-entry", true, "initialize"), 0);
}

TEST_F(HostLifecycle, EntryNotExecutableIsLaunchFailed) {
  make_host(0.02);
  PluginSpec spec = PluginSpec("test.not-executable", {"well-behaved"});
  spec.entry = PluginSpec::Entry::kNotExecutable;
  add(spec);
  host().start("test.not-executable");
  ASSERT_TRUE(app_.await_lifecycle("test.not-executable", Kind::kStopped, StopCause::kLaunchFailed,
                                   1, 10s));
  auto records = app_.lifecycle("test.not-executable");
  const LifecycleRecord* stopped = find(records, Kind::kStopped);
  ASSERT_NE(stopped, nullptr);
  EXPECT_NE(stopped->detail.find("Permission denied"), std::string::npos) << stopped->detail;
  ASSERT_TRUE(app_.await_lifecycle("test.not-executable", Kind::kRestartScheduled,
                                   StopCause::kLaunchFailed, 1, 10s));
  ASSERT_TRUE(app_.await_lifecycle("test.not-executable", Kind::kDisabled, 1, 10s));
}

TEST_F(HostLifecycle, CrashAfterInitializeReportsTheExitStatus) {
  make_host(0.05);
  add(PluginSpec("test.crash-after-init", {"crash-after-initialize", "code=7"}));
  host().start("test.crash-after-init");
  ASSERT_TRUE(app_.await_lifecycle("test.crash-after-init", Kind::kRestartScheduled, 1, 10s));
  auto records = app_.lifecycle("test.crash-after-init");
  ASSERT_GE(records.size(), 4u);
  EXPECT_EQ(sequence({records.begin(), records.begin() + 4}),
            (std::vector<std::string>{"starting", "running", "stopped(crashed)",
                                      "restart_scheduled(crashed)"}));
  EXPECT_EQ(records[2].detail, "exit code 7");
  EXPECT_EQ(records[3].delay, 50ms);
  // It was restarted: a second process ran through the handshake.
  ASSERT_TRUE(app_.await_lifecycle("test.crash-after-init", Kind::kRunning, 2, 10s));
}

TEST_F(HostLifecycle, KilledBySignalReportsSignal9) {
  make_host(0.05);
  add(PluginSpec("test.killed", {"crash-after-initialize", "signal=1"}));
  host().start("test.killed");
  ASSERT_TRUE(app_.await_lifecycle("test.killed", Kind::kStopped, StopCause::kCrashed, 1, 10s));
  auto records = app_.lifecycle("test.killed");
  const LifecycleRecord* stopped = find(records, Kind::kStopped);
  ASSERT_NE(stopped, nullptr);
  EXPECT_EQ(stopped->detail.rfind("signal 9", 0), 0u) << stopped->detail;
  ASSERT_TRUE(
      app_.await_lifecycle("test.killed", Kind::kRestartScheduled, StopCause::kCrashed, 1, 10s));
}

TEST_F(HostLifecycle, HangInInitializeIsHandshakeTimeoutThenRestart) {
  make_host(0.02, 1024, kProtocolHandshake);  // handshake 200 ms
  add(PluginSpec("test.hang-init", {"hang-in-initialize"}));
  // Taken before the start: an event's time is when it reached the application, which may lag.
  const auto began = Clock::now();
  host().start("test.hang-init");
  ASSERT_TRUE(app_.await_lifecycle("test.hang-init", Kind::kStarting, 2, 10s));
  auto records = app_.lifecycle("test.hang-init");
  EXPECT_EQ(sequence({records.begin(), records.begin() + 4}),
            (std::vector<std::string>{"starting", "stopped(handshake_timeout)",
                                      "restart_scheduled(handshake_timeout)", "starting"}));
  EXPECT_GE(records[1].at - began, 200ms);
  EXPECT_NE(records[1].detail.find("200 ms"), std::string::npos) << records[1].detail;
  EXPECT_EQ(app_.count("test.hang-init", Kind::kRunning), 0);
  // The hanging process was killed: each generation has at most one live process.
  EXPECT_LE(child_pids().size(), 1u);
}

TEST_F(HostLifecycle, IgnoredPingsMakeThePluginUnhealthyAfterThreeMisses) {
  make_host(0.03);  // pings every 900 ms
  add(PluginSpec("test.ignore-pings", {"ignore-pings"}));
  const auto began = Clock::now();  // before the start, for the same reason
  host().start("test.ignore-pings");
  ASSERT_TRUE(
      app_.await_lifecycle("test.ignore-pings", Kind::kStopped, StopCause::kUnhealthy, 1, 15s));
  auto records = app_.lifecycle("test.ignore-pings");
  const LifecycleRecord* running = find(records, Kind::kRunning);
  const LifecycleRecord* stopped = find(records, Kind::kStopped);
  ASSERT_TRUE(running != nullptr && stopped != nullptr);
  EXPECT_NE(stopped->detail.find("3 health checks"), std::string::npos) << stopped->detail;
  // Three pings went out unanswered before the verdict (the 4th interval decides).
  EXPECT_GE(stopped->at - began, 3 * 900ms);
  int pings = 0;
  for (const auto& f : app_.frames("test.ignore-pings")) {
    if (f.outgoing && f.at <= stopped->at && f.message.value("method", "") == "ping") ++pings;
  }
  EXPECT_EQ(pings, 3);
  ASSERT_TRUE(app_.await_lifecycle("test.ignore-pings", Kind::kRestartScheduled,
                                   StopCause::kUnhealthy, 1, 5s));
}

TEST_F(HostLifecycle, GarbageOnStdoutIsMalformedFrameAndAFailure) {
  make_host(0.05);
  add(PluginSpec("test.garbage", {"garbage-stdout"}));
  host().start("test.garbage");
  ASSERT_TRUE(app_.await_lifecycle("test.garbage", Kind::kRestartScheduled, 1, 10s));
  auto records = app_.lifecycle("test.garbage");
  EXPECT_EQ(sequence({records.begin(), records.begin() + 4}),
            (std::vector<std::string>{"starting", "running", "stopped(malformed_frame)",
                                      "restart_scheduled(malformed_frame)"}));
  // The plugin hangs after the garbage: only the host's kill ends it, and it is restarted.
  ASSERT_TRUE(app_.await_lifecycle("test.garbage", Kind::kStarting, 2, 10s));
}

TEST_F(HostLifecycle, OversizedFrameIsOversizedFrameAndAFailure) {
  make_host(0.05);
  add(PluginSpec("test.oversized", {"oversized-frame"}));
  host().start("test.oversized");
  ASSERT_TRUE(app_.await_lifecycle("test.oversized", Kind::kRestartScheduled, 1, 10s));
  auto records = app_.lifecycle("test.oversized");
  EXPECT_EQ(sequence({records.begin(), records.begin() + 4}),
            (std::vector<std::string>{"starting", "running", "stopped(oversized_frame)",
                                      "restart_scheduled(oversized_frame)"}));
  EXPECT_NE(records[2].detail.find("4194305"), std::string::npos) << records[2].detail;
  ASSERT_TRUE(app_.await_lifecycle("test.oversized", Kind::kStarting, 2, 10s));
}

TEST_F(HostLifecycle, ProtocolVersionMismatchDisablesWithoutRestart) {
  make_host(0.02);
  add(PluginSpec("test.mismatch", {"protocol-mismatch"}));
  host().start("test.mismatch");
  ASSERT_TRUE(app_.await_lifecycle("test.mismatch", Kind::kDisabled, 1, 10s));
  std::this_thread::sleep_for(100ms);  // several backoff periods: no restart follows
  // The supervisor's cause is the profile's slot (a handshake rejected for good); the
  // detail says StreamNook's reason.
  EXPECT_NE(app_.lifecycle("test.mismatch").at(1).detail.find("protocol_version_mismatch"),
            std::string::npos);
  EXPECT_EQ(sequence(app_.lifecycle("test.mismatch")),
            (std::vector<std::string>{"starting", "stopped(handshake_rejected)",
                                      "disabled(handshake_rejected)"}));
  EXPECT_EQ(host().state("test.mismatch"), State::kDisabled);
  EXPECT_EQ(app_.count_frames("test.mismatch", true, "initialized"), 0);
  auto told = app_.told("test.mismatch");
  ASSERT_EQ(told.size(), 1u);
  EXPECT_NE(told[0].find("disabled: it does not speak StreamNook protocol version 1"),
            std::string::npos)
      << told[0];
}

// Spec 9.2 names the error; its code is not what recognises it.
TEST_F(HostLifecycle, ProtocolVersionMismatchIsRecognisedByItsNameWhateverTheCode) {
  make_host(0.02);
  add(PluginSpec("test.mismatch-code", {"protocol-mismatch", "code=-32099"}));
  host().start("test.mismatch-code");
  ASSERT_TRUE(app_.await_lifecycle("test.mismatch-code", Kind::kDisabled, 1, 10s));
  EXPECT_EQ(sequence(app_.lifecycle("test.mismatch-code")),
            (std::vector<std::string>{"starting", "stopped(handshake_rejected)",
                                      "disabled(handshake_rejected)"}));
}

// Spec 2: on process exit the host restarts the plugin with backoff, a clean exit included.
TEST_F(HostLifecycle, APluginThatExitsByItselfWithStatusZeroIsRestartedWithBackoff) {
  make_host(0.05);
  add(PluginSpec("test.self-exit", {"crash-after-initialize", "code=0"}));
  host().start("test.self-exit");
  ASSERT_TRUE(app_.await_lifecycle("test.self-exit", Kind::kRunning, 2, 10s));
  auto records = app_.lifecycle("test.self-exit");
  ASSERT_GE(records.size(), 5u);
  EXPECT_EQ(sequence({records.begin(), records.begin() + 5}),
            (std::vector<std::string>{"starting", "running", "stopped(crashed)",
                                      "restart_scheduled(crashed)", "starting"}));
  EXPECT_EQ(records[2].detail, "exit code 0");
  EXPECT_EQ(records[3].delay, 50ms);
}

TEST_F(HostLifecycle, NoExitAfterExitIsKilledAfterTheGracePeriod) {
  make_host(0.05);  // exit grace 250 ms
  add(PluginSpec("test.no-exit", {"no-exit-after-exit"}));
  host().start("test.no-exit");
  ASSERT_TRUE(await_running("test.no-exit"));
  auto before = Clock::now();
  {
    Watchdog watchdog("stop of a plugin that ignores exit", 30s);
    host().stop("test.no-exit");
  }
  auto took = Clock::now() - before;
  EXPECT_GE(took, 250ms - 2ms);
  EXPECT_EQ(host().state("test.no-exit"), State::kStopped);
  auto records = app_.lifecycle("test.no-exit");
  EXPECT_EQ(sequence(records),
            (std::vector<std::string>{"starting", "running", "stopped(exit_timeout)"}));
  EXPECT_NE(records.back().detail.find("SIGKILL"), std::string::npos) << records.back().detail;
  EXPECT_EQ(app_.count_frames("test.no-exit", true, "shutdown"), 1);
  EXPECT_EQ(app_.count_frames("test.no-exit", true, "exit"), 1);
  EXPECT_NE(read_file(log_dir("test.no-exit") / "plugin.log").find("ignoring exit"),
            std::string::npos);
  EXPECT_EQ(child_pids(), std::vector<int>{});
}

TEST_F(HostLifecycle, StopIsShutdownThenExitThenStoppedRequested) {
  // Real timings: a scaled grace (250 ms at 0.05) can be outlasted by a sanitizer build's exit
  // on a loaded machine, 5 s cannot; so a kill here is a failure. The plugin exits at once, so
  // the test stays short (no other timer fires in it).
  make_host(1.0);
  add(PluginSpec("test.clean", {"well-behaved"}).with_entry(PluginSpec::Entry::kCopy));
  host().start("test.clean");
  ASSERT_TRUE(await_running("test.clean"));
  host().stop("test.clean");
  EXPECT_EQ(host().state("test.clean"), State::kStopped);
  auto records = app_.lifecycle("test.clean");
  EXPECT_EQ(sequence(records),
            (std::vector<std::string>{"starting", "running", "stopped(requested)"}));
  EXPECT_EQ(records.back().detail, "exit code 0");
  // The wire: shutdown (a request without params) answered, then exit (no params).
  std::vector<Json> sent;
  for (const auto& f : app_.frames("test.clean")) {
    if (f.outgoing) sent.push_back(f.message);
  }
  ASSERT_GE(sent.size(), 4u);
  const Json& shutdown = sent[sent.size() - 2];
  const Json& exit = sent.back();
  EXPECT_EQ(shutdown.value("method", ""), "shutdown");
  EXPECT_TRUE(shutdown.contains("id"));
  EXPECT_FALSE(shutdown.contains("params"));
  EXPECT_EQ(exit.value("method", ""), "exit");
  EXPECT_FALSE(exit.contains("id"));
  EXPECT_FALSE(exit.contains("params"));
  // Started again after a stop: a fresh run.
  host().start("test.clean");
  ASSERT_TRUE(app_.await_lifecycle("test.clean", Kind::kRunning, 2, 10s));
}

// stop() returns once the plugin is stopped by *this* stop: a state left over from an earlier
// stop (or a disable) must not let it return before a start() posted just before it has run.
TEST_F(HostLifecycle, StopRightAfterStartIsNotUndoneByAStaleState) {
  make_host(0.05);
  add(PluginSpec("test.toggle", {"well-behaved"}));
  host().start("test.toggle");
  ASSERT_TRUE(await_running("test.toggle"));
  host().stop("test.toggle");
  ASSERT_EQ(host().state("test.toggle"), State::kStopped);
  for (int round = 0; round < 3; ++round) {
    host().start("test.toggle");
    host().stop("test.toggle");
    std::size_t seen = app_.lifecycle("test.toggle").size();
    EXPECT_EQ(host().state("test.toggle"), State::kStopped) << round;
    std::this_thread::sleep_for(100ms);
    // Nothing happens after stop() has returned: no process started behind its back.
    EXPECT_EQ(app_.lifecycle("test.toggle").size(), seen) << round;
    EXPECT_EQ(child_pids(), std::vector<int>{}) << round;
  }
}

TEST_F(HostLifecycle, StopAfterReEnablingADisabledPluginWaitsForThatRun) {
  make_host(0.05);
  add(PluginSpec("test.mismatch-toggle", {"protocol-mismatch"}));
  host().start("test.mismatch-toggle");
  ASSERT_TRUE(app_.await_lifecycle("test.mismatch-toggle", Kind::kDisabled, 1, 10s));
  host().start("test.mismatch-toggle");  // re-enable
  host().stop("test.mismatch-toggle");
  std::size_t seen = app_.lifecycle("test.mismatch-toggle").size();
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(app_.lifecycle("test.mismatch-toggle").size(), seen);
  EXPECT_EQ(child_pids(), std::vector<int>{});
}

TEST_F(HostLifecycle, DataDirIsCreatedAndStderrIsAppendedToPluginLogAcrossRestarts) {
  make_host(0.05);
  add(PluginSpec("test.dirs", {"crash-after-initialize", "code=1"}));
  host().start("test.dirs");
  ASSERT_TRUE(app_.await_lifecycle("test.dirs", Kind::kRunning, 2, 10s));
  host().stop("test.dirs");

  EXPECT_TRUE(fs::is_directory(data_dir("test.dirs")));
  EXPECT_TRUE(fs::is_directory(log_dir("test.dirs")));
  // initialize told the plugin those absolute paths.
  auto frames = app_.frames("test.dirs");
  auto init = std::find_if(frames.begin(), frames.end(), [](const FrameRecord& f) {
    return f.outgoing && f.message.value("method", "") == "initialize";
  });
  ASSERT_NE(init, frames.end());
  EXPECT_EQ(init->message["params"]["data_dir"], fs::absolute(data_dir("test.dirs")).string());
  EXPECT_EQ(init->message["params"]["log_dir"], fs::absolute(log_dir("test.dirs")).string());
  // One start line per process, from two different processes, in one file.
  std::string log = read_file(log_dir("test.dirs") / "plugin.log");
  std::set<std::string> pids;
  for (auto at = log.find("misbehaving_plugin["); at != std::string::npos;
       at = log.find("misbehaving_plugin[", at + 1)) {
    auto end = log.find(']', at);
    if (log.compare(end, 35, "] mode=crash-after-initialize start") == 0) {
      pids.insert(log.substr(at, end - at));
    }
  }
  EXPECT_GE(pids.size(), 2u) << log;
}

}  // namespace
}  // namespace host_test
