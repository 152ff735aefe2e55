// core line plugins v1 end to end, as real processes on real pipes: core-line-host runs
// core-line-plugin through a whole tool call; every code of the failure taxonomy is produced by
// a real misbehaving process (misbehaving_plugin.py, or a command that cannot run) and
// reported by name, in the spec's check order (section 3.3), including the cases where two
// rules are broken and the earlier check must decide.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

namespace {

using test_support::Outcome;
using test_support::run;
using test_support::sh;
using test_support::temp_path;

// The host with a scale that leaves a loaded machine time to start Python (handshake 6 s).
std::string host(const std::string& options) {
  return sh(CORE_LINE_HOST_EXE) + " --time-scale 3 " + options;
}
std::string misbehaving(const std::string& mode, const std::string& arg = "") {
  return sh(PYTHON_EXE) + " " + sh(MISBEHAVING_PLUGIN) + " " + mode + (arg.empty() ? "" : " " + sh(arg));
}
// The misbehaving plugin's binding; it declares tool.execute.
std::string as_misbehaving(const std::string& extra = "", const std::string& allow = "tool.execute") {
  return "--plugin test.misbehaving --tool echo --input-json '{\"n\":1}' " +
         (allow.empty() ? "" : "--allow " + allow + " ") + extra;
}

struct Case {
  const char* name;
  std::string command;  // everything after the host executable
  int exit_code;
  std::string stderr_line;  // the first line of stderr must start with it
  const char* also_says = nullptr;  // and stderr must hold this
};

class Taxonomy : public ::testing::TestWithParam<Case> {};

TEST_P(Taxonomy, IsReportedByName) {
  const Case& c = GetParam();
  Outcome r = run(c.command);
  EXPECT_EQ(r.status, c.exit_code) << r.out << r.err;
  EXPECT_EQ(r.err.rfind(c.stderr_line, 0), 0U) << "stderr: " << r.err << "\nstdout: " << r.out;
  if (c.exit_code == 1) {
    EXPECT_NE(r.out.find("tool call FAILED"), std::string::npos) << r.out;
  }
  if (c.also_says != nullptr) {
    EXPECT_NE(r.err.find(c.also_says), std::string::npos) << r.err;
  }
}

// In the order of spec section 3.3.
const Case kCases[] = {
    // 1. The binding, before anything is spawned.
    {"BlankToolNameIsAnInvalidSpecification",
     host("--plugin p --tool ' ' -- /bin/true"), 2, "invalid plugin specification: the tool name is blank"},
    {"PaddedAllowListEntryIsAnInvalidSpecification",
     host("--plugin p --tool t --allow 'tool.execute, fs:read' -- /bin/true"), 2,
     "invalid plugin specification: allow-list entry \" fs:read\""},
    {"RepeatedAllowListEntryIsAnInvalidSpecification",
     host("--plugin p --tool t --allow a,a -- /bin/true"), 2,
     "invalid plugin specification: allow-list entry \"a\" is listed twice"},
    // 2. Spawn.
    {"MissingExecutableIsLaunchFailed",
     host("--plugin p --tool t -- /nonexistent/plugin"), 1, "failure: launch_failed: p: /nonexistent/plugin"},
    {"CommandNotOnPathIsLaunchFailed",
     host("--plugin p --tool t -- no-such-plugin-anywhere"), 1,
     "failure: launch_failed: p: \"no-such-plugin-anywhere\" is not on PATH"},
    {"MissingWorkingDirectoryIsLaunchFailed",
     host("--plugin p --tool t --dir /nonexistent/dir -- /bin/true"), 1,
     "failure: launch_failed: p: working directory /nonexistent/dir"},
    // 3-4. Write the handshake, read its reply.
    {"PluginThatExitsAtOnceIsCrashed", host("--plugin p --tool t -- /bin/true"), 1, "failure: crashed: p"},
    {"ExitBeforeTheHandshakeReplyIsCrashed",
     host(as_misbehaving("-- " + misbehaving("exit_early"))), 1,
     "failure: crashed: test.misbehaving: stdout ended before the handshake reply"},
    {"SilenceIsTimeout",
     sh(CORE_LINE_HOST_EXE) + " --time-scale 0.5 " + as_misbehaving("-- " + misbehaving("silent")), 1,
     "failure: timeout: test.misbehaving: handshake reply: nothing within 1000 ms"},
    {"NonJsonReplyIsMalformed", host(as_misbehaving("-- " + misbehaving("not_json"))), 1,
     "failure: malformed_response: test.misbehaving: handshake reply: not one JSON value: at byte 0"},
    {"EmptyLineIsMalformed", host(as_misbehaving("-- " + misbehaving("empty_line"))), 1,
     "failure: malformed_response: test.misbehaving: handshake reply: an empty line"},
    {"OversizedLineIsMalformed", host(as_misbehaving("-- " + misbehaving("oversize"))), 1,
     "failure: malformed_response: test.misbehaving: handshake reply: line of 1048577 bytes exceeds the 1048576-byte limit"},
    // 5. The handshake's checks, in order.
    {"WrongJsonTypeInTheManifestIsMalformed", host(as_misbehaving("-- " + misbehaving("numeric_id"))), 1,
     "failure: malformed_response: test.misbehaving: handshake reply: manifest.plugin_id has the wrong JSON type"},
    {"WrongTypeIsHandshakeFailed", host(as_misbehaving("-- " + misbehaving("wrong_type"))), 1,
     "failure: handshake_failed: test.misbehaving: the reply's type is \"hello\""},
    {"OtherVersionIsProtocolVersionMismatch", host(as_misbehaving("-- " + misbehaving("v2"))), 1,
     "failure: protocol_version_mismatch: test.misbehaving: the plugin speaks \"rterm.plugin.v2\""},
    {"MissingManifestIsProtocolVersionMismatch", host(as_misbehaving("-- " + misbehaving("no_manifest"))), 1,
     "failure: protocol_version_mismatch: test.misbehaving: the reply has no manifest"},
    {"VersionIsCheckedBeforeThePluginId", host(as_misbehaving("-- " + misbehaving("v2_blank_id"))), 1,
     "failure: protocol_version_mismatch: test.misbehaving"},
    {"BlankPluginIdIsHandshakeFailed", host(as_misbehaving("-- " + misbehaving("blank_id"))), 1,
     "failure: handshake_failed: test.misbehaving: manifest.plugin_id is blank"},
    {"BlankPluginVersionIsHandshakeFailed", host(as_misbehaving("-- " + misbehaving("blank_version"))), 1,
     "failure: handshake_failed: test.misbehaving: manifest.plugin_version is blank"},
    {"NoExposedToolsIsHandshakeFailed", host(as_misbehaving("-- " + misbehaving("no_tools"))), 1,
     "failure: handshake_failed: test.misbehaving: manifest.exposed_tools is empty"},
    {"OtherPluginIdIsHandshakeFailed",
     host("--plugin acme.other --tool text.stats -- " + sh(CORE_LINE_PLUGIN_EXE)), 1,
     "failure: handshake_failed: acme.other: manifest.plugin_id is \"rpckit.text\", the binding is \"acme.other\""},
    {"UnlistedToolIsToolNotExposed",
     host("--plugin rpckit.text --tool text.nope -- " + sh(CORE_LINE_PLUGIN_EXE)), 1,
     "failure: tool_not_exposed: rpckit.text: \"text.nope\" is not in manifest.exposed_tools"},
    {"ToolIsCheckedBeforeCapabilities",
     host("--plugin rpckit.text --tool text.nope --allow fs:read -- " + sh(CORE_LINE_PLUGIN_EXE)), 1,
     "failure: tool_not_exposed: rpckit.text"},
    {"NoCapabilitiesUnderAnAllowListIsNotDeclared",
     host(as_misbehaving("-- " + misbehaving("caps", "null"))), 1,
     "failure: capability_not_declared: test.misbehaving: the binding grants capabilities but the manifest declares none"},
    {"EmptyCapabilitiesUnderAnAllowListIsNotDeclared",
     host(as_misbehaving("-- " + misbehaving("caps", ""))), 1,
     "failure: capability_not_declared: test.misbehaving"},
    {"PaddedCapabilityIsNotDeclared",
     host(as_misbehaving("-- " + misbehaving("caps", " tool.execute"))), 1,
     "failure: capability_not_declared: test.misbehaving: capability \" tool.execute\" is empty or padded"},
    {"RepeatedCapabilityIsNotDeclared",
     host(as_misbehaving("-- " + misbehaving("caps", "tool.execute,tool.execute"))), 1,
     "failure: capability_not_declared: test.misbehaving: capability \"tool.execute\" is declared twice"},
    {"CapabilityOutsideTheAllowListIsNotAllowed",
     host("--plugin rpckit.text --tool text.stats --allow workspace:read -- " + sh(CORE_LINE_PLUGIN_EXE)), 1,
     "failure: capability_not_allowed: rpckit.text: capability \"tool.execute\" is not in the allow-list"},
    {"AnyCapabilityUnderAnEmptyAllowListIsNotAllowed",
     host(as_misbehaving("-- " + misbehaving("caps", "fs:write"), "")), 1,
     "failure: capability_not_allowed: test.misbehaving: capability \"fs:write\""},
    // 6-7. Write the request, read the response.
    {"ExitOnTheRequestIsCrashed", host(as_misbehaving("-- " + misbehaving("crash_on_request"))), 1,
     "failure: crashed: test.misbehaving: stdout ended before the response"},
    // (On a machine slow enough to take 4 s to start Python, the same deadline ends the
    // handshake instead: still timeout, and the same words.)
    {"NoResponseIsTimeout",
     host(as_misbehaving("--timeout-ms 4000 -- " + misbehaving("hang_request"))), 1,
     "failure: timeout: test.misbehaving: ", "the invoke deadline (4000 ms) passed"},
    // 8. The response's checks.
    {"WrongResponseTypeIsMalformed", host(as_misbehaving("-- " + misbehaving("resp_wrong_type"))), 1,
     "failure: malformed_response: test.misbehaving: the response's type is \"result\""},
    {"OtherRequestIdIsMalformed", host(as_misbehaving("-- " + misbehaving("resp_wrong_id"))), 1,
     "failure: malformed_response: test.misbehaving: request_id \"plugin_req_0000000000000000\" is not the one sent"},
    {"NumericRequestIdIsMalformed", host(as_misbehaving("-- " + misbehaving("resp_numeric_id"))), 1,
     "failure: malformed_response: test.misbehaving: response: request_id has the wrong JSON type (number)"},
    {"UnknownStatusIsMalformed", host(as_misbehaving("-- " + misbehaving("resp_bad_status"))), 1,
     "failure: malformed_response: test.misbehaving: unknown status \"maybe\""},
    {"OkWithAnErrorIsMalformed", host(as_misbehaving("-- " + misbehaving("resp_ok_and_error"))), 1,
     "failure: malformed_response: test.misbehaving: status \"ok\" with an error"},
    {"ErrorWithABlankMessageIsMalformed", host(as_misbehaving("-- " + misbehaving("resp_blank_message"))), 1,
     "failure: malformed_response: test.misbehaving: status \"error\" with a blank error.message"},
    // 9. The plugin's own error, and teardown after ok.
    {"PluginErrorIsReportedAsTheToolsError", host(as_misbehaving("-- " + misbehaving("resp_error"))), 3,
     "plugin error: invalid_input: no text given"},
    {"NonZeroExitAfterOkIsCrashed", host(as_misbehaving("-- " + misbehaving("bad_exit"))), 1,
     "failure: crashed: test.misbehaving: exited with exit code 6 after a successful response"},
    {"NoExitAfterOkIsCrashed", host(as_misbehaving("-- " + misbehaving("linger"))), 1,
     "failure: crashed: test.misbehaving: still running 1500 ms after its stdin closed"},
};

INSTANTIATE_TEST_SUITE_P(CoreLine, Taxonomy, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& param) { return param.param.name; });

