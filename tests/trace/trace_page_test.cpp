// The inspector page's data, as `rpckit trace` embeds it: each message's kind, method, lane,
// id, body, the request a response answers and the request a nested call was made while
// handling; every finding in the words `rpckit validate` prints (a broken session of each
// class); lifecycle lines; the schema's documentation; text that would end the page's script;
// the three recorded forms and the one-shot exchange; and TranscriptStream giving the same
// frames as read_transcript, chunk boundaries or not.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "rpckit/validate/transcript.hpp"
#include "rpckit/validate/transcript_stream.hpp"
#include "tool/trace/page_writer.hpp"
#include "tool/trace/trace.hpp"

namespace rpckit::trace {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
namespace v = rpckit::validate;

std::filesystem::path source_dir() {
  const char* dir = std::getenv("RPCKIT_SOURCE_DIR");
  return dir ? dir : ".";
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Page {
  std::string html;
  json data;
  TraceSummary summary;

  // Messages only (notes are objects), 1-based by frame as the page numbers them.
  const json& message(std::size_t frame) const {
    std::size_t n = 0;
    for (const auto& e : data["events"]) {
      if (e.is_array() && ++n == frame) return e;
    }
    throw std::out_of_range("no frame " + std::to_string(frame));
  }
  std::string method(std::size_t frame) const {
    const int m = message(frame)[3].get<int>();
    return m < 0 ? "" : data["methods"][static_cast<std::size_t>(m)]["name"].get<std::string>();
  }
  std::vector<std::string> texts(std::size_t frame) const {
    std::vector<std::string> out;
    const json& m = message(frame);
    if (m.size() > 9) {
      for (const auto& f : m[9]) out.push_back(f[5].get<std::string>());
    }
    for (const auto& late : data["late"]) {
      if (late[0] == frame) out.push_back(late[1][5].get<std::string>());
    }
    return out;
  }
};

Page trace(const std::string& schema, const std::string& transcript, const std::string& name,
           const std::string& from = "") {
  auto protocol = v::ProtocolSchema::load(source_dir() / schema);
  v::ProtocolValidator validator(protocol);
  std::istringstream in(transcript);
  std::ostringstream out;
  Page page;
  page.summary = write_trace(validator, in, {name, std::nullopt, from, schema, ""}, out);
  page.html = out.str();
  const std::string open = "<script id=\"rpckit-data\" type=\"application/json\">";
  const auto start = page.html.find(open);
  EXPECT_NE(start, std::string::npos);
  const auto end = page.html.find("</script>", start);
  page.data = json::parse(page.html.substr(start + open.size(), end - start - open.size()));
  return page;
}

std::string frame_line(double t, const std::string& direction, const json& message,
                       const std::string& peer = "p") {
  return json({{"t", t}, {"type", "frame"}, {"plugin", peer}, {"direction", direction},
               {"message", message}})
             .dump() +
         "\n";
}

TEST(TracePage, IsOneSelfContainedFile) {
  Page page = trace("schema/protocol.json",
                    read_file(source_dir() / "tests/validate/fixtures/broken_session.jsonl"),
                    "broken.jsonl");
  EXPECT_EQ(page.html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_THAT(page.html, HasSubstr("<title>broken.jsonl · rpckit trace</title>"));
  // No network at view time: nothing is fetched from elsewhere.
  EXPECT_EQ(page.html.find("<script src"), std::string::npos);
  EXPECT_EQ(page.html.find("<link"), std::string::npos);
  EXPECT_EQ(page.html.find("@DATA@"), std::string::npos);
  EXPECT_EQ(page.data["meta"]["frames"], 16);
  EXPECT_EQ(page.data["meta"]["format"], "jsonl");
  EXPECT_EQ(page.data["meta"]["timed"], true);
}

// Every finding says what `rpckit validate --transcript` says about that frame, word for word.
TEST(TracePage, FindingsAreTheWordsOfValidate) {
  Page page = trace("schema/protocol.json",
                    read_file(source_dir() / "tests/validate/fixtures/broken_session.jsonl"),
                    "tests/validate/fixtures/broken_session.jsonl");
  EXPECT_EQ(page.summary.errors, 10u);
  EXPECT_EQ(page.summary.warnings, 1u);
  EXPECT_THAT(page.texts(2),
              ::testing::ElementsAre(
                  "tests/validate/fixtures/broken_session.jsonl:3:142: error: frame 2 from plugin "
                  "(dev.example.alerts): /result: expected member \"hooks\", found an object "
                  "without it [messages/initialize.json#/definitions/InitializeResult/required]"));
  EXPECT_THAT(page.texts(7),
              ::testing::ElementsAre(
                  "tests/validate/fixtures/broken_session.jsonl:8:173: warning: frame 7 from "
                  "plugin (dev.example.alerts): /params/level: expected one of \"info\", "
                  "\"warning\", \"error\", found \"debug\" "
                  "[messages/notify.json#/definitions/NotifyParams/properties/level/enum]"));
  // Known only at the end, said where the request was sent.
  EXPECT_THAT(page.texts(14),
              ::testing::ElementsAre(
                  "tests/validate/fixtures/broken_session.jsonl:15:129: error: frame 14 from "
                  "plugin (dev.example.alerts): /id: expected an answer to get_followed_live (id "
                  "13), found none by the end of the transcript"));
  const json& f = page.message(4)[9][0];
  EXPECT_EQ(f[0], 1);
  EXPECT_EQ(f[1], "/params/message");
  EXPECT_EQ(f[2], "type");
  EXPECT_EQ(f[4], "expected a value of type string, found 5 (integer)");
  EXPECT_EQ(page.message(16)[2], static_cast<int>(Kind::kOther));
}

TEST(TracePage, PairsRequestsWithAnswersAndNestsCalls) {
  const json init = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
                     {"params", json::object()}};
  std::string t;
  t += frame_line(0.0, "host_to_plugin", init);
  t += frame_line(0.001, "plugin_to_host",
                  {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "get_followed_live"}});
  t += frame_line(0.004, "host_to_plugin", {{"jsonrpc", "2.0"}, {"id", 1}, {"result", json::array()}});
  t += frame_line(0.010, "plugin_to_host", {{"jsonrpc", "2.0"}, {"id", 1}, {"result", json::object()}});
  t += frame_line(0.011, "plugin_to_host",
                  {{"jsonrpc", "2.0"}, {"method", "log"}, {"params", {{"level", "info"}}}});
  t += frame_line(0.012, "plugin_to_host",
                  {{"jsonrpc", "2.0"}, {"id", 2}, {"error", {{"code", -1}, {"message", "x"}}}});
  Page page = trace("schema/protocol.json", t, "s.jsonl");
  // [t, lane, kind, method, id, size, body, answers, parent]
  EXPECT_EQ(page.message(1)[2], static_cast<int>(Kind::kRequest));
  EXPECT_EQ(page.message(1)[0], 0.0);
  EXPECT_EQ(page.method(1), "initialize");
  EXPECT_EQ(page.message(1)[4], "1");
  EXPECT_EQ(page.message(1)[8], 0);
  // The plugin's call while it handles initialize: nested under frame 1, in its own lane.
  EXPECT_EQ(page.method(2), "get_followed_live");
  EXPECT_EQ(page.message(2)[8], 1);
  EXPECT_NE(page.message(2)[1], page.message(1)[1]);
  // Same id 1 both ways: each answer pairs with the other side's request.
  EXPECT_EQ(page.message(3)[2], static_cast<int>(Kind::kResult));
  EXPECT_EQ(page.message(3)[7], 2);
  EXPECT_EQ(page.method(3), "get_followed_live");
  EXPECT_EQ(page.message(4)[7], 1);
  EXPECT_EQ(page.method(4), "initialize");
  EXPECT_EQ(page.message(4)[0], 0.010);
  EXPECT_EQ(page.message(5)[2], static_cast<int>(Kind::kNotification));
  // An error answering nothing: an error, paired with no request.
  EXPECT_EQ(page.message(6)[2], static_cast<int>(Kind::kError));
  EXPECT_EQ(page.message(6)[7], 0);
  EXPECT_EQ(page.message(6)[5], page.message(6)[6].get<std::string>().size());
  const json& lanes = page.data["lanes"];
  ASSERT_EQ(lanes.size(), 2u);
  EXPECT_EQ(lanes[0], json({{"peer", "p"}, {"from", "host"}, {"to", "plugin"}}));
  EXPECT_EQ(lanes[1], json({{"peer", "p"}, {"from", "plugin"}, {"to", "host"}}));
}

TEST(TracePage, KeepsLifecycleLinesAsNotes) {
  std::string t = R"({"t":0.0,"type":"lifecycle","plugin":"p","event":"starting","cause":"requested","detail":""})"
                  "\n";
  t += frame_line(0.1, "host_to_plugin", {{"jsonrpc", "2.0"}, {"method", "initialized"}});
  t += R"({"t":0.2,"type":"lifecycle","plugin":"p","event":"stopped","cause":"crashed","detail":"signal 9"})"
       "\n";
  Page page = trace("schema/protocol.json", t, "s.jsonl");
  const json& events = page.data["events"];
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0]["event"], "starting");
  EXPECT_TRUE(events[1].is_array());
  EXPECT_EQ(events[2]["cause"], "crashed");
  EXPECT_EQ(page.summary.notes, 2u);
}

