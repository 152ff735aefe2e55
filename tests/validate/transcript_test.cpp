// Conversations checked against schema/protocol.json with the C++ API: every class of problem
// a transcript can hold (a payload the schema rejects, a message sent by the wrong side, an
// unknown method, a result of the wrong shape for the method it answers, ids answered twice
// or never, answers to nothing, frames that are not JSON or over the cap), what must pass
// (JSON-RPC's null-id error, MCP's error without an id, the answer to an unreadable frame), the
// three recorded forms, and the live FrameWatch.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "rpckit/validate/frame_watch.hpp"
#include "rpckit/validate/json_position.hpp"
#include "rpckit/validate/transcript.hpp"

namespace rpckit::validate {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

std::filesystem::path source_dir() {
  const char* dir = std::getenv("RPCKIT_SOURCE_DIR");
  return dir ? dir : ".";
}

std::shared_ptr<const ProtocolSchema> streamnook() {
  static auto protocol = ProtocolSchema::load(source_dir() / "schema/protocol.json");
  return protocol;
}

const json kInitialize = {
    {"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
    {"params",
     {{"protocol_version", 1}, {"host_version", "7.8.6"}, {"plugin_id", "dev.example.p"},
      {"granted", {{"events", json::array()}, {"host_methods", {"notify", "log"}},
                   {"credentials", json::array()}, {"ui", json::array()}}},
      {"data_dir", "/d"}, {"log_dir", "/l"}}}};
const json kInitializeResult = {{"jsonrpc", "2.0"}, {"id", 1},
                                {"result", {{"plugin_version", "1.0.0"}, {"hooks", json::array()}}}};

json notify(int id, json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", "notify"}, {"params", std::move(params)}};
}
json result(const json& id, json value) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(value)}};
}

class Transcript : public ::testing::Test {
 protected:
  explicit Transcript(ValidateOptions options = {}) : validator_(streamnook(), options) {}

  // Feeds one frame; returns what it found.
  std::vector<Finding> send(const std::string& from, const std::string& body,
                            const std::string& peer = "") {
    return checker_.feed({++number_, 0, peer, from, body});
  }
  std::vector<Finding> send(const std::string& from, const json& envelope) {
    return send(from, envelope.dump());
  }
  void handshake() {
    ASSERT_THAT(send("host", kInitialize), ::testing::IsEmpty());
    ASSERT_THAT(send("plugin", kInitializeResult), ::testing::IsEmpty());
  }
  static std::string keywords(const std::vector<Finding>& findings) {
    std::string out;
    for (const auto& f : findings) out += (out.empty() ? "" : " ") + f.violation.keyword;
    return out;
  }

  ProtocolValidator validator_;
  TranscriptChecker checker_{validator_};
  std::size_t number_ = 0;
};

TEST_F(Transcript, AWholeValidConversationHasNoFindings) {
  handshake();
  EXPECT_THAT(send("host", json{{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", json::object()}}),
              ::testing::IsEmpty());
  EXPECT_THAT(send("plugin", notify(7, {{"level", "warning"}, {"message", "m"}})), ::testing::IsEmpty());
  EXPECT_THAT(send("host", result(7, json::object())), ::testing::IsEmpty());
  EXPECT_THAT(send("host", json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "ping"}, {"params", json::object()}}),
              ::testing::IsEmpty());
  EXPECT_THAT(send("plugin", result(2, json::object())), ::testing::IsEmpty());
  EXPECT_THAT(checker_.finish(), ::testing::IsEmpty());
  EXPECT_EQ(checker_.frames(), 7u);
}

TEST_F(Transcript, AnInvalidPayloadNamesTheMemberTheSchemaKeywordAndTheFrame) {
  handshake();
  auto f = send("plugin", notify(7, {{"level", "info"}, {"message", 5}}));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].frame, 3u);
  EXPECT_EQ(f[0].from, "plugin");
  EXPECT_EQ(f[0].violation.instance, "/params/message");
  EXPECT_EQ(f[0].violation.schema,
            "messages/notify.json#/definitions/NotifyParams/properties/message/type");
  EXPECT_EQ(f[0].violation.message(), "expected a value of type string, found 5 (integer)");
}