TEST(CoreLineHost, RunsTheSamplePluginAndPrintsTheToolsOutput) {
  std::string transcript = temp_path("session.jsonl");
  Outcome r = run(host("--transcript " + sh(transcript) +
                       " --plugin rpckit.text --tool text.transform --allow tool.execute,fs:read"
                       " --context '{\"workspace_id\":\"ws-1\"}'"
                       " --input-json '{\"text\":\"  Hello  World \",\"ops\":[\"squeeze\",\"trim\",\"upper\"]}' -- " +
                       sh(CORE_LINE_PLUGIN_EXE)));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  // The output is the last line of stdout, before the command that opens the transcript in
  // the inspector (`inspect: rpckit trace ...`, printed when --transcript is given).
  const std::size_t inspect = r.out.rfind("\ninspect: ");
  ASSERT_NE(inspect, std::string::npos) << r.out;
  const std::string out = r.out.substr(0, inspect + 1);
  ASSERT_GE(out.size(), 2U);
  std::string last = out.substr(out.rfind('\n', out.size() - 2) + 1);
  EXPECT_EQ(nlohmann::json::parse(last), nlohmann::json::parse(R"({"text":"HELLO WORLD"})"));

  // Exactly the four lines of the spec, alternating, matched by request_id.
  std::ifstream in(transcript);
  std::vector<nlohmann::json> frames;
  std::vector<std::string> directions;
  for (std::string line; std::getline(in, line);) {
    auto entry = nlohmann::json::parse(line);
    if (entry["type"] != "frame") continue;
    frames.push_back(entry["message"]);
    directions.push_back(entry["direction"]);
  }
  ASSERT_EQ(frames.size(), 4U);
  EXPECT_EQ(directions, (std::vector<std::string>{"core_to_plugin", "plugin_to_core", "core_to_plugin",
                                                  "plugin_to_core"}));
  EXPECT_EQ(frames[0], nlohmann::json::parse(R"({"type":"handshake","protocol_version":"rterm.plugin.v1"})"));
  EXPECT_EQ(frames[1]["manifest"]["plugin_id"], "rpckit.text");
  EXPECT_EQ(frames[2]["type"], "request");
  EXPECT_EQ(frames[2]["context"], nlohmann::json::parse(R"({"workspace_id":"ws-1"})"));
  EXPECT_TRUE(frames[2]["request_id"].get<std::string>().starts_with("plugin_req_"));
  EXPECT_EQ(frames[2]["request_id"].get<std::string>().size(), 11U + 16U);
  EXPECT_EQ(frames[3]["request_id"], frames[2]["request_id"]);
  EXPECT_EQ(frames[3]["status"], "ok");
}

