// `rpckit validate` as a user runs it: a payload, an envelope and transcripts in each recorded
// form, file:line:column diagnostics, --json, --strict, stdin, exit codes (0 valid, 1 invalid,
// 2 usage or input error), and a real session of the demo host, which must be valid.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support.hpp"  // tests/generator: run(), TempDir, files

namespace rpckit::gen::test {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

std::string schema() { return (source_dir() / "schema/protocol.json").string(); }
fs::path fixtures() { return source_dir() / "tests/validate/fixtures"; }

RunResult validate(std::vector<std::string> args, const fs::path& cwd = {}) {
  args.insert(args.begin(), {rpckit_exe(), "validate", "--schema", schema()});
  return run(args, cwd);
}

TEST(ValidateCli, APayloadIsValidOrEachProblemSaysWhere) {
  TempDir dir("validate-payload");
  write_file(dir.path() / "ok.json", R"({"message": "hi", "level": "warning"})");
  RunResult ok = validate({"--message", "notify", "--part", "params", "ok.json"}, dir.path());
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, "ok.json: valid (0 errors, 0 warnings)\n");

  write_file(dir.path() / "bad.json", "{\n  \"level\": \"loud\",\n  \"message\": [1]\n}\n");
  RunResult bad = validate({"--message", "notify", "--part", "params", "bad.json"}, dir.path());
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.out,
            "bad.json:2:12: warning: /level: expected one of \"info\", \"warning\", \"error\", "
            "found \"loud\" [messages/notify.json#/definitions/NotifyParams/properties/level/enum]\n"
            "bad.json:3:14: error: /message: expected a value of type string, found an array of 1 "
            "item (array) [messages/notify.json#/definitions/NotifyParams/properties/message/type]\n"
            "bad.json: invalid (1 error, 1 warning)\n");

  // --strict: the unlisted enum value is an error too; --json says the same for machines.
  RunResult strict = validate({"--message", "notify", "--part", "params", "bad.json", "--strict", "--json"},
                              dir.path());
  EXPECT_EQ(strict.exit_code, 1);
  json report = json::parse(strict.out);
  EXPECT_EQ(report["valid"], false);
  EXPECT_EQ(report["errors"], 2);
  EXPECT_EQ(report["findings"][0]["severity"], "error");
  EXPECT_EQ(report["findings"][0]["keyword"], "enum");
  EXPECT_EQ(report["findings"][0]["line"], 2);
  EXPECT_EQ(report["findings"][0]["column"], 12);
  EXPECT_EQ(report["findings"][1]["instance"], "/message");
}

TEST(ValidateCli, ResultsAndErrorsOfAMethod) {
  TempDir dir("validate-result");
  write_file(dir.path() / "r.json", R"({"plugin_version": "1.0.0", "hooks": ["on_stream_start"]})");
  EXPECT_EQ(validate({"--message", "initialize", "--part", "result", "r.json"}, dir.path()).exit_code, 0);
  write_file(dir.path() / "e.json", R"({"code": "x", "message": "m"})");
  RunResult e = validate({"--message", "initialize", "--part", "error", "e.json"}, dir.path());
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_THAT(e.out, HasSubstr("e.json:1:10: error: /code: expected a value of type integer"));
}

TEST(ValidateCli, EnvelopesFromStdinAndResponsesNeedTheirMethod) {
  TempDir dir("validate-envelope");
  write_file(dir.path() / "req.json", R"({"jsonrpc": "2.0", "id": 4, "method": "ping", "params": {}})");
  EXPECT_EQ(validate({"--envelope", "req.json"}, dir.path()).exit_code, 0);
  write_file(dir.path() / "resp.json", R"({"jsonrpc": "2.0", "id": 4, "result": {"hooks": 1}})");
  RunResult unnamed = validate({"--envelope", "resp.json"}, dir.path());
  EXPECT_EQ(unnamed.exit_code, 2);
  EXPECT_EQ(unnamed.err, "rpckit validate: resp.json: a response does not name its method: give --message\n");
  RunResult named = validate({"--envelope", "resp.json", "--message", "initialize"}, dir.path());
  EXPECT_EQ(named.exit_code, 1);
  EXPECT_THAT(named.out, HasSubstr("resp.json:1:39: error: /result: expected member \"plugin_version\""));
  // "-" reads stdin.
  RunResult piped = run({"/bin/sh", "-c", "echo '{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}' | '" +
                                               rpckit_exe() + "' validate --schema '" + schema() +
                                               "' --envelope -"});
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out, "-: valid (0 errors, 0 warnings)\n");
}