TEST_F(Transcript, AnUnlistedEnumValueIsAWarningUnlessStrict) {
  auto f = send("plugin", notify(7, {{"level", "debug"}, {"message", "m"}}));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].violation.severity, Violation::Severity::kWarning);
  EXPECT_EQ(f[0].violation.message(),
            "expected one of \"info\", \"warning\", \"error\", found \"debug\"");

  ProtocolValidator strict(streamnook(), {true});
  TranscriptChecker checker(strict);
  auto g = checker.feed({1, 0, "", "plugin", notify(7, {{"level", "debug"}, {"message", "m"}}).dump()});
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].violation.severity, Violation::Severity::kError);
}

TEST_F(Transcript, AMessageSentByTheWrongSide) {
  auto f = send("host", notify(7, {{"message", "m"}}));
  EXPECT_EQ(keywords(f), "direction");
  EXPECT_EQ(f[0].violation.message(),
            "expected notify sent by plugin (plugin to host), found sent by host");
}

TEST_F(Transcript, AnUnknownMethodIsReportedAndItsErrorAnswerAccepted) {
  auto f = send("host", json{{"jsonrpc", "2.0"}, {"id", 9}, {"method", "frobnicate"}});
  EXPECT_EQ(keywords(f), "method");
  EXPECT_EQ(f[0].violation.found, "\"frobnicate\"");
  json answer = {{"jsonrpc", "2.0"}, {"id", 9}, {"error", {{"code", -32601}, {"message", "no"}}}};
  EXPECT_THAT(send("plugin", answer), ::testing::IsEmpty());
}

TEST_F(Transcript, AResultIsCheckedAgainstTheMethodItAnswers) {
  ASSERT_THAT(send("host", kInitialize), ::testing::IsEmpty());
  auto f = send("plugin", result(1, {{"plugin_version", "1.0.0"}}));
  EXPECT_EQ(keywords(f), "required");
  EXPECT_EQ(f[0].violation.instance, "/result");
  EXPECT_EQ(f[0].violation.schema,
            "messages/initialize.json#/definitions/InitializeResult/required");
  EXPECT_EQ(f[0].violation.expected, "member \"hooks\"");
}

TEST_F(Transcript, ARequestAnsweredTwice) {
  handshake();
  auto f = send("plugin", kInitializeResult);
  EXPECT_EQ(keywords(f), "id");
  EXPECT_EQ(f[0].violation.found, "1 (its request was already answered by frame 2)");
}

TEST_F(Transcript, ARequestNeverAnswered) {
  handshake();
  ASSERT_THAT(send("plugin", notify(7, {{"message", "m"}})), ::testing::IsEmpty());
  auto f = checker_.finish();
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].frame, 3u);
  EXPECT_EQ(f[0].violation.keyword, "unanswered");
  EXPECT_EQ(f[0].violation.message(),
            "expected an answer to notify (id 7), found none by the end of the transcript");
}

TEST_F(Transcript, AnAnswerToNothingAndAnAnswerToOwnRequest) {
  auto f = send("host", result(42, json::object()));
  EXPECT_EQ(keywords(f), "id");
  EXPECT_EQ(f[0].violation.found, "42 (no request in flight has this id)");
  // The plugin's request is answered by the host, not by the plugin itself.
  ASSERT_THAT(send("plugin", notify(7, {{"message", "m"}})), ::testing::IsEmpty());
  EXPECT_EQ(keywords(send("plugin", result(7, json::object()))), "id");
  EXPECT_THAT(send("host", result(7, json::object())), ::testing::IsEmpty());
}

