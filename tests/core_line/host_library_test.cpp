// rpckit::core_line as a library: invoke() against real processes on real pipes (every code of
// the taxonomy from misbehaving_plugin.py, in the spec's check order, with the rule that
// decided it and whether the plugin is to blame), the checks on their own where two rules are
// broken at once and the earlier one must decide (3.3), the binding's validation, the request
// id, the exact environment, the context sent, the probe, and a hostile plugin's over-long
// line and flood of non-JSON lines.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "rpckit/core_line/checks.hpp"
#include "rpckit/core_line/host.hpp"

namespace {

namespace core = rpckit::core_line;
using core::FailureCode;
using nlohmann::json;

// Python on a loaded machine may take a while to start: the deadlines tripled (handshake 6 s).
constexpr double kSlack = 3.0;

core::Binding misbehaving(const std::string& mode, const std::string& arg = "") {
  core::Binding b;
  b.name = "test.misbehaving";
  b.command = PYTHON_EXE;
  b.args = {MISBEHAVING_PLUGIN, mode};
  if (!arg.empty()) b.args.push_back(arg);
  b.allow_list = {"tool.execute"};
  b.time_scale = kSlack;
  return b;
}

core::ToolCall echo() { return {.tool_name = "echo", .input = json{{"n", 1}}}; }

struct Case {
  const char* name;
  core::Binding binding;
  core::ToolCall call;
  FailureCode code;
  std::string_view rule;
  bool peer_violation;
  std::string detail;  // the failure's detail starts with it
};

class Taxonomy : public ::testing::TestWithParam<Case> {};

TEST_P(Taxonomy, FirstFailingCheckDecides) {
  const Case& c = GetParam();
  core::Result r = core::invoke(c.binding, c.call);
  ASSERT_TRUE(r.failure) << (r.plugin_error ? r.plugin_error->message : r.output.dump());
  EXPECT_EQ(r.failure->code.wire(), c.code.wire()) << r.failure->detail;
  EXPECT_EQ(r.failure->rule, c.rule);
  EXPECT_EQ(r.failure->peer_violation, c.peer_violation);
  EXPECT_EQ(r.failure->detail.rfind(c.detail, 0), 0U) << r.failure->detail;
  EXPECT_FALSE(r.plugin_error);
  EXPECT_FALSE(r.ok());
  // The failure carries the bound name until the handshake passed, the manifest's id after.
  EXPECT_EQ(r.plugin, "test.misbehaving");
  EXPECT_EQ(r.manifest.has_value(), !r.request_id.empty());
}

core::Binding with(core::Binding b, void (*edit)(core::Binding&)) {
  edit(b);
  return b;
}

constexpr std::string_view kStep(int n) {
  constexpr std::string_view kSteps[] = {"",
                                         "",
                                         "section 3.3 step 2, section 1",
                                         "section 3.3 step 3",
                                         "section 3.3 step 4",
                                         "section 3.3 step 5",
                                         "section 3.3 step 6",
                                         "section 3.3 step 7",
                                         "section 3.3 step 8",
                                         "section 3.3 step 9, section 2"};
  return kSteps[n];
}
constexpr std::string_view kTypes = "section 4";
constexpr std::string_view kVersion = "section 3.3 step 5, section 8";
constexpr std::string_view kName = "section 3.3 step 5, section 7";
constexpr std::string_view kCaps = "section 3.3 step 5, section 6";

// In the order of spec section 3.3.
const Case kCases[] = {
    // 2. Spawn.
    {"MissingExecutableIsLaunchFailed",
     with(misbehaving("ok"), [](core::Binding& b) { b.command = "/nonexistent/plugin"; }), echo(),
     FailureCode::kLaunchFailed, kStep(2), false, "/nonexistent/plugin"},
    {"MissingDirectoryIsLaunchFailed",
     with(misbehaving("ok"), [](core::Binding& b) { b.dir = "/nonexistent/dir"; }), echo(),
     FailureCode::kLaunchFailed, kStep(2), false, "working directory /nonexistent/dir"},
    // 4. The handshake line.
    {"ExitBeforeTheReplyIsCrashed", misbehaving("exit_early"), echo(), FailureCode::kCrashed, kStep(4), true,
     "stdout ended before the handshake reply"},
    {"SilenceIsTimeout", with(misbehaving("silent"), [](core::Binding& b) { b.time_scale = 0.5; }), echo(),
     FailureCode::kTimeout, kStep(4), true, "handshake reply: nothing within 1000 ms"},
    {"NonJsonIsMalformed", misbehaving("not_json"), echo(), FailureCode::kMalformedResponse, kStep(4), true,
     "handshake reply: not one JSON value"},
    {"EmptyLineIsMalformed", misbehaving("empty_line"), echo(), FailureCode::kMalformedResponse, kStep(4), true,
     "handshake reply: an empty line"},
    {"OversizedLineIsMalformed", misbehaving("oversize"), echo(), FailureCode::kMalformedResponse, kStep(4), true,
     "handshake reply: line of 1048577 bytes"},
    // 5. The handshake's checks, in order.
    {"WrongJsonTypeIsMalformed", misbehaving("numeric_id"), echo(), FailureCode::kMalformedResponse, kTypes, true,
     "handshake reply: manifest.plugin_id has the wrong JSON type (number)"},
    {"WrongTypeIsHandshakeFailed", misbehaving("wrong_type"), echo(), FailureCode::kHandshakeFailed, kStep(5),
     true, "the reply's type is \"hello\""},
    {"OtherVersionIsMismatch", misbehaving("v2"), echo(), FailureCode::kProtocolVersionMismatch, kVersion, true,
     "the plugin speaks \"rterm.plugin.v2\""},
    {"NoManifestIsMismatch", misbehaving("no_manifest"), echo(), FailureCode::kProtocolVersionMismatch, kVersion,
     true, "the reply has no manifest"},
    {"VersionBeforePluginId", misbehaving("v2_blank_id"), echo(), FailureCode::kProtocolVersionMismatch, kVersion,
     true, "the plugin speaks"},
    {"BlankIdIsHandshakeFailed", misbehaving("blank_id"), echo(), FailureCode::kHandshakeFailed, kStep(5), true,
     "manifest.plugin_id is blank"},
    {"BlankVersionIsHandshakeFailed", misbehaving("blank_version"), echo(), FailureCode::kHandshakeFailed,
     kStep(5), true, "manifest.plugin_version is blank"},
    {"NoToolsIsHandshakeFailed", misbehaving("no_tools"), echo(), FailureCode::kHandshakeFailed, kStep(5), true,
     "manifest.exposed_tools is empty"},
    {"UnlistedToolIsNotExposed", misbehaving("ok"), {.tool_name = "nope"}, FailureCode::kToolNotExposed,
     kStep(5), false, "\"nope\" is not in manifest.exposed_tools"},
    {"NoCapabilitiesIsNotDeclared", misbehaving("caps", "null"), echo(), FailureCode::kCapabilityNotDeclared,
     kCaps, true, "the binding grants capabilities but the manifest declares none"},
    {"PaddedCapabilityIsNotDeclared", misbehaving("caps", " tool.execute"), echo(),
     FailureCode::kCapabilityNotDeclared, kCaps, true, "capability \" tool.execute\" is empty or padded"},
    {"RepeatedCapabilityIsNotDeclared", misbehaving("caps", "tool.execute,tool.execute"), echo(),
     FailureCode::kCapabilityNotDeclared, kCaps, true, "capability \"tool.execute\" is declared twice"},
    {"CapabilityOutsideTheAllowListIsNotAllowed", misbehaving("caps", "fs:write"), echo(),
     FailureCode::kCapabilityNotAllowed, kCaps, false, "capability \"fs:write\" is not in the allow-list"},
    // 7. The response line.
    {"ExitOnTheRequestIsCrashed", misbehaving("crash_on_request"), echo(), FailureCode::kCrashed, kStep(7), true,
     "stdout ended before the response"},
    {"NoResponseIsTimeout",
     with(misbehaving("hang_request"),
          [](core::Binding& b) { b.invoke_timeout = std::chrono::milliseconds(4000); }),
     echo(), FailureCode::kTimeout, kStep(7), true, "response: the invoke deadline (4000 ms) passed"},
    // 8. The response's checks.
    {"NumericRequestIdIsMalformed", misbehaving("resp_numeric_id"), echo(), FailureCode::kMalformedResponse,
     kTypes, true, "response: request_id has the wrong JSON type (number)"},
    {"WrongResponseTypeIsMalformed", misbehaving("resp_wrong_type"), echo(), FailureCode::kMalformedResponse,
     kStep(8), true, "the response's type is \"result\""},
    {"OtherRequestIdIsMalformed", misbehaving("resp_wrong_id"), echo(), FailureCode::kMalformedResponse, kStep(8),
     true, "request_id \"plugin_req_0000000000000000\" is not the one sent"},
    {"UnknownStatusIsMalformed", misbehaving("resp_bad_status"), echo(), FailureCode::kMalformedResponse,
     kStep(8), true, "unknown status \"maybe\""},
    {"OkWithAnErrorIsMalformed", misbehaving("resp_ok_and_error"), echo(), FailureCode::kMalformedResponse,
     kStep(8), true, "status \"ok\" with an error"},
    {"BlankErrorMessageIsMalformed", misbehaving("resp_blank_message"), echo(), FailureCode::kMalformedResponse,
     kStep(8), true, "status \"error\" with a blank error.message"},
    // 9. Teardown after ok.
    {"NonZeroExitAfterOkIsCrashed", misbehaving("bad_exit"), echo(), FailureCode::kCrashed, kStep(9), true,
     "exited with exit code 6 after a successful response"},
    {"NoExitAfterOkIsCrashed", misbehaving("linger"), echo(), FailureCode::kCrashed, kStep(9), true,
     "still running 1500 ms after its stdin closed"},
};

INSTANTIATE_TEST_SUITE_P(CoreLineHost, Taxonomy, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& param) { return param.param.name; });

