// core-line-host --plain, as real processes: against a plugin written from the spec alone
// (tests/interop/core_line_plugin.py) and against every mode of misbehaving_plugin.py. stdout
// is one JSON line (the outcome), stderr names each violation with its spec section, and the
// exit status says whether the plugin conformed (0), did not (1), or could not be run (2).
#include <gtest/gtest.h>

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
using nlohmann::json;

// Python on a loaded machine may take a while to start: the deadlines tripled, unless the
// options choose.
std::string plain(const std::string& options) {
  const bool scaled = options.find("--time-scale") != std::string::npos;
  return sh(CORE_LINE_HOST_EXE) + " --plain " + (scaled ? "" : "--time-scale 3 ") + options;
}
std::string interop() { return sh(PYTHON_EXE) + " " + sh(INTEROP_PLUGIN); }
std::string misbehaving(const std::string& mode, const std::string& arg = "") {
  return sh(PYTHON_EXE) + " " + sh(MISBEHAVING_PLUGIN) + " " + mode + (arg.empty() ? "" : " " + sh(arg));
}

// The one line of stdout, parsed (null when stdout is not exactly one JSON line).
json outcome_line(const Outcome& r) {
  if (r.out.empty() || r.out.back() != '\n' || r.out.find('\n') != r.out.size() - 1) return nullptr;
  return json::parse(r.out, nullptr, false);
}

std::vector<std::string> violations(const Outcome& r) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while ((at = r.err.find("violation: ", at)) != std::string::npos) {
    if (at == 0 || r.err[at - 1] == '\n') out.push_back(r.err.substr(at, r.err.find('\n', at) - at));
    ++at;
  }
  return out;
}

TEST(CoreLinePlain, ASpecPluginConforms) {
  Outcome r = run(plain("--input 'a b c' -- " + interop()));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "{\"result\":{\"words\":3}}\n");
  EXPECT_TRUE(violations(r).empty()) << r.err;
}

TEST(CoreLinePlain, ABoundPluginConformsToo) {
  Outcome r = run(plain("--plugin acme.wordcount --tool acme.count_words --allow tool.execute,workspace:read "
                        "--input-json '{\"text\":\"one two\"}' -- " +
                        interop()));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(outcome_line(r), (json{{"result", {{"words", 2}}}}));
}

TEST(CoreLinePlain, AToolErrorIsConformance) {
  Outcome r = run(plain("--input-json '[1]' -- " + interop()));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(outcome_line(r), (json{{"error",
                                    {{"code", "invalid_input"},
                                     {"message", "input.text must be a string"},
                                     {"kind", "invalid_input"}}}}));
  EXPECT_TRUE(violations(r).empty()) << r.err;
}

struct Choice {
  const char* name;
  std::string options;
  const char* code;
};

class BindingChoice : public ::testing::TestWithParam<Choice> {};

// What the binding decides fails the call, but the plugin conformed.
TEST_P(BindingChoice, FailsTheCallNotThePlugin) {
  Outcome r = run(plain(GetParam().options + " -- " + interop()));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  json line = outcome_line(r);
  ASSERT_TRUE(line.is_object()) << r.out;
  EXPECT_EQ(line["failure"]["code"], GetParam().code) << r.out;
  EXPECT_TRUE(violations(r).empty()) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    CoreLinePlain, BindingChoice,
    ::testing::Values(Choice{"AnotherName", "--plugin acme.other", "handshake_failed"},
                      Choice{"AToolItDoesNotExpose", "--tool acme.other", "tool_not_exposed"},
                      Choice{"AnAllowListWithoutItsCapability", "--allow fs:read", "capability_not_allowed"},
                      Choice{"AnotherProtocolVersion", "--protocol rterm.plugin.v2", "protocol_version_mismatch"}),
    [](const ::testing::TestParamInfo<Choice>& p) { return p.param.name; });

struct Mode {
  const char* name;
  std::string command;  // the plugin
  int exit_code;
  json line;                 // stdout's line: the whole of it, or {"failure":{"code"}} to match the code
  const char* violation;     // the stderr line starts with it (nullptr: none)
  const char* section;       // and names this spec section
  std::string options = "";  // before --
};

class Misbehaving : public ::testing::TestWithParam<Mode> {};

TEST_P(Misbehaving, IsJudged) {
  const Mode& m = GetParam();
  Outcome r = run(plain(m.options + " -- " + m.command));
  EXPECT_EQ(r.status, m.exit_code) << r.out << r.err;
  json line = outcome_line(r);
  ASSERT_TRUE(line.is_object()) << "stdout: " << r.out;
  if (line.contains("failure") && m.line.contains("failure")) {
    EXPECT_EQ(line["failure"]["code"], m.line["failure"]["code"]) << r.out;
    EXPECT_TRUE(line["failure"]["detail"].is_string()) << r.out;
  } else {
    EXPECT_EQ(line, m.line);
  }
  std::vector<std::string> found = violations(r);
  if (m.violation == nullptr) {
    EXPECT_TRUE(found.empty()) << r.err;
  } else {
    ASSERT_EQ(found.size(), 1U) << r.err;
    EXPECT_EQ(found[0].rfind(m.violation, 0), 0U) << found[0];
    EXPECT_NE(found[0].find(std::string("(") + m.section + ")"), std::string::npos) << found[0];
  }
}

json failure(const char* code) { return {{"failure", {{"code", code}}}}; }