// MCP's tools/call answered for a request that carried `task` (x-result-when): --request-with
// names the member, so the result is checked against CreateTaskResult.
TEST(ValidateCli, AResultOfARequestThatCarriedAMemberOfXResultWhen) {
  TempDir dir("validate-result-when");
  const std::string mcp = (source_dir() / "schema/mcp/protocol.json").string();
  auto run_mcp = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {rpckit_exe(), "validate", "--schema", mcp});
    return run(args, dir.path());
  };
  write_file(dir.path() / "task.json",
             R"({"task": {"taskId": "t1", "status": "working", "createdAt": "2025-11-25T10:00:00Z",
                 "lastUpdatedAt": "2025-11-25T10:00:00Z", "ttl": null}})");
  RunResult with = run_mcp(
      {"--message", "tools/call", "--part", "result", "--request-with", "task", "task.json"});
  EXPECT_EQ(with.exit_code, 0) << with.out << with.err;
  RunResult without = run_mcp({"--message", "tools/call", "--part", "result", "task.json"});
  EXPECT_EQ(without.exit_code, 1);
  EXPECT_THAT(without.out, HasSubstr("expected member \"content\""));
  write_file(dir.path() / "resp.json", R"({"jsonrpc": "2.0", "id": 2, "result": {"content": []}})");
  RunResult envelope =
      run_mcp({"--envelope", "resp.json", "--message", "tools/call", "--request-with", "task"});
  EXPECT_EQ(envelope.exit_code, 1);
  EXPECT_THAT(envelope.out, HasSubstr("expected member \"task\""));
  // A member x-result-when does not name is a usage error, not a quiet check against x-result.
  RunResult typo = run_mcp(
      {"--message", "tools/call", "--part", "result", "--request-with", "tsak", "task.json"});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_EQ(typo.err,
            "rpckit validate: --request-with tsak: tools/call's x-result-when names task\n");
  RunResult params = run_mcp(
      {"--message", "tools/call", "--part", "params", "--request-with", "task", "task.json"});
  EXPECT_EQ(params.exit_code, 2);
  EXPECT_EQ(params.err, "rpckit validate: --request-with goes with --part result\n");
}

TEST(ValidateCli, UsageAndInputErrorsExitTwo) {
  TempDir dir("validate-usage");
  write_file(dir.path() / "p.json", "{\"message\": \n  nope}");
  auto expect_usage = [&](std::vector<std::string> args, const std::string& message) {
    RunResult r = validate(std::move(args), dir.path());
    EXPECT_EQ(r.exit_code, 2) << message;
    EXPECT_THAT(r.err, HasSubstr(message));
    EXPECT_EQ(r.out, "");
  };
  expect_usage({}, "give one of FILE (with --message and --part), --envelope or --transcript");
  expect_usage({"p.json"}, "a payload FILE needs --message METHOD and --part params|result|error");
  expect_usage({"--message", "nope", "--part", "params", "p.json"}, "--message nope: the protocol has no such method");
  expect_usage({"--message", "notify", "--part", "body", "p.json"}, "--part is params, result or error");
  expect_usage({"--message", "notify", "--part", "params", "p.json"}, "p.json:2:3: not JSON: at byte 15");
  expect_usage({"--message", "notify", "--part", "params", "missing.json"}, "cannot read missing.json");
  expect_usage({"--transcript", "p.json", "--format", "xml"}, "--format is content-length, ndjson or jsonl");
  expect_usage({"--transcript", "p.json", "--from", "nobody"}, "--from nobody: the protocol's roles are [\"host\",\"plugin\"]");
  RunResult no_schema = run({rpckit_exe(), "validate", "--schema", "/nonexistent/protocol.json", "--envelope", "x"});
  EXPECT_EQ(no_schema.exit_code, 2);
  EXPECT_THAT(no_schema.err, HasSubstr("rpckit validate: schema error: "));
}

// One deliberate error of each class a transcript can hold (fixtures/broken_session.jsonl,
// commented in make order): the whole report, as a reviewer reads it.
TEST(ValidateCli, ABrokenSessionReportsEveryClassOfProblemInFrameOrder) {
  RunResult r = validate({"--transcript", "fixtures/broken_session.jsonl"}, source_dir() / "tests/validate");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, read_file(fixtures() / "broken_session.report"));
}

// A one-shot exchange (core line plugins, x-exchange) is checked by its steps, not as JSON-RPC.
RunResult validate_core_line(std::vector<std::string> args, const fs::path& cwd) {
  args.insert(args.begin(), {rpckit_exe(), "validate", "--schema",
                             (source_dir() / "schema/core_line/protocol.json").string()});
  return run(args, cwd);
}