TEST(CoreLineHost, AnotherBoundNameIsTheBindingsChoiceNotTheplugins) {
  core::Binding b = misbehaving("ok");
  b.name = "acme.other";
  core::Result r = core::invoke(b, echo());
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->code, FailureCode::kHandshakeFailed);
  EXPECT_EQ(r.failure->detail, "manifest.plugin_id is \"test.misbehaving\", the binding is \"acme.other\"");
  EXPECT_EQ(r.failure->rule, kName);
  EXPECT_FALSE(r.failure->peer_violation);
  EXPECT_EQ(r.plugin, "acme.other");  // the handshake did not pass: still the bound name
}

TEST(CoreLineHost, ACallThatSucceedsHasTheToolsOutputAndTheManifest) {
  std::vector<std::pair<bool, std::string>> lines;
  std::vector<std::string> plugins;
  core::Observer observer;
  observer.line = [&](std::string_view plugin, bool outgoing, std::string_view line) {
    lines.emplace_back(outgoing, std::string(line));
    plugins.emplace_back(plugin);
  };
  core::Result r = core::invoke(misbehaving("ok"), echo(), observer);
  ASSERT_TRUE(r.ok()) << (r.failure ? r.failure->describe() : "");
  EXPECT_EQ(r.output, (json{{"n", 1}}));
  ASSERT_TRUE(r.manifest);
  EXPECT_EQ(r.manifest->plugin_version, "0.1.0");
  EXPECT_TRUE(core::is_request_id(r.request_id)) << r.request_id;
  // The four lines, alternating; the request carries the id, the input and an empty context.
  ASSERT_EQ(lines.size(), 4U);
  EXPECT_EQ((std::vector<bool>{lines[0].first, lines[1].first, lines[2].first, lines[3].first}),
            (std::vector<bool>{true, false, true, false}));
  EXPECT_EQ(json::parse(lines[0].second), json::parse(R"({"type":"handshake","protocol_version":"rterm.plugin.v1"})"));
  json request = json::parse(lines[2].second);
  EXPECT_EQ(request, (json{{"type", "request"}, {"request_id", r.request_id}, {"tool_name", "echo"},
                           {"context", json::object()}, {"input", {{"n", 1}}}}));
  EXPECT_EQ(plugins.front(), "test.misbehaving");
}