INSTANTIATE_TEST_SUITE_P(
    CoreLinePlain, Misbehaving,
    ::testing::Values(
        Mode{"Behaves", misbehaving("ok"), 0, {{"result", {{"n", 1}}}}, nullptr, "", "--input-json '{\"n\":1}'"},
        Mode{"ReportsAToolError", misbehaving("resp_error"), 0,
             {{"error", {{"code", "invalid_input"}, {"message", "no text given"}, {"kind", "invalid_input"}}}},
             nullptr, ""},
        Mode{"DeclaresAnyCapabilityToAProbe", misbehaving("caps", "fs:write"), 0, {{"result", json::object()}},
             nullptr, ""},
        Mode{"ExitsEarly", misbehaving("exit_early"), 1, failure("crashed"), "violation: crashed: stdout ended",
             "section 3.3 step 4"},
        Mode{"StaysSilent", misbehaving("silent"), 1, failure("timeout"), "violation: timeout: handshake reply",
             "section 3.3 step 4", "--time-scale 0.5"},
        Mode{"AnswersNotJson", misbehaving("not_json"), 1, failure("malformed_response"),
             "violation: malformed_response: handshake reply: not one JSON value", "section 3.3 step 4"},
        Mode{"AnswersAnOverLongLine", misbehaving("oversize"), 1, failure("malformed_response"),
             "violation: malformed_response: handshake reply: line of 1048577 bytes", "section 3.3 step 4"},
        Mode{"SendsANumberForAString", misbehaving("numeric_id"), 1, failure("malformed_response"),
             "violation: malformed_response: handshake reply: manifest.plugin_id has the wrong JSON type",
             "section 4"},
        Mode{"AnswersAnotherType", misbehaving("wrong_type"), 1, failure("handshake_failed"),
             "violation: handshake_failed: the reply's type is \"hello\"", "section 3.3 step 5"},
        Mode{"SpeaksV2", misbehaving("v2"), 1, failure("protocol_version_mismatch"),
             "violation: protocol_version_mismatch: the plugin speaks \"rterm.plugin.v2\"",
             "section 3.3 step 5, section 8"},
        Mode{"HasNoManifest", misbehaving("no_manifest"), 1, failure("protocol_version_mismatch"),
             "violation: protocol_version_mismatch: the reply has no manifest", "section 3.3 step 5, section 8"},
        Mode{"HasABlankId", misbehaving("blank_id"), 1, failure("handshake_failed"),
             "violation: handshake_failed: manifest.plugin_id is blank", "section 3.3 step 5"},
        Mode{"ExposesNoTools", misbehaving("no_tools"), 1, failure("handshake_failed"),
             "violation: handshake_failed: manifest.exposed_tools is empty", "section 3.3 step 5"},
        Mode{"DeclaresAPaddedCapability", misbehaving("caps", " tool.execute"), 1,
             failure("capability_not_declared"), "violation: capability_not_declared: capability \" tool.execute\"",
             "section 3.3 step 5, section 6"},
        Mode{"DeclaresNoneUnderAnAllowList", misbehaving("caps", "null"), 1, failure("capability_not_declared"),
             "violation: capability_not_declared: the binding grants capabilities", "section 3.3 step 5, section 6",
             "--allow tool.execute"},
        Mode{"ExitsOnTheRequest", misbehaving("crash_on_request"), 1, failure("crashed"),
             "violation: crashed: stdout ended before the response", "section 3.3 step 7"},
        Mode{"AnswersAnotherRequestId", misbehaving("resp_wrong_id"), 1, failure("malformed_response"),
             "violation: malformed_response: request_id \"plugin_req_0000000000000000\" is not the one sent",
             "section 3.3 step 8"},
        Mode{"AnswersAnUnknownStatus", misbehaving("resp_bad_status"), 1, failure("malformed_response"),
             "violation: malformed_response: unknown status \"maybe\"", "section 3.3 step 8"},
        Mode{"ExitsNonZeroAfterOk", misbehaving("bad_exit"), 1, failure("crashed"),
             "violation: crashed: exited with exit code 6", "section 3.3 step 9, section 2"},
        Mode{"DoesNotExitAfterOk", misbehaving("linger"), 1, failure("crashed"),
             "violation: crashed: still running", "section 3.3 step 9, section 2"}),
    [](const ::testing::TestParamInfo<Mode>& p) { return p.param.name; });

TEST(CoreLinePlain, ATranscriptLeavesStdoutToTheOutcome) {
  std::string transcript = temp_path("plain.jsonl");
  Outcome r = run(plain("--transcript " + sh(transcript) + " --input 'a b' -- " + interop()));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "{\"result\":{\"words\":2}}\n");
  std::ifstream in(transcript);
  int frames = 0;
  for (std::string line; std::getline(in, line);) {
    if (json::parse(line)["type"] == "frame") ++frames;
  }
  EXPECT_EQ(frames, 4);
  std::remove(transcript.c_str());
}

TEST(CoreLinePlain, ACommandThatCannotRunIsALaunchError) {
  Outcome r = run(plain("-- /nonexistent/plugin"));
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_EQ(outcome_line(r)["failure"]["code"], "launch_failed") << r.out;
  EXPECT_NE(r.err.find("cannot launch the plugin: "), std::string::npos) << r.err;
  EXPECT_TRUE(violations(r).empty()) << r.err;
}

TEST(CoreLinePlain, UsageErrorsExit2AndSpawnNothing) {
  for (const std::string& options :
       {std::string(""), "--input a --input-json 1 -- " + interop(), "--input-json '{' -- " + interop(),
        "--allow a,a -- " + interop(), "--no-such-option -- " + interop()}) {
    Outcome r = run(plain(options));
    EXPECT_EQ(r.status, 2) << options << "\n" << r.out << r.err;
    EXPECT_EQ(r.out, "") << options;
  }
}

}  // namespace