TEST_F(Transcript, AnIdReusedWhileItsRequestWaits) {
  ASSERT_THAT(send("plugin", notify(7, {{"message", "a"}})), ::testing::IsEmpty());
  auto f = send("plugin", notify(7, {{"message", "b"}}));
  EXPECT_EQ(keywords(f), "id");
  EXPECT_EQ(f[0].violation.expected,
            "an id not in flight (frame 1's notify still waits for its answer)");
  // Once answered, the id may be used again; each side has ids of its own.
  ASSERT_THAT(send("host", result(7, json::object())), ::testing::IsEmpty());
  EXPECT_THAT(send("plugin", notify(7, {{"message", "c"}})), ::testing::IsEmpty());
  EXPECT_THAT(send("host", json{{"jsonrpc", "2.0"}, {"id", 7}, {"method", "ping"}, {"params", json::object()}}),
              ::testing::IsEmpty());
}

TEST_F(Transcript, ANotificationWithAnId) {
  auto f = send("host", json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "initialized"}, {"params", json::object()}});
  EXPECT_EQ(keywords(f), "kind");
  EXPECT_EQ(f[0].violation.expected, "no id (initialized is a notification)");
}

TEST_F(Transcript, FramesThatAreNotJsonTooDeepOrWithDuplicateMembers) {
  EXPECT_EQ(keywords(send("host", std::string("{\"jsonrpc\": \"2.0\",,}"))), "json");
  EXPECT_EQ(keywords(send("host", std::string(300, '[') + std::string(300, ']'))), "json");
  auto dup = send("host", std::string(R"({"jsonrpc":"2.0","id":1,"id":2,"method":"ping"})"));
  EXPECT_EQ(keywords(dup), "json");
  EXPECT_EQ(dup[0].violation.found, "member \"id\" occurs twice");
  // Their receiver's error, with whatever id it could read, answers them.
  json answer = {{"jsonrpc", "2.0"}, {"id", 2}, {"error", {{"code", -32600}, {"message", "bad"}}}};
  EXPECT_THAT(send("plugin", answer), ::testing::IsEmpty());
}

TEST_F(Transcript, JsonRpcsNullIdErrorIsAValidAnswer) {
  json answer = {{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"code", -32700}, {"message", "parse"}}}};
  EXPECT_THAT(send("plugin", answer), ::testing::IsEmpty());
  json bad = {{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"message", "no code"}}}};
  EXPECT_EQ(keywords(send("plugin", bad)), "required");
}

// MCP's profile leaves the id out of such an answer ("unknown_id": "omit"; its ErrorResponse
// has no required id); StreamNook's requires one, so there the missing id is what is reported.
TEST_F(Transcript, AnErrorWithoutIdIsAValidAnswerWhereTheProtocolLeavesTheIdOut) {
  static auto mcp = ProtocolSchema::load(source_dir() / "schema/mcp/protocol.json");
  ProtocolValidator mcp_validator(mcp);
  TranscriptChecker mcp_checker(mcp_validator);
  json answer = {{"jsonrpc", "2.0"}, {"error", {{"code", -32700}, {"message", "Parse error"}}}};
  EXPECT_THAT(mcp_checker.feed({1, 0, "", "server", answer.dump()}), ::testing::IsEmpty());
  json bad = {{"jsonrpc", "2.0"}, {"error", {{"code", "x"}, {"message", "Parse error"}}}};
  auto f = mcp_checker.feed({2, 0, "", "server", bad.dump()});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].violation.instance, "/error/code");
  EXPECT_THAT(mcp_checker.finish(), ::testing::IsEmpty());

  auto g = send("plugin", answer);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].violation.keyword, "required");
  EXPECT_THAT(g[0].violation.message(), HasSubstr("id"));
}