TEST(CoreLineHost, TheInputIsAnEmptyObjectWhenNoneIsGivenAndEmptyContextMembersAreNotSent) {
  std::string request;
  core::Observer observer;
  observer.line = [&](std::string_view, bool outgoing, std::string_view line) {
    if (outgoing && line.find("\"request\"") != std::string_view::npos) request = line;
  };
  core::ToolCall call{.tool_name = "echo"};
  call.context.workspace_id = "ws-1";
  call.context.widget_id = "";
  call.context.mode_id = "plan";
  core::Result r = core::invoke(misbehaving("ok"), call, observer);
  ASSERT_TRUE(r.ok()) << (r.failure ? r.failure->describe() : "");
  EXPECT_EQ(r.output, json::object());
  json sent = json::parse(request);
  EXPECT_EQ(sent["input"], json::object());
  EXPECT_EQ(sent["context"], (json{{"workspace_id", "ws-1"}, {"mode_id", "plan"}}));
}

TEST(CoreLineHost, CallsRunAtOnceOnSeparateThreads) {
  // One process per call and nothing shared: each call gets its own output and request id.
  constexpr int kCalls = 4;
  std::vector<core::Result> results(kCalls);
  std::vector<std::thread> threads;
  for (int i = 0; i < kCalls; ++i) {
    threads.emplace_back([&results, i] {
      results[static_cast<std::size_t>(i)] =
          core::invoke(misbehaving("ok"), {.tool_name = "echo", .input = json{{"call", i}}});
    });
  }
  for (auto& t : threads) t.join();
  std::set<std::string> ids;
  for (int i = 0; i < kCalls; ++i) {
    const core::Result& r = results[static_cast<std::size_t>(i)];
    ASSERT_TRUE(r.ok()) << (r.failure ? r.failure->describe() : "");
    EXPECT_EQ(r.output, (json{{"call", i}}));
    ids.insert(r.request_id);
  }
  EXPECT_EQ(ids.size(), static_cast<std::size_t>(kCalls));
}

