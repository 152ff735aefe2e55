// Codex metadata plugins v1 end to end, as real processes on real pipes: the sample host runs
// the sample plugin through its whole session (and its transcript validates against the
// schema), each credential delivery mode, the match fallback, and every failure class the
// host names, each provoked by a real misbehaving plugin. No sleeps: the runtime's timers,
// scaled by --time-scale, end every wait.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace {

struct Outcome {
  int status = -1;
  std::string output;
};

Outcome run(const std::string& command) {
  Outcome r;
  if (FILE* pipe = ::popen((command + " 2>&1").c_str(), "r")) {
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) r.output.append(buffer, n);
    int raw = ::pclose(pipe);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  }
  return r;
}

std::string shell_quote(const std::string& s) { return "'" + s + "'"; }

// The host with `options`, then `--` and the plugin command.
Outcome host(const std::string& options, const std::string& plugin) {
  return run(shell_quote(CODEX_HOST_EXE) + " " + options + " -- " + plugin);
}

const std::string kPlugin = shell_quote(CODEX_PLUGIN_EXE);

// The class of the first "failure: <class>" line: the session's verdict.
std::string verdict(const std::string& output) {
  auto at = output.find("failure: ");
  if (at == std::string::npos) return "";
  at += 9;
  return output.substr(at, output.find_first_of(":\n", at) - at);
}

class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/codex-metadata-test-XXXXXX";
    path_ = ::mkdtemp(pattern);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TEST(CodexMetadata, HostRunsThePluginThroughTheWholeSession) {
  TempDir dir;
  std::string transcript = (dir.path() / "session.jsonl").string();
  Outcome r = host("--time-scale 0.5 --transcript " + shell_quote(transcript), kPlugin);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("session complete"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("failure:"), std::string::npos) << r.output;
  for (const char* frame :
       {"initialize #1", "ping #2", "metadata/search #3", "metadata/get #4", "metadata/get #5",
        "metadata/match #6", "shutdown #7", "result #7 null", "stopped (requested): exit code 0"}) {
    EXPECT_NE(r.output.find(frame), std::string::npos) << frame << "\n" << r.output;
  }
#ifdef RPCKIT_EXE  // where the tool is built: not in the ThreadSanitizer build
  Outcome valid = run(shell_quote(RPCKIT_EXE) + " validate --strict --schema " +
                      shell_quote(CODEX_SCHEMA) + " --transcript " + shell_quote(transcript));
  EXPECT_EQ(valid.status, 0) << valid.output;
#endif
}

TEST(CodexMetadata, EveryCredentialDeliveryMode) {
  for (const char* mode : {"env", "init_message", "both"}) {
    Outcome r = host(std::string("--time-scale 0.5 --credential-delivery ") + mode, kPlugin);
    EXPECT_EQ(r.status, 0) << mode << "\n" << r.output;
    // init_message and both: the message's credentials win (spec 2.2).
    std::string source = std::string(mode) == "env" ? "env" : "init_message";
    EXPECT_NE(r.output.find("credential from " + source), std::string::npos) << r.output;
  }
}

TEST(CodexMetadata, MissingCredentialIsTheProvidersConfigError) {
  Outcome r = host("--time-scale 0.5 --no-credentials", kPlugin);
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_EQ(verdict(r.output), "config_error") << r.output;
}

TEST(CodexMetadata, BadConfigFailsInitialize) {
  Outcome r = host("--time-scale 0.5 --config '{\"defaultLimit\":0}'", kPlugin);
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_EQ(verdict(r.output), "initialize_failed") << r.output;
  EXPECT_NE(r.output.find("config_error"), std::string::npos) << r.output;
}

TEST(CodexMetadata, WithoutMatchTheHostFallsBackToSearch) {
  Outcome r = host("--time-scale 0.5", kPlugin + " --no-match");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("falling back to metadata/search"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"limit\":10"), std::string::npos) << r.output;
}

TEST(CodexMetadata, CommandsOutsideThePolicyAreNotSpawned) {
  Outcome r = host("", "relative/plugin");
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(verdict(r.output), "command_not_allowed") << r.output;
  r = host("--plugin-dir /opt/codex/plugins", kPlugin);
  EXPECT_EQ(verdict(r.output), "command_not_allowed") << r.output;
  r = host("", "sh -c 'echo hi'");
  EXPECT_EQ(verdict(r.output), "command_not_allowed") << r.output;
}

TEST(CodexMetadata, AnExecutableThatCannotStartIsLaunchFailed) {
  Outcome r = host("--time-scale 0.05", "/nonexistent/codex-plugin");
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(verdict(r.output), "launch_failed") << r.output;
}

// mode of misbehaving_plugin.py -> the failure class the host must name first.
struct Misbehaviour {
  const char* mode;
  const char* failure;
};

class Failures : public testing::TestWithParam<Misbehaviour> {};

TEST_P(Failures, TheHostNamesTheFailureClass) {
  // 0.3: a 9 s request timeout and 1.5 s exit wait, generous under sanitizers and load.
  Outcome r = host("--time-scale 0.3", shell_quote(PYTHON_EXE) + " " +
                                           shell_quote(MISBEHAVING_PLUGIN) + " " + GetParam().mode);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_EQ(verdict(r.output), GetParam().failure) << r.output;
}

INSTANTIATE_TEST_SUITE_P(CodexMetadata, Failures,
                         testing::Values(Misbehaviour{"silent", "initialize_timeout"},
                                         Misbehaviour{"init-error", "initialize_failed"},
                                         Misbehaviour{"bad-version", "protocol_version_mismatch"},
                                         Misbehaviour{"bad-manifest", "invalid_manifest"},
                                         Misbehaviour{"no-capability", "not_a_metadata_provider"},
                                         Misbehaviour{"ping-number", "health_check_failed"},
                                         Misbehaviour{"crash", "process_lost"},
                                         Misbehaviour{"hang-search", "request_timeout"},
                                         Misbehaviour{"bad-result", "invalid_result"},
                                         Misbehaviour{"auth-fail", "auth_failed"},
                                         Misbehaviour{"huge-line", "oversized_line"},
                                         Misbehaviour{"no-exit", "exit_timeout"},
                                         Misbehaviour{"exit-1", "unclean_exit"},
                                         Misbehaviour{"shutdown-error", "shutdown_failed"},
                                         Misbehaviour{"ignore-shutdown", "shutdown_timeout"}),
                         [](const testing::TestParamInfo<Misbehaviour>& p) {
                           std::string name = p.param.mode;
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

TEST(CodexMetadata, ThreeFailedCallsInARowDisableTheInstance) {
  Outcome r = host("--time-scale 0.3",
                   shell_quote(PYTHON_EXE) + " " + shell_quote(MISBEHAVING_PLUGIN) + " auth-fail");
  EXPECT_NE(r.output.find("failure: consecutive_call_failures"), std::string::npos) << r.output;
  // search, get (unknown id), match: then no more metadata calls, only shutdown.
  EXPECT_NE(r.output.find("shutdown #6"), std::string::npos) << r.output;
}

}  // namespace