TEST(TracePage, TextThatWouldEndTheScriptStaysInside) {
  std::string t = frame_line(
      0.0, "plugin_to_host",
      {{"jsonrpc", "2.0"}, {"method", "log"},
       {"params", {{"level", "info"}, {"message", "</script><script>alert(1)</script><!--"}}}});
  Page page = trace("schema/protocol.json", t, "</title>.jsonl");
  EXPECT_EQ(page.html.find("<script>alert"), std::string::npos);
  EXPECT_EQ(page.html.find("<!--"), std::string::npos);
  EXPECT_THAT(page.html, HasSubstr("<title>&lt;/title&gt;.jsonl · rpckit trace</title>"));
  EXPECT_THAT(page.message(1)[6].get<std::string>(), HasSubstr("</script><script>alert(1)"));
}

TEST(TracePage, EmbedsTheSchemaDocumentation) {
  Page page = trace("schema/protocol.json", "", "empty.jsonl");
  const json& docs = page.data["docs"];
  const json& notify = docs["methods"]["notify"];
  EXPECT_EQ(notify["kind"], "request");
  EXPECT_EQ(notify["from"], "plugin");
  EXPECT_FALSE(notify["d"].get<std::string>().empty());
  // The envelope's params member leads, through $ref, to NotifyParams and its members.
  const json& nodes = docs["nodes"];
  const json& env = nodes[notify["env"].get<std::size_t>()];
  std::vector<std::size_t> todo = {env["p"]["params"].get<std::size_t>()};
  bool found = false;
  for (std::size_t i = 0; i < todo.size() && i < 20; ++i) {
    const json& n = nodes[todo[i]];
    if (n.contains("p") && n["p"].contains("level")) {
      found = nodes[n["p"]["level"].get<std::size_t>()].contains("d") ||
              nodes[n["p"]["level"].get<std::size_t>()].contains("x");
    }
    for (const auto& x : n.value("x", json::array())) todo.push_back(x.get<std::size_t>());
  }
  EXPECT_TRUE(found);
  EXPECT_TRUE(docs.contains("error"));
  EXPECT_EQ(page.data["events"].size(), 0u);
}