TEST(CoreLineHost, ThePluginsOwnErrorIsNotAFailure) {
  core::Result r = core::invoke(misbehaving("resp_error"), echo());
  EXPECT_FALSE(r.failure);
  ASSERT_TRUE(r.plugin_error);
  EXPECT_EQ(r.plugin_error->code, "invalid_input");
  EXPECT_EQ(r.plugin_error->message, "no text given");
  EXPECT_EQ(core::tool_error_kind(*r.plugin_error), core::ToolErrorKind::kInvalidInput);
  EXPECT_FALSE(r.ok());
}

TEST(CoreLineHost, ToolErrorsAreClassifiedAsUpstream) {
  auto kind = [](const char* code) { return core::tool_error_kind({code, "m"}); };
  EXPECT_EQ(kind("invalid_input"), core::ToolErrorKind::kInvalidInput);
  EXPECT_EQ(kind("not_found"), core::ToolErrorKind::kNotFound);
  EXPECT_EQ(kind(""), core::ToolErrorKind::kInternal);  // decision 9.5
  EXPECT_EQ(kind("Invalid_Input"), core::ToolErrorKind::kInternal);
  EXPECT_EQ(core::tool_error_kind_name(core::ToolErrorKind::kNotFound), "not_found");
}

TEST(CoreLineHost, ThePluginsEnvironmentIsExactlyTheBindings) {
  // The interpreter itself, not a wrapper that adds variables (pyenv's shim does);
  // PYTHONCOERCECLOCALE=0 keeps Python from adding LC_CTYPE to its own environment.
  std::string interpreter;
  if (FILE* pipe = ::popen((std::string(PYTHON_EXE) + " -c 'import sys; print(sys.executable)'").c_str(), "r")) {
    char buffer[4096];
    if (std::fgets(buffer, sizeof buffer, pipe) != nullptr) interpreter = buffer;
    ::pclose(pipe);
  }
  ASSERT_FALSE(interpreter.empty());
  interpreter.pop_back();  // the newline
  core::Binding b = misbehaving("env");
  b.command = interpreter;
  b.env = {"FOO=bar", "PYTHONCOERCECLOCALE=0"};
  core::Result r = core::invoke(b, echo());
  ASSERT_TRUE(r.ok()) << (r.failure ? r.failure->describe() : "");
  EXPECT_EQ(r.output, (json{{"FOO", "bar"}, {"PYTHONCOERCECLOCALE", "0"}}));
}

