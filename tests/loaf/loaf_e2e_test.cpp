// loaf RPC v1 end to end, as real processes: loaf-client against loaf-server (its transcript
// validated by `rpckit validate --strict`), loaf-client against a server that breaks one
// rule per failure class (misbehaving_server.py), and loaf-server's answers to malformed
// input and its three ways to stop (server_input.py). Timers run scaled (--time-scale);
// `timeout` only guards against a hang, no test asserts on timing.
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace {

struct Outcome {
  int code = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string temp_path(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string test = info->name();
  for (char& c : test) {
    if (c == '/') c = '_';  // parameterized names
  }
  return ::testing::TempDir() + "loaf_" + test + "_" + name;
}

// Runs a shell command with a generous hang guard; stdout and stderr are kept.
Outcome run(const std::string& command) {
  Outcome r;
  std::string out = temp_path("out.txt"), err = temp_path("err.txt");
  int status = std::system(("timeout -k 10 240 " + command + " >" + out + " 2>" + err).c_str());
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

std::string client(double scale, const std::string& server, const std::string& extra = "") {
  return std::string(LOAF_CLIENT_EXE) + " --time-scale " + std::to_string(scale) + " " + extra +
         " -- " + server;
}

TEST(LoafE2e, ClientCompletesTheSessionAgainstTheServerAndItsTranscriptValidates) {
  std::string transcript = temp_path("transcript.jsonl");
  Outcome r = run(client(0.5, std::string(LOAF_SERVER_EXE) + " rpc", "--transcript " + transcript));
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("session complete"), std::string::npos);
  for (const char* type : {"session.stream.chunk", "session.completed", "session.interrupted",
                           "session.error", "session.tool.call.started", "compaction.completed",
                           "auth.flow.device_code", "state.changed", "session.debug"}) {
    EXPECT_NE(r.out.find(type), std::string::npos) << type;
  }
#ifdef RPCKIT_EXE  // where the tool is built: not in the ThreadSanitizer build
  Outcome v = run(std::string(RPCKIT_EXE) + " validate --strict --schema " + LOAF_SCHEMA +
              " --transcript " + transcript);
  EXPECT_EQ(v.code, 0) << v.out << v.err;
#endif
}

struct Misbehaviour {
  const char* mode;
  const char* failure;
  double scale;  // small only where a timer has to run out; generous elsewhere
};

class LoafFailure : public ::testing::TestWithParam<Misbehaviour> {};

TEST_P(LoafFailure, ClientExitsNonZeroNamingTheClass) {
  auto [mode, failure, scale] = GetParam();
  Outcome r =
      run(client(scale, std::string(PYTHON_EXE) + " " + MISBEHAVING_SERVER + " " + mode));
  EXPECT_NE(r.code, 0) << r.out;
  EXPECT_NE(r.err.find(std::string("failure: ") + failure), std::string::npos) << r.err << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    Classes, LoafFailure,
    ::testing::Values(Misbehaviour{"silent", "handshake_timeout", 0.05},
                      Misbehaviour{"refuse", "handshake_refused", 1.0},
                      Misbehaviour{"v2", "unsupported_protocol_version", 1.0},
                      Misbehaviour{"crash", "server_exited", 1.0},
                      Misbehaviour{"mute", "request_timeout", 0.3},
                      Misbehaviour{"bad-result", "invalid_response", 1.0},
                      Misbehaviour{"no-ready", "turn_incomplete", 0.3},
                      Misbehaviour{"linger", "exit_timeout", 0.2}),
    [](const auto& param_info) { return std::string(param_info.param.failure); });

TEST(LoafE2e, ClientNamesALaunchFailure) {
  Outcome r = run(client(0.05, "/nonexistent/loaf-server"));
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("failure: launch_failed"), std::string::npos) << r.err;
}

class LoafServerInput : public ::testing::TestWithParam<const char*> {};

TEST_P(LoafServerInput, AsTheSpecSays) {
  Outcome r = run(std::string(PYTHON_EXE) + " " + SERVER_INPUT + " " + LOAF_SERVER_EXE + " " +
              GetParam());
  EXPECT_EQ(r.code, 0) << r.out << r.err;
}

INSTANTIATE_TEST_SUITE_P(Modes, LoafServerInput,
                         ::testing::Values("malformed", "shutdown", "ignored_after_shutdown",
                                           "eof", "sigterm", "sigint"),
                         [](const auto& param_info) { return std::string(param_info.param); });

}  // namespace