// x-result-when: MCP's tools/call lists the result a request carrying `task` gets (the page
// describes such an answer by it, not by CallToolResult).
TEST(TracePage, EmbedsTheResultsAParamChooses) {
  Page page = trace("schema/mcp/protocol.json", "", "empty.jsonl");
  const json& docs = page.data["docs"];
  const json& call = docs["methods"]["tools/call"];
  ASSERT_TRUE(call.contains("rw"));
  ASSERT_EQ(call["rw"].size(), 1u);
  EXPECT_EQ(call["rw"][0][0], "task");
  EXPECT_NE(call["rw"][0][1], call["res"]);
  // Through its $ref, to CreateTaskResult's members: `task`, which CallToolResult has not.
  const json& nodes = docs["nodes"];
  auto members = [&](std::size_t root) {
    std::set<std::string> out;
    std::vector<std::size_t> todo = {root};
    for (std::size_t i = 0; i < todo.size() && i < 20; ++i) {
      const json& n = nodes[todo[i]];
      const json members_of_node = n.value("p", json::object());
      for (const auto& [name, at] : members_of_node.items()) out.insert(name);
      for (const auto& x : n.value("x", json::array())) todo.push_back(x.get<std::size_t>());
    }
    return out;
  };
  EXPECT_TRUE(members(call["rw"][0][1].get<std::size_t>()).count("task"));
  EXPECT_TRUE(members(call["res"].get<std::size_t>()).count("content"));
  EXPECT_FALSE(members(call["res"].get<std::size_t>()).count("task"));
  EXPECT_FALSE(docs["methods"]["tools/list"].contains("rw"));
}