TEST(CoreLineHost, AnInvalidSpecificationSpawnsNothing) {
  const std::string marker = ::testing::TempDir() + "core_line_spawned_" + std::to_string(::getpid());
  core::Binding b;
  b.name = "p";
  b.command = "/usr/bin/touch";
  b.args = {marker};
  b.allow_list = {"tool.execute", "tool.execute"};
  core::Result r = core::invoke(b, {.tool_name = "t"});
  ASSERT_TRUE(r.invalid_specification);
  EXPECT_EQ(*r.invalid_specification, "allow-list entry \"tool.execute\" is listed twice");
  EXPECT_FALSE(r.failure);
  EXPECT_FALSE(std::filesystem::exists(marker));
}

TEST(CoreLineHost, TheBindingIsValidatedBeforeSpawning) {
  core::Binding b{.name = "p", .command = "/bin/true"};
  auto why = [&](core::Binding binding, const char* tool) {
    return core::invalid_specification(binding, tool).value_or("valid");
  };
  EXPECT_EQ(why(b, "t"), "valid");
  EXPECT_EQ(why(b, " "), "the tool name is blank");
  EXPECT_EQ(why(with(b, [](core::Binding& x) { x.name = "\t"; }), "t"), "the plugin name is blank");
  EXPECT_EQ(why(with(b, [](core::Binding& x) { x.command = ""; }), "t"), "the command is blank");
  EXPECT_EQ(why(with(b, [](core::Binding& x) { x.allow_list = {"a", " b"}; }), "t"),
            "allow-list entry \" b\" is empty or padded with whitespace");
  EXPECT_EQ(why(with(b, [](core::Binding& x) { x.allow_list = {""}; }), "t"),
            "allow-list entry \"\" is empty or padded with whitespace");
  // A probe takes the name and the tool from the manifest; it still needs a command.
  core::Binding probe{.command = "/bin/true", .probe = true};
  EXPECT_EQ(why(probe, ""), "valid");
  EXPECT_EQ(why(with(probe, [](core::Binding& x) { x.command = " "; }), ""), "the command is blank");
}

TEST(CoreLineHost, RequestIdsHaveTheSpecsForm) {
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    std::string id = core::new_request_id();
    ASSERT_TRUE(core::is_request_id(id)) << id;
    ASSERT_EQ(id.size(), 27U);
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 200U);  // 64 random bits each
  EXPECT_FALSE(core::is_request_id("plugin_req_0123456789ABCDEF"));
  EXPECT_FALSE(core::is_request_id("plugin_req_0123456789abcde"));
  EXPECT_FALSE(core::is_request_id("plugin-req_0123456789abcdef"));
  EXPECT_FALSE(core::is_request_id("plugin_req_0123456789abcdef0"));
  EXPECT_TRUE(core::is_request_id("plugin_req_0123456789abcdef"));
}