TEST(CoreLineHost, ThePluginsEnvironmentIsExactlyTheBindings) {
  // PYTHONCOERCECLOCALE=0 keeps Python from adding LC_CTYPE to its own environment; the
  // interpreter itself, not a wrapper script (pyenv's shim adds variables), is started.
  Outcome python = run(sh(PYTHON_EXE) + " -c 'import sys; print(sys.executable)'");
  ASSERT_EQ(python.status, 0);
  std::string interpreter = python.out.substr(0, python.out.find('\n'));
  Outcome r = run(host(as_misbehaving("--env FOO=bar --env PYTHONCOERCECLOCALE=0 -- " + sh(interpreter) +
                                      " " + sh(MISBEHAVING_PLUGIN) + " env")));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  std::string last = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
  EXPECT_EQ(nlohmann::json::parse(last), nlohmann::json::parse(R"({"FOO":"bar","PYTHONCOERCECLOCALE":"0"})"));
}

TEST(CoreLineHost, AnExecutableFileIsRequiredForACommandWithASlash) {
  std::string file = temp_path("not_executable");
  std::ofstream(file) << "#!/bin/sh\n";
  ::chmod(file.c_str(), 0644);
  Outcome r = run(host("--plugin p --tool t -- " + sh(file)));
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "failure: launch_failed: p: " + file + " is not executable\n");
  std::remove(file.c_str());
}

}  // namespace
