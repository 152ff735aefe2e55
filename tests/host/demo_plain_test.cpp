// streamnook-demo-host --plain: any StreamNook plugin through the lifecycle and the calls given,
// judged in the spec's words (examples/common/plain_mode.hpp's contract: one JSON line per call
// on stdout, "violation: ..." on stderr, exit 0 conformed / 1 violated / 2 usage). The plugins:
// the sample (live-alerts), one written with vscode-jsonrpc (an independent implementation),
// and misbehaving_plugin (raw frames, one misbehaviour per mode).
#include <algorithm>
#include <filesystem>
#include <sstream>

#include "host_test_support.hpp"
#include "run_command.hpp"

namespace host_test {
namespace {

using test_support::Outcome;
using test_support::sh;

// A time scale whose handshake (2 s) and exit grace (1 s) a sanitizer-built plugin on a
// loaded machine meets with room to spare.
const char* const kScale = "0.2";
// The spec's own timers (a 10 s handshake) for a plugin that runs on node: node's start-up
// took more than 2 s on a loaded 2-core CI machine with a browser test beside it. A plugin that
// conforms ends the run long before any of these timers.
const char* const kNodeScale = "1";

Outcome plain(const std::string& plugin_dir, const std::vector<std::string>& calls,
              const char* scale = kScale) {
  std::string command = sh(kDemoHostExe) + " --plain --time-scale " + scale;
  for (const std::string& call : calls) command += " --call " + sh(call);
  return test_support::run(command + " " + sh(plugin_dir) + " </dev/null");
}

std::vector<Json> lines(const std::string& out) {
  std::vector<Json> parsed;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    Json j = Json::parse(line, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << "stdout carries only JSON lines: " << line;
    parsed.push_back(std::move(j));
  }
  return parsed;
}

bool has_violation(const Outcome& r) { return r.err.find("violation: ") != std::string::npos; }

// A "violation: ..." line of stderr that contains `fragment`.
bool has_violation(const Outcome& r, const std::string& fragment) {
  std::istringstream in(r.err);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("violation: ", 0) == 0 && line.find(fragment) != std::string::npos) return true;
  }
  return false;
}

TEST(DemoPlain, TheSamplePluginConforms) {
  Outcome r = plain(kLiveAlertsPluginDir, {R"(invoke_action={"action":"live-alerts.test"})",
                                           R"(on_followed_live={"channels":[]})",
                                           R"(invoke_action={"action":"nope"})"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(has_violation(r)) << r.err;
  ASSERT_EQ(lines(r.out),
            (std::vector<Json>{
                Json{{"call", "invoke_action"}, {"result", {{"ok", true}}}},
                Json{{"call", "on_followed_live"}, {"event", "delivered"}},
                // The host refuses an action the manifest does not contribute (spec 2).
                Json{{"call", "invoke_action"},
                     {"failed", "refused: capability_denied: invoke_action: contributes.actions "
                                "does not declare \"nope\""}}}));
}

TEST(DemoPlain, APluginWrittenWithVscodeJsonrpcConforms) {
  const fs::path modules =
      fs::path(VSCODE_PLUGIN_DIR).parent_path().parent_path().parent_path() / "node_modules" /
      "vscode-jsonrpc";
  if (!fs::exists(modules) || test_support::run("command -v node").status != 0) {
    GTEST_SKIP() << "node or vscode-jsonrpc missing (npm ci at the repository root)";
  }
  Outcome r = plain(VSCODE_PLUGIN_DIR,
                    {R"(invoke_action={"action":"live-alerts.test"})",
                     R"(on_watch_tick={"active_channel_id":null,"ts":"2026-11-26T10:00:00Z"})"},
                    kNodeScale);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(has_violation(r)) << r.err;
  EXPECT_EQ(lines(r.out), (std::vector<Json>{
                              Json{{"call", "invoke_action"}, {"result", {{"ok", true}}}},
                              Json{{"call", "on_watch_tick"}, {"event", "delivered"}}}));
}

class DemoPlainMisbehaving : public ::testing::Test {
 protected:
  std::string dir(const std::string& mode) {
    return make_plugin_dir(root_.path(), PluginSpec("t." + mode, {mode})
                                             .with_events({"on_stream_stop"})
                                             .with_actions({"t.echo"}))
        .string();
  }
  TempDir root_;
};

TEST_F(DemoPlainMisbehaving, AWellBehavedPluginConforms) {
  Outcome r = plain(dir("well-behaved"), {R"(invoke_action={"action":"t.echo","args":{"x":1}})"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(has_violation(r)) << r.err;
  ASSERT_EQ(lines(r.out).size(), 1u) << r.out;
}

struct Misbehaviour {
  const char* mode;
  const char* violation;  // what a violation line on stderr must say
};

class DemoPlainViolation : public DemoPlainMisbehaving,
                           public ::testing::WithParamInterface<Misbehaviour> {};

TEST_P(DemoPlainViolation, IsNamedAndFailsTheRun) {
  Outcome r = plain(dir(GetParam().mode), {});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has_violation(r, GetParam().violation)) << r.err;
  EXPECT_EQ(r.out, "");
}

INSTANTIATE_TEST_SUITE_P(
    Spec, DemoPlainViolation,
    ::testing::Values(
        Misbehaviour{"garbage-stdout", "a malformed frame (section 1"},
        Misbehaviour{"oversized-frame", "a frame over 4 MiB (section 1"},
        // Ended on its own, or while the host was already stopping it: exit code 7 either way.
        Misbehaviour{"crash-after-initialize", "exit code 7"},
        Misbehaviour{"no-exit-after-exit", "still alive 5 s after exit, killed (section 2)"},
        Misbehaviour{"protocol-mismatch", "initialize failed (section 2, decision 9.2)"},
        Misbehaviour{"crash-at-start",
                     "the plugin ended on its own (section 2: restarted with backoff): exit code 3"}),
    [](const auto& param_info) {
      std::string name = param_info.param.mode;
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

TEST(DemoPlain, UsageErrorsExitTwoBeforeAnythingRuns) {
  // Params that do not decode, a lifecycle message, an unknown method: nothing is spawned.
  for (const char* call : {R"(on_watch_tick={})", "ping", "no_such_method", "invoke_action=[1"}) {
    SCOPED_TRACE(call);
    Outcome r = plain(kLiveAlertsPluginDir, {call});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.find("starting"), std::string::npos) << r.err;
  }
  Outcome two = test_support::run(sh(kDemoHostExe) + " --plain " + sh(kLiveAlertsPluginDir) +
                                  " " + sh(kLiveAlertsPluginDir));
  EXPECT_EQ(two.status, 2) << two.err;
  Outcome missing = test_support::run(sh(kDemoHostExe) + " --plain /no/such/plugin/dir");
  EXPECT_EQ(missing.status, 2) << missing.err;
}

}  // namespace
}  // namespace host_test