TEST(CoreLineHost, AProbeBindsWhatTheManifestSays) {
  core::Binding b{.command = PYTHON_EXE, .args = {INTEROP_PLUGIN}, .time_scale = kSlack, .probe = true};
  core::Result r = core::invoke(b, {.input = json{{"text", "a b c"}}});
  ASSERT_TRUE(r.ok()) << (r.failure ? r.failure->describe() : "");
  EXPECT_EQ(r.plugin, "acme.wordcount");
  EXPECT_EQ(r.output, (json{{"words", 3}}));
  // What it is given is still checked: an allow-list, a tool.
  b.allow_list = {"workspace:read"};
  r = core::invoke(b, {.input = json{{"text", "a"}}});
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->code, FailureCode::kCapabilityNotAllowed);
  b.allow_list.clear();
  r = core::invoke(b, {.tool_name = "acme.other"});
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->code, FailureCode::kToolNotExposed);
}

TEST(CoreLineHost, AnotherOfferedVersionIsTheBindingsChoice) {
  // The spec's plugin answers a version it does not speak with its own (decision 9.3).
  core::Binding b{.name = "acme.wordcount", .command = PYTHON_EXE, .args = {INTEROP_PLUGIN},
                  .protocol = "rterm.plugin.v2", .allow_list = {"tool.execute"}, .time_scale = kSlack};
  core::Result r = core::invoke(b, {.tool_name = "acme.count_words"});
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->code, FailureCode::kProtocolVersionMismatch);
  EXPECT_FALSE(r.failure->peer_violation);
}

// A plugin that writes `what` (a Python expression for a str) as its handshake reply, then waits.
core::Binding hostile(const std::string& what) {
  return {.name = "test.hostile",
          .command = PYTHON_EXE,
          .args = {"-c", "import sys, time\nsys.stdin.readline()\nsys.stdout.write(" + what +
                             ")\nsys.stdout.flush()\ntime.sleep(600)\n"},
          .time_scale = kSlack};
}

long peak_rss_kib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

TEST(CoreLineHost, AnOverLongLineIsRefusedWithoutBeingHeld) {
  const long before = peak_rss_kib();
  std::size_t seen = 0;
  core::Observer observer;
  observer.line = [&](std::string_view, bool, std::string_view line) { seen += line.size(); };
  core::Result r = core::invoke(hostile("'x' * (64 * 1024 * 1024) + '\\n'"), {.tool_name = "t"}, observer);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->code, FailureCode::kMalformedResponse);
  EXPECT_TRUE(r.failure->peer_violation);
  // The reader stops at the limit: a 64 MiB line costs the core about the limit, not the line.
  const long growth_kib = peak_rss_kib() - before;
  EXPECT_LT(growth_kib, 16 * 1024) << "peak RSS grew by " << growth_kib << " KiB";
  EXPECT_LT(seen, 2U * 1024 * 1024);  // and the observer was not handed it
}

TEST(CoreLineHost, AFloodOfNonJsonLinesEndsTheCallAtTheFirst) {
  int lines_in = 0;
  core::Observer observer;
  observer.line = [&](std::string_view, bool outgoing, std::string_view) { lines_in += outgoing ? 0 : 1; };
  core::Result r = core::invoke(hostile("'not json\\n' * 200000"), {.tool_name = "t"}, observer);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->code, FailureCode::kMalformedResponse);
  EXPECT_EQ(r.failure->rule, kStep(4));
  EXPECT_LE(lines_in, 1);  // one line read and reported, not the flood
}