// x-error-data: -32042's data is UrlElicitationRequiredData (MCP errors.json); another code's
// data stays any JSON.
TEST(ErrorData, ACodeWithADataSchemaHasItsDataChecked) {
  static auto mcp = ProtocolSchema::load(source_dir() / "schema/mcp/protocol.json");
  ProtocolValidator v(mcp);
  const json elicitation = {{"mode", "url"},
                            {"elicitationId", "e1"},
                            {"url", "https://example.com/consent"},
                            {"message", "Authorize access"}};
  json good = {{"jsonrpc", "2.0"},
               {"id", 3},
               {"error",
                {{"code", -32042},
                 {"message", "URL elicitation required"},
                 {"data", {{"elicitations", json::array({elicitation})}}}}}};
  EXPECT_THAT(v.envelope(good), ::testing::IsEmpty());
  json bad = good;
  bad["error"]["data"] = {{"elicitations", "none"}};
  auto f = v.envelope(bad);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].instance, "/error/data/elicitations");
  EXPECT_EQ(f[0].keyword, "type");
  json missing = good;
  missing["error"].erase("data");
  f = v.envelope(missing);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].instance, "/error");
  EXPECT_EQ(f[0].keyword, "x-error-data");
  EXPECT_EQ(f[0].message(),
            "expected error.data (code -32042, url_elicitation_required, has a schema), found an "
            "error without it");
  // The error object alone (Part::kError), and a code without a data schema.
  f = v.payload("tools/call", Part::kError, bad["error"]);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].instance, "/data/elicitations");
  json other = {{"code", -32602}, {"message", "bad"}, {"data", {{"elicitations", "none"}}}};
  EXPECT_THAT(v.payload("tools/call", Part::kError, other), ::testing::IsEmpty());
}

// x-result-when: MCP's tools/call whose params carry `task` is answered with a CreateTaskResult,
// one without it with a CallToolResult; the transcript pairs each answer with its request's
// params, and a lone result names the member (Part::kResult, request_with).
TEST(ResultWhen, TheRequestsParamsChooseTheResultItIsCheckedAgainst) {
  static auto mcp = ProtocolSchema::load(source_dir() / "schema/mcp/protocol.json");
  ProtocolValidator v(mcp);
  const json task_result = {{"task",
                             {{"taskId", "t1"},
                              {"status", "working"},
                              {"createdAt", "2025-11-25T10:00:00Z"},
                              {"lastUpdatedAt", "2025-11-25T10:00:00Z"},
                              {"ttl", 60000}}}};
  const json tool_result = {{"content", json::array({{{"type", "text"}, {"text", "4"}}})}};
  auto call = [](int id, bool task) {
    json params = {{"name", "add"}, {"arguments", {{"a", 2}, {"b", 2}}}};
    if (task) params["task"] = {{"ttl", 60000}};
    return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", params}};
  };
  auto answer = [](int id, const json& result) {
    return json{{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}.dump();
  };
  TranscriptChecker checker(v);
  std::size_t frame = 0;
  auto feed = [&](const std::string& from, const std::string& body) {
    return checker.feed({++frame, 0, "", from, body});
  };
  ASSERT_THAT(feed("client", call(1, true).dump()), ::testing::IsEmpty());
  ASSERT_THAT(feed("client", call(2, false).dump()), ::testing::IsEmpty());
  ASSERT_THAT(feed("client", call(3, true).dump()), ::testing::IsEmpty());
  ASSERT_THAT(feed("client", call(4, false).dump()), ::testing::IsEmpty());
  EXPECT_THAT(feed("server", answer(1, task_result)), ::testing::IsEmpty());
  EXPECT_THAT(feed("server", answer(2, tool_result)), ::testing::IsEmpty());
  // Each shape where the other was due: the member the other lacks is what is missing.
  auto f = feed("server", answer(3, tool_result));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].violation.instance, "/result");
  EXPECT_EQ(f[0].violation.keyword, "required");
  EXPECT_THAT(f[0].violation.schema, HasSubstr("create_task_result.json"));
  f = feed("server", answer(4, task_result));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].violation.keyword, "required");
  EXPECT_THAT(f[0].violation.message(), HasSubstr("content"));
  EXPECT_THAT(checker.finish(), ::testing::IsEmpty());

  // A lone result or response: request_with names the member its request carried.
  EXPECT_THAT(v.payload("tools/call", Part::kResult, task_result, "task"), ::testing::IsEmpty());
  EXPECT_EQ(v.payload("tools/call", Part::kResult, task_result).size(), 1u);
  EXPECT_EQ(v.payload("tools/call", Part::kResult, tool_result, "task").size(), 1u);
  EXPECT_THAT(v.envelope(json::parse(answer(9, task_result)), "tools/call", "task"),
              ::testing::IsEmpty());
  // A member x-result-when does not name: the message's own result answers.
  EXPECT_THAT(v.payload("tools/call", Part::kResult, tool_result, "_meta"), ::testing::IsEmpty());
  // The member chooses when it is there and not null (the SDK: `if (params.task)`).
  const MessageSchema& tools_call = *mcp->find("tools/call");
  EXPECT_EQ(tools_call.result_chosen_by({{"task", json::object()}}), "task");
  EXPECT_EQ(tools_call.result_chosen_by({{"task", nullptr}}), "");
  EXPECT_EQ(tools_call.result_chosen_by({{"name", "add"}}), "");
  EXPECT_EQ(tools_call.result_chosen_by(json::array({"task"})), "");
  // The server asks too: sampling/createMessage with `task`, answered by the client.
  EXPECT_THAT(v.payload("sampling/createMessage", Part::kResult, task_result, "task"),
              ::testing::IsEmpty());
}

