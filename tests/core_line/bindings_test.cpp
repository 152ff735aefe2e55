// The generated core line bindings: the spec's example lines decode into their messages and
// encode back to the same JSON; every example of tests/fixtures/core_line_v1/types/ that ajv
// accepts decodes (and survives encode + decode unchanged), every one ajv rejects is rejected
// by the decoder too, strict enums on, with the JSON path of the offending member.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "core_line_v1/constants.hpp"
#include "core_line_v1/types.hpp"

namespace {

namespace cl = core_line::v1;
using nlohmann::json;

// Decodes `j` as T with strict enums; the decode error's text, or "" and the value.
template <class T>
std::string decode_strict(const json& j, T& value) {
  rpckit::codec::DecodePath path;
  path.set_strict_enums(true);
  try {
    cl::decode(j, value, path);
  } catch (const rpckit::codec::DecodeError& e) {
    return e.what();
  }
  return "";
}

// Decodes, and for a value that decodes, checks that encode + decode gives it back.
template <class T>
std::string round_trip(const json& j) {
  T value{};
  std::string problem = decode_strict(j, value);
  if (!problem.empty()) return problem;
  T again{};
  json encoded = value;
  if (std::string p = decode_strict(encoded, again); !p.empty()) return "re-decoding: " + p;
  EXPECT_EQ(again, value) << encoded.dump();
  return "";
}

using Check = std::function<std::string(const json&)>;
const std::map<std::string, Check>& checks_by_file() {
  static const std::map<std::string, Check> checks = {
      {"handshake_request.json", round_trip<cl::HandshakeRequest>},
      {"handshake_response.json", round_trip<cl::HandshakeResponse>},
      {"manifest.json", round_trip<cl::Manifest>},
      {"execute_request.json", round_trip<cl::ExecuteRequest>},
      {"request_context.json", round_trip<cl::RequestContext>},
      {"execute_response.json", round_trip<cl::ExecuteResponse>},
      {"plugin_error.json", round_trip<cl::PluginError>},
      {"failure_code.json", round_trip<cl::FailureCode>},
  };
  return checks;
}

TEST(CoreLineBindings, TheSpecsTranscriptDecodesAndEncodesBackUnchanged) {
  const json lines[] = {
      json::parse(R"({"type":"handshake","protocol_version":"rterm.plugin.v1"})"),
      json::parse(R"({"type":"handshake","manifest":{"plugin_id":"acme.wordcount","plugin_version":"0.3.1","protocol_version":"rterm.plugin.v1","exposed_tools":["acme.count_words"],"capabilities":["tool.execute"]}})"),
      json::parse(R"({"type":"request","request_id":"plugin_req_5f0c1e2d3a4b6978","tool_name":"acme.count_words","context":{"workspace_id":"ws-1"},"input":{"text":"a b c"}})"),
      json::parse(R"({"type":"response","request_id":"plugin_req_5f0c1e2d3a4b6978","status":"ok","output":{"words":3}})"),
  };
  cl::HandshakeRequest hello;
  ASSERT_EQ(decode_strict(lines[0], hello), "");
  EXPECT_EQ(hello.protocol_version, cl::kProtocolVersion);
  EXPECT_EQ(json(hello), lines[0]);

  cl::HandshakeResponse answer;
  ASSERT_EQ(decode_strict(lines[1], answer), "");
  EXPECT_EQ(answer.manifest.plugin_id, "acme.wordcount");
  EXPECT_EQ(answer.manifest.exposed_tools, std::vector<std::string>{"acme.count_words"});
  EXPECT_EQ(json(answer), lines[1]);

  cl::ExecuteRequest request;
  ASSERT_EQ(decode_strict(lines[2], request), "");
  EXPECT_EQ(request.context.workspace_id, "ws-1");
  EXPECT_EQ(request.input.get().at("text"), "a b c");
  EXPECT_EQ(json(request), lines[2]);

  cl::ExecuteResponse response;
  ASSERT_EQ(decode_strict(lines[3], response), "");
  EXPECT_EQ(response.request_id, request.request_id);
  EXPECT_EQ(response.status, cl::ResponseStatus::kOk);
  EXPECT_FALSE(response.error.has_value());
  EXPECT_EQ(json(response), lines[3]);
}

// Which message a line is, and the member that says so: "type" is checked by every decoder.
TEST(CoreLineBindings, TheTypeMemberTellsTheMessagesApart) {
  cl::ExecuteResponse response;
  EXPECT_NE(decode_strict(json::parse(R"({"type":"request","request_id":"r","status":"ok"})"),
                          response)
                .find("type"),
            std::string::npos);
  cl::HandshakeRequest hello;
  EXPECT_NE(decode_strict(json::parse(R"({"type":"response","protocol_version":"v"})"), hello),
            "");
}

TEST(CoreLineBindings, TheDecodersAgreeWithAjvOnEveryFixture) {
  const std::filesystem::path dir = std::filesystem::path(CORE_LINE_FIXTURES) / "types";
  std::size_t files = 0;
  std::size_t cases = 0;
  for (const auto& [file, check] : checks_by_file()) {
    std::ifstream in(dir / file);
    ASSERT_TRUE(in) << (dir / file);
    const json examples = json::parse(in);
    ++files;
    for (const json& valid : examples.at("valid")) {
      EXPECT_EQ(check(valid), "") << file << ": " << valid.dump();
      ++cases;
    }
    for (const json& invalid : examples.at("invalid")) {
      EXPECT_NE(check(invalid.at("value")), "") << file << ": " << invalid.at("why");
      ++cases;
    }
  }
  // Every fixture file has its decoder here, and there are as many as types.
  std::size_t on_disk = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    EXPECT_TRUE(checks_by_file().count(entry.path().filename().string())) << entry.path();
    ++on_disk;
  }
  EXPECT_EQ(on_disk, files);
  EXPECT_GE(cases, 50u);
}

}  // namespace