// The checks on their own, where two rules are broken and the earlier must decide.
core::HandshakeExpectation expect() {
  return {.protocol_version = "rterm.plugin.v1", .plugin_name = "acme.wc", .tool_name = "count",
          .allow_list = {"tool.execute", "workspace:read"}};
}
json reply(const std::function<void(json&)>& edit = [](json&) {}) {
  json r = {{"type", "handshake"},
            {"manifest",
             {{"plugin_id", "acme.wc"}, {"plugin_version", "1.0.0"}, {"protocol_version", "rterm.plugin.v1"},
              {"exposed_tools", {"count"}}, {"capabilities", {"tool.execute"}}}}};
  edit(r);
  return r;
}
std::string handshake_verdict(const json& r, const core::HandshakeExpectation& e = expect()) {
  core::clv1::Manifest manifest;
  auto f = core::check_handshake(r, e, &manifest);
  return f ? std::string(f->code.wire()) + ": " + f->detail : "ok";
}

TEST(CoreLineChecks, HandshakeInTheSpecsOrder) {
  EXPECT_EQ(handshake_verdict(reply()), "ok");
  // A wrong JSON type anywhere comes before every check.
  EXPECT_EQ(handshake_verdict(reply([](json& r) {
              r["type"] = "hello";
              r["manifest"]["capabilities"] = {1};
            })),
            "malformed_response: handshake reply: manifest.capabilities holds a number, not a string");
  EXPECT_EQ(handshake_verdict(reply([](json& r) {
              r["type"] = "hello";
              r["manifest"]["protocol_version"] = "v9";
            })),
            "handshake_failed: the reply's type is \"hello\", not \"handshake\"");
  EXPECT_EQ(handshake_verdict(reply([](json& r) { r["manifest"] = nullptr; })),
            "protocol_version_mismatch: the reply has no manifest");
  EXPECT_EQ(handshake_verdict(reply([](json& r) { r["manifest"]["protocol_version"] = " rterm.plugin.v1\n"; })),
            "ok");  // trimmed
  EXPECT_EQ(handshake_verdict(reply([](json& r) {
              r["manifest"]["plugin_version"] = "";
              r["manifest"]["plugin_id"] = " ";
            })),
            "handshake_failed: manifest.plugin_id is blank");
  EXPECT_EQ(handshake_verdict(reply([](json& r) {
              r["manifest"]["plugin_version"] = "\t";
              r["manifest"]["exposed_tools"] = json::array();
            })),
            "handshake_failed: manifest.plugin_version is blank");
  EXPECT_EQ(handshake_verdict(reply([](json& r) {
              r["manifest"]["exposed_tools"] = nullptr;
              r["manifest"]["plugin_id"] = "acme.other";
            })),
            "handshake_failed: manifest.exposed_tools is empty");
  EXPECT_EQ(handshake_verdict(reply([](json& r) {
              r["manifest"]["plugin_id"] = "acme.other";
              r["manifest"]["exposed_tools"] = {"other"};
            })),
            "handshake_failed: manifest.plugin_id is \"acme.other\", the binding is \"acme.wc\"");
  EXPECT_EQ(handshake_verdict(reply([](json& r) {
              r["manifest"]["exposed_tools"] = {"other"};
              r["manifest"]["capabilities"] = {"fs:write"};
            })),
            "tool_not_exposed: \"count\" is not in manifest.exposed_tools");
}