TEST_F(Transcript, AFrameOverTheCap) {
  const auto cap = *streamnook()->max_frame_bytes();
  EXPECT_EQ(cap, 4194304u);
  auto f = send("host", std::string(cap + 1, ' '));
  EXPECT_EQ(keywords(f), "max_frame_bytes");
  EXPECT_EQ(f[0].violation.message(), "expected a frame of at most 4194304 bytes, found 4194305 bytes");
}

TEST_F(Transcript, EachPeerHasItsOwnIds) {
  ASSERT_THAT(send("host", kInitialize.dump(), "a"), ::testing::IsEmpty());
  ASSERT_THAT(send("host", kInitialize.dump(), "b"), ::testing::IsEmpty());
  EXPECT_THAT(send("plugin", kInitializeResult.dump(), "b"), ::testing::IsEmpty());
  EXPECT_THAT(send("plugin", kInitializeResult.dump(), "a"), ::testing::IsEmpty());
  EXPECT_EQ(keywords(send("plugin", kInitializeResult.dump(), "a")), "id");
}

TEST_F(Transcript, WhatIsRememberedIsBoundedWhateverThePeerSends) {
  // Requests never answered: beyond the bound in flight, the oldest are reported at once.
  constexpr std::size_t kMax = 64;
  TranscriptChecker bounded(validator_, kMax);
  std::vector<Finding> early;
  for (std::size_t id = 1; id <= kMax + 10; ++id) {
    const std::string body = notify(static_cast<int>(id), {{"message", "m"}}).dump();
    for (Finding& f : bounded.feed({id, 0, "", "plugin", body})) early.push_back(std::move(f));
  }
  ASSERT_EQ(early.size(), 10u);
  EXPECT_EQ(early[0].frame, 1u);
  EXPECT_EQ(early[0].violation.found, "64 newer requests sent meanwhile");
  EXPECT_EQ(bounded.finish().size(), kMax);
  // The default: 16 times what a live endpoint's queue holds.
  EXPECT_GE(TranscriptChecker::kDefaultMaxTracked, 16u * 4096u);
}

TEST(TranscriptReader, ContentLengthFramesAndWhereTheFramingBreaks) {
  const std::string a = R"({"jsonrpc":"2.0","method":"exit"})";
  const std::string bytes = "Content-Length: " + std::to_string(a.size()) + "\r\n\r\n" + a +
                            "content-length: 2\r\n\r\n{}" + "Content-Length: x\r\n\r\n";
  EXPECT_EQ(detect_transcript_format(bytes), TranscriptFormat::kContentLength);
  std::vector<Finding> problems;
  auto frames = read_transcript(bytes, TranscriptFormat::kContentLength, "host", problems);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].body, a);
  EXPECT_EQ(frames[1].from, "host");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].frame, 3u);
  EXPECT_THAT(problems[0].violation.found, HasSubstr("reading stops here"));
}