TEST(ValidateCli, ACoreLineCallIsCheckedByItsExchange) {
  RunResult ok = validate_core_line({"--transcript", "fixtures/core_line_session.jsonl"},
                                    source_dir() / "tests/validate");
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_EQ(ok.out, "fixtures/core_line_session.jsonl (jsonl): valid (0 errors, 0 warnings, 4 frames)\n");

  // Every rule of the exchange broken once, in three conversations.
  RunResult bad = validate_core_line({"--transcript", "fixtures/core_line_broken.jsonl"},
                                     source_dir() / "tests/validate");
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_EQ(bad.out, read_file(fixtures() / "core_line_broken.report"));
}

TEST(ValidateCli, OneSideOfACoreLineCallAsARawStream) {
  TempDir dir("validate-core-line-raw");
  write_file(dir.path() / "plugin.ndjson",
             R"({"type":"handshake","manifest":{"plugin_id":"p","plugin_version":"1","protocol_version":"rterm.plugin.v1","exposed_tools":["t"]}})"
             "\n"
             R"({"type":"response","request_id":"plugin_req_0000000000000001","status":"error","error":{"code":"x","message":"no"}})"
             "\n");
  RunResult ok = validate_core_line({"--transcript", "plugin.ndjson", "--from", "plugin"}, dir.path());
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_EQ(ok.out, "plugin.ndjson (ndjson): valid (0 errors, 0 warnings, 2 frames)\n");
  RunResult both = validate_core_line({"--transcript", "plugin.ndjson"}, dir.path());
  EXPECT_EQ(both.exit_code, 1) << both.out;  // read as both sides, the core's steps are missing
}

TEST(ValidateCli, RawStreamsOfOnePipeWithTheSenderNamed) {
  TempDir dir("validate-raw");
  auto framed = [](const std::string& body) {
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  };
  const std::string ping = R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{}})";
  const std::string log = R"({"jsonrpc":"2.0","method":"log","params":{"level":"info","message":"m"}})";
  const std::string huge = "{\"jsonrpc\":\"2.0\",\"method\":\"exit\",\"params\":{\"x\":\"" +
                           std::string(4u << 20, 'x') + "\"}}";
  write_file(dir.path() / "host.bin", framed(ping) + framed(log) + framed(huge) + framed(ping));
  RunResult r = validate({"--transcript", "host.bin", "--from", "host"}, dir.path());
  EXPECT_EQ(r.exit_code, 1);
  // One side's stream: its ping's answer is in the other pipe, so it is not "unanswered".
  EXPECT_EQ(r.out,
            "host.bin: error: frame 2 from host: /method: expected log sent by plugin (plugin to "
            "host), found sent by host\n"
            "host.bin: error: frame 3 from host: /: expected a frame of at most 4194304 bytes, found "
            "4194355 bytes\n"
            "host.bin: error: frame 4 from host: /id: expected an id not in flight (frame 1's ping "
            "still waits for its answer), found 1\n"
            "host.bin (content-length): invalid (3 errors, 0 warnings, 4 frames)\n");

  // The same frames as NDJSON lines: positions are line:column.
  write_file(dir.path() / "host.ndjson", ping + "\n" + R"({"jsonrpc":"2.0","method":"log","params":{"level":3,"message":"m"}})" + "\n");
  RunResult nd = validate({"--transcript", "host.ndjson", "--from", "plugin"}, dir.path());
  EXPECT_EQ(nd.exit_code, 1);
  EXPECT_THAT(nd.out, HasSubstr("host.ndjson:1:34: error: frame 1 from plugin: /method: expected ping sent by host"));
  EXPECT_THAT(nd.out, HasSubstr("host.ndjson:2:51: error: frame 2 from plugin: /params/level: expected a value of type string"));
  EXPECT_THAT(nd.out, HasSubstr("host.ndjson (ndjson): invalid"));
}

// The demo host's own transcript of a real session with the sample plugin is valid.
TEST(ValidateCli, TheDemoHostsTranscriptOfARealSessionIsValid) {
  TempDir dir("validate-demo");
  const fs::path transcript = dir.path() / "demo.jsonl";
  // --ignore-stdin: the demo stops when its stdin closes, and a test's stdin may be at EOF.
  RunResult demo = run({RPCKIT_DEMO_HOST, RPCKIT_DEMO_PLUGIN_DIR, "--time-scale", "0.05",
                        "--state-dir", (dir.path() / "state").string(), "--host-methods",
                        "log,notify,get_followed_live,set_upstream", "--ignore-stdin",
                        "--transcript", transcript.string()});
  ASSERT_EQ(demo.exit_code, 0) << demo.err;
  RunResult r = validate({"--transcript", transcript.string(), "--strict"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("(jsonl): valid (0 errors, 0 warnings, "));
}

}  // namespace
}  // namespace rpckit::gen::test