TEST(TracePage, ReadsARawStreamOfOneSide) {
  auto framed = [](const json& m) {
    const std::string body = m.dump();
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  };
  std::string bytes = framed({{"jsonrpc", "2.0"}, {"id", 7}, {"method", "ping"}}) +
                      framed({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", 3}});
  Page page = trace("schema/protocol.json", bytes, "host.bin", "host");
  EXPECT_EQ(page.data["meta"]["format"], "content-length");
  EXPECT_EQ(page.data["meta"]["timed"], false);
  EXPECT_TRUE(page.message(1)[0].is_null());
  EXPECT_EQ(page.data["lanes"][0]["from"], "host");
  EXPECT_THAT(page.texts(2), ::testing::ElementsAre(
                                 HasSubstr("host.bin: error: frame 2 from host: /params: expected exactly one"),
                                 HasSubstr("host.bin: error: frame 2 from host: /params: expected a value of type object")));
  // One side's stream: the ping's answer is in the other pipe, so it is not "unanswered".
  EXPECT_THAT(page.texts(1), ::testing::IsEmpty());
}

TEST(TracePage, PairsTheStepsOfAOneShotExchange) {
  Page page = trace("schema/core_line/protocol.json",
                    read_file(source_dir() / "tests/validate/fixtures/core_line_session.jsonl"),
                    "core.jsonl");
  EXPECT_EQ(page.method(1), "HandshakeRequest");
  EXPECT_EQ(page.message(1)[2], static_cast<int>(Kind::kRequest));
  EXPECT_EQ(page.method(2), "HandshakeResponse");
  EXPECT_EQ(page.message(2)[2], static_cast<int>(Kind::kResult));
  EXPECT_EQ(page.message(2)[7], 1);
  EXPECT_EQ(page.method(3), "ExecuteRequest");
  EXPECT_EQ(page.message(4)[7], 3);
  EXPECT_TRUE(page.data["docs"]["methods"].contains("ExecuteResponse"));
  EXPECT_EQ(page.data["meta"]["exchange"], true);
}

// The stream reads what read_transcript reads, however the bytes arrive.
TEST(TranscriptStream, GivesTheFramesOfReadTranscript) {
  for (const char* fixture : {"broken_session.jsonl", "core_line_session.jsonl"}) {
    const std::string bytes = read_file(source_dir() / "tests/validate/fixtures" / fixture);
    std::vector<v::Finding> p1, p2;
    const auto format = v::detect_transcript_format(bytes);
    const auto whole = v::read_transcript(bytes, format, "", p1);
    for (auto f : {format, v::TranscriptFormat::kNdjson}) {
      std::istringstream in(bytes);
      v::TranscriptStream stream(in, f, "");
      std::vector<v::Frame> frames;
      v::TranscriptEntry e;
      while (stream.next(e, p2)) {
        if (e.is_frame) frames.push_back(e.frame);
      }
      if (f != format) {
        EXPECT_GT(frames.size(), whole.size());  // every line is a frame of NDJSON
        continue;
      }
      ASSERT_EQ(frames.size(), whole.size()) << fixture;
      for (std::size_t i = 0; i < frames.size(); ++i) {
        EXPECT_EQ(frames[i].body, whole[i].body);
        EXPECT_EQ(frames[i].line, whole[i].line);
        EXPECT_EQ(frames[i].offset, whole[i].offset);
        EXPECT_EQ(frames[i].from, whole[i].from);
        EXPECT_EQ(frames[i].peer, whole[i].peer);
      }
    }
  }
  // A line longer than a read chunk, and a last line without its newline.
  const std::string long_line = "{\"jsonrpc\":\"2.0\",\"method\":\"log\",\"params\":\"" +
                                std::string(200000, 'x') + "\"}";
  const std::string bytes = "\n" + long_line + "\r\n\n{\"a\":1}";
  std::istringstream in(bytes);
  v::TranscriptStream stream(in, std::nullopt, "plugin");
  EXPECT_EQ(stream.format(), v::TranscriptFormat::kNdjson);
  std::vector<v::Finding> problems;
  v::TranscriptEntry e;
  ASSERT_TRUE(stream.next(e, problems));
  EXPECT_EQ(e.frame.body, long_line);
  EXPECT_EQ(e.frame.line, 2u);
  EXPECT_EQ(e.frame.offset, 1u);
  ASSERT_TRUE(stream.next(e, problems));
  EXPECT_EQ(e.frame.body, "{\"a\":1}");
  EXPECT_EQ(e.frame.line, 4u);
  EXPECT_FALSE(stream.next(e, problems));
}

TEST(TranscriptStream, StopsAtABrokenContentLengthHeader) {
  const std::string bytes = "Content-Length: 2\r\n\r\n{}Content-Length: x\r\n\r\n{}";
  std::istringstream in(bytes);
  v::TranscriptStream stream(in, std::nullopt, "host");
  std::vector<v::Finding> problems;
  v::TranscriptEntry e;
  ASSERT_TRUE(stream.next(e, problems));
  EXPECT_EQ(e.frame.body, "{}");
  EXPECT_FALSE(stream.next(e, problems));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].frame, 2u);
  EXPECT_EQ(problems[0].violation.keyword, "framing");
}

}  // namespace
}  // namespace rpckit::trace