TEST(TranscriptReader, NdjsonLinesKeepTheirLineNumbers) {
  const std::string bytes = "{\"a\":1}\n\n  \r\n{\"b\":2}\r\n{\"c\":3}";
  EXPECT_EQ(detect_transcript_format(bytes), TranscriptFormat::kNdjson);
  std::vector<Finding> problems;
  auto frames = read_transcript(bytes, TranscriptFormat::kNdjson, "", problems);
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[1].body, "{\"b\":2}");
  EXPECT_EQ(frames[1].line, 4u);
  EXPECT_EQ(frames[2].number, 3u);
  EXPECT_EQ(frames[2].line, 5u);
}

TEST(TranscriptReader, JsonLinesTranscriptsNameThePeerAndTheSender) {
  const std::string bytes =
      R"({"t":0.1,"type":"lifecycle","plugin":"p","event":"starting"})" "\n"
      R"({"t":0.2,"type":"frame","plugin":"p","direction":"host_to_plugin","message":{"jsonrpc":"2.0","method":"exit"}})" "\n"
      R"({"t":0.3,"type":"frame","plugin":"q","direction":"plugin_to_host","message":"not json {"})" "\n";
  EXPECT_EQ(detect_transcript_format(bytes), TranscriptFormat::kJsonLines);
  std::vector<Finding> problems;
  auto frames = read_transcript(bytes, TranscriptFormat::kJsonLines, "", problems);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].peer, "p");
  EXPECT_EQ(frames[0].from, "host");
  EXPECT_EQ(frames[0].line, 2u);
  EXPECT_EQ(frames[1].from, "plugin");
  EXPECT_EQ(frames[1].body, "not json {");  // an unparsable frame is kept as its text
  EXPECT_THAT(problems, ::testing::IsEmpty());
}

TEST(JsonPosition, LocatesMembersItemsAndTheDeepestExistingParent) {
  const std::string text = "{\n  \"a\": [1,\n    {\"b~/\": true}],\n  \"c\": null\n}";
  auto at = [&](const char* pointer) {
    auto offset = locate(text, pointer);
    EXPECT_TRUE(offset.has_value()) << pointer;
    auto p = position_of(text, offset.value_or(0));
    return std::to_string(p.line) + ":" + std::to_string(p.column);
  };
  EXPECT_EQ(at(""), "1:1");
  EXPECT_EQ(at("/a"), "2:8");
  EXPECT_EQ(at("/a/1/b~0~1"), "3:13");
  EXPECT_EQ(at("/c"), "4:8");
  EXPECT_EQ(at("/a/7"), "2:8");  // no item 7: its array
  EXPECT_FALSE(locate("{nope", "/a").has_value());
}

TEST(FrameWatch, ReportsViolationsFromConcurrentWritersWithDistinctFrameNumbers) {
  auto validator = std::make_shared<ProtocolValidator>(streamnook());
  std::mutex mutex;
  std::vector<std::string> lines;
  FrameWatch watch(validator, "host", [&](const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex);
    lines.push_back(line);
  });
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t) {
    writers.emplace_back([&watch, t] {
      for (int i = 0; i < 50; ++i) {
        // A host sending notify (a plugin's method) with a level of the wrong type: three
        // errors each (type, enum, direction).
        watch.observe(true, notify(t * 1000 + i, {{"level", 1}, {"message", "m"}}).dump());
      }
    });
  }
  for (auto& w : writers) w.join();
  EXPECT_EQ(watch.violations(), 600u);
  ASSERT_EQ(lines.size(), 600u);
  EXPECT_THAT(lines[0], HasSubstr("rpckit validate: frame "));
  EXPECT_THAT(lines[0], HasSubstr(" from host: "));
  std::set<std::string> frames;
  for (const auto& line : lines) frames.insert(line.substr(0, line.find(" from")));
  EXPECT_EQ(frames.size(), 200u);  // each frame numbered once
}

}  // namespace
}  // namespace rpckit::validate