TEST(CoreLineChecks, CapabilitiesElementByElement) {
  auto caps = [](json list) { return reply([&](json& r) { r["manifest"]["capabilities"] = list; }); };
  EXPECT_EQ(handshake_verdict(caps(json::array())),
            "capability_not_declared: the binding grants capabilities but the manifest declares none");
  EXPECT_EQ(handshake_verdict(caps(nullptr)),
            "capability_not_declared: the binding grants capabilities but the manifest declares none");
  EXPECT_EQ(handshake_verdict(caps({"workspace:read", "tool.execute"})), "ok");  // a subset, any order
  EXPECT_EQ(handshake_verdict(caps({"fs:write", " tool.execute"})),
            "capability_not_allowed: capability \"fs:write\" is not in the allow-list");
  EXPECT_EQ(handshake_verdict(caps({" tool.execute", "fs:write"})),
            "capability_not_declared: capability \" tool.execute\" is empty or padded with whitespace");
  EXPECT_EQ(handshake_verdict(caps({"tool.execute", "tool.execute", "fs:write"})),
            "capability_not_declared: capability \"tool.execute\" is declared twice");
  EXPECT_EQ(handshake_verdict(caps({""})), "capability_not_declared: capability \"\" is empty or padded with whitespace");
  core::HandshakeExpectation none = expect();
  none.allow_list.clear();
  EXPECT_EQ(handshake_verdict(caps(json::array()), none), "ok");
  EXPECT_EQ(handshake_verdict(caps({"tool.execute"}), none),
            "capability_not_allowed: capability \"tool.execute\" is not in the allow-list");
  // A probe grants what is declared, but only in canonical form, once each.
  none.probe = true;
  EXPECT_EQ(handshake_verdict(caps({"tool.execute", "fs:write"}), none), "ok");
  EXPECT_EQ(handshake_verdict(caps({"fs:write", "fs:write"}), none),
            "capability_not_declared: capability \"fs:write\" is declared twice");
}

json response(const std::function<void(json&)>& edit = [](json&) {}) {
  json r = {{"type", "response"}, {"request_id", "plugin_req_00000000000000aa"}, {"status", "ok"},
            {"output", {{"n", 1}}}};
  edit(r);
  return r;
}
std::string response_verdict(const json& r) {
  const json request = {{"type", "request"}, {"request_id", "plugin_req_00000000000000aa"}};
  core::clv1::ExecuteResponse decoded;
  auto f = core::check_response(r, request, &decoded);
  return f ? std::string(f->code.wire()) + ": " + f->detail : "ok";
}

TEST(CoreLineChecks, ResponseInTheSpecsOrder) {
  EXPECT_EQ(response_verdict(response()), "ok");
  EXPECT_EQ(response_verdict(response([](json& r) {
              r["type"] = "result";
              r["metadata"] = "x";
            })),
            "malformed_response: response: metadata has the wrong JSON type (string)");
  EXPECT_EQ(response_verdict(response([](json& r) {
              r["type"] = "result";
              r["request_id"] = "plugin_req_00000000000000bb";
            })),
            "malformed_response: the response's type is \"result\", not \"response\"");
  EXPECT_EQ(response_verdict(response([](json& r) {
              r["request_id"] = "plugin_req_00000000000000bb";
              r["status"] = "maybe";
            })),
            "malformed_response: request_id \"plugin_req_00000000000000bb\" is not the one sent "
            "(\"plugin_req_00000000000000aa\")");
  EXPECT_EQ(response_verdict(response([](json& r) { r.erase("request_id"); })),
            "malformed_response: request_id \"\" is not the one sent (\"plugin_req_00000000000000aa\")");
  EXPECT_EQ(response_verdict(response([](json& r) { r["error"] = nullptr; })), "ok");  // null is absent
  EXPECT_EQ(response_verdict(response([](json& r) { r["status"] = "error"; })),
            "malformed_response: status \"error\" without an error");
  // Decision 9.5: an empty or missing error code is accepted; decision 9.6: output ignored.
  EXPECT_EQ(response_verdict(response([](json& r) {
              r["status"] = "error";
              r["error"] = {{"message", "no"}};
            })),
            "ok");
  EXPECT_EQ(response_verdict(response([](json& r) {
              r["status"] = "error";
              r["error"] = {{"code", ""}, {"message", "no"}};
            })),
            "ok");
  EXPECT_EQ(response_verdict(response([](json& r) { r["metadata"] = {{"engine", "x"}}; })), "ok");
  EXPECT_EQ(response_verdict(response([](json& r) { r["Status"] = "odd"; })), "ok");  // unknown members ignored
}

}  // namespace
