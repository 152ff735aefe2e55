// An additive change to the real schema (a new event, a new optional field, a new enum value,
// a new error code) only adds symbols to the IR and to the API the generated headers declare
// (gen::api_surface); a renaming change is caught by the same checks (negative controls: the
// checker is tested too).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "additive_check.hpp"
#include "model.hpp"
#include "schema_edit.hpp"
#include "support.hpp"

namespace rpckit::gen::test {
namespace {

using J = nlohmann::ordered_json;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

std::string lines(const std::vector<std::string>& problems) {
  std::string out;
  for (const std::string& p : problems) out += "  " + p + "\n";
  return out;
}

const OutputFile& file(const Generated& g, const std::string& suffix) {
  for (const OutputFile& f : g.files) {
    if (f.path.ends_with(suffix)) return f;
  }
  throw std::runtime_error("no generated " + suffix);
}

TEST(AdditiveChange, OnlyAddsSymbols) {
  Generated before = generate(source_dir() / "schema" / "protocol.json");
  SchemaCopy copy;
  apply_additive_change(copy);
  Generated after = copy.generate();

  // The change did happen (so the checks below are not vacuous).
  EXPECT_EQ(after.module.messages.size(), before.module.messages.size() + 2);
  EXPECT_THAT(file(after, "messages.hpp").content, HasSubstr("struct OnTestEvent {"));
  EXPECT_THAT(file(after, "messages.hpp").content, HasSubstr("struct GetTestValue {"));
  EXPECT_THAT(file(after, "roles.hpp").content,
              HasSubstr("virtual GetTestValueResult get_test_value(Context&, "
                        "const GetTestValueParams&) {"));
  EXPECT_THAT(file(after, "roles.hpp").content,
              HasSubstr("virtual void on_test_event(Context&, const OnTestEventParams&) {}"));
  EXPECT_THAT(file(after, "types.hpp").content, HasSubstr("std::optional<bool> is_favorite{};"));
  EXPECT_THAT(file(after, "types.hpp").content,
              HasSubstr("kOnTestEvent = 9,  // \"on_test_event\""));
  EXPECT_THAT(file(after, "types.hpp").content, HasSubstr("kOverlay = 2,  // \"overlay\""));
  EXPECT_THAT(file(after, "types.hpp").content, HasSubstr("kQuotaExceeded = -32099,"));
  EXPECT_THAT(file(after, "dispatch.hpp").content, HasSubstr("messages::OnTestEvent"));
  EXPECT_NE(file(after, "types.hpp").content, file(before, "types.hpp").content);

  std::vector<std::string> ir = ir_additive_problems(before.module, after.module);
  EXPECT_TRUE(ir.empty()) << "IR changes that are not additions:\n" << lines(ir);
  std::vector<std::string> declared =
      api_surface_problems(api_surface(before.module), api_surface(after.module));
  EXPECT_TRUE(declared.empty()) << "declarations that changed or went away:\n" << lines(declared);
}

// Whitespace runs as one space, none after an open parenthesis or angle bracket: a
// declaration the emitter broke over lines reads as the one line api_surface spells.
std::string collapsed(const std::string& text) {
  static const std::regex space(R"(\s+)");
  static const std::regex after_open(R"(([(<]) )");
  return std::regex_replace(std::regex_replace(text, space, " "), after_open, "$1");
}

// The module's API facts, each checked to be written in one of its headers as spelled.
std::vector<ApiFact> declared_facts(const Generated& g, const std::string& protocol) {
  std::string headers;
  for (const OutputFile& f : g.files) {
    if (f.path.ends_with(".hpp")) headers += collapsed(f.content) + "\n";
  }
  std::vector<ApiFact> facts = api_surface(g.module);
  for (const ApiFact& f : facts) {
    EXPECT_NE(headers.find(f.spelling), std::string::npos)
        << protocol << ": " << f.scope << "::" << f.symbol << ": `" << f.spelling
        << "` is in no header";
  }
  return facts;
}

TEST(AdditiveChange, TheApiSurfaceIsWhatTheHeadersDeclare) {
  Generated g = generate(source_dir() / "schema" / "protocol.json");
  std::vector<ApiFact> facts = declared_facts(g, "streamnook");
  EXPECT_GT(facts.size(), 500u);
  auto has = [&](const std::string& scope, const std::string& symbol, const std::string& spelling) {
    return std::any_of(facts.begin(), facts.end(), [&](const ApiFact& f) {
      return f.scope == scope && f.symbol == symbol && f.spelling == spelling;
    });
  };
  // One of each kind: field, string and integer enumerator, alias, constant, descriptor
  // member, direction, handler and client function.
  EXPECT_TRUE(has("streamnook::v1::Channel", "login", "std::string login"));
  EXPECT_TRUE(
      has("streamnook::v1::EventNameValues::Value", "kOnStreamStart", "kOnStreamStart = 1"));
  EXPECT_TRUE(has("streamnook::v1::ErrorCode", "kParseError", "kParseError = -32700"));
  EXPECT_TRUE(has("streamnook::v1", "PanelValues",
                  "using PanelValues = std::map<std::string, PanelValue>"));
  EXPECT_TRUE(has("streamnook::v1", "kPingIntervalMs",
                  "inline constexpr std::chrono::milliseconds kPingIntervalMs = "
                  "std::chrono::milliseconds{30000}"));
  EXPECT_TRUE(has("streamnook::v1::messages::Initialize", "kDeadline",
                  "std::chrono::milliseconds kDeadline = kHandshakeTimeoutMs"));
  EXPECT_TRUE(
      has("streamnook::v1::messages::Initialize", "Params", "using Params = InitializeParams"));
  EXPECT_TRUE(has("streamnook::v1", "HostToPlugin",
                  "struct HostToPlugin : rpckit::Direction<Role, Role::kHost, Role::kPlugin,"));
  EXPECT_TRUE(has("streamnook::v1::PluginHandler", "on_stream_start",
                  "virtual void on_stream_start(Context&, const OnStreamStartParams&)"));
  EXPECT_TRUE(has("streamnook::v1::HostClient", "notify",
                  "rpckit::Result<NotifyResult> notify(const NotifyParams& params, "
                  "rpckit::CallOptions options = {}) const"));
  EXPECT_TRUE(has("streamnook::v1::HostClient", "log", "bool log(const LogParams& params) const"));
}

// The same for every protocol in schema/: each fact is a declaration its headers write.
TEST(AdditiveChange, EveryProtocolsApiSurfaceIsWhatItsHeadersDeclare) {
  std::size_t protocols = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(source_dir() / "schema")) {
    if (entry.path().filename() != "protocol.json") continue;
    ++protocols;
    EXPECT_GT(declared_facts(generate(entry.path()), entry.path().string()).size(), 50u)
        << entry.path();
  }
  EXPECT_EQ(protocols, 7u);  // the six bound, and MCP's previous revision (schema/mcp/2025-06-18)
}

// Negative control: renaming a field is caught at both levels.
TEST(AdditiveChange, RenamingAFieldIsCaught) {
  Generated before = generate(source_dir() / "schema" / "protocol.json");
  SchemaCopy copy;
  J channel = copy.json("types/channel.json");
  J renamed = J::object();
  for (auto& [key, value] : channel["properties"].items()) {
    renamed[key == "login" ? "login_name" : key] = value;
  }
  channel["properties"] = renamed;
  for (J& r : channel["required"]) {
    if (r == "login") r = "login_name";
  }
  copy.save("types/channel.json", channel);
  Generated after = copy.generate();

  std::vector<std::string> ir = ir_additive_problems(before.module, after.module);
  EXPECT_THAT(ir, Contains("struct Channel field login is gone")) << lines(ir);
  std::vector<std::string> declared =
      api_surface_problems(api_surface(before.module), api_surface(after.module));
  EXPECT_THAT(declared, Contains("streamnook::v1::Channel::login is gone")) << lines(declared);
}

// Negative control: a value inserted before the others shifts a string enum's positions.
TEST(AdditiveChange, InsertingAnEnumValueFirstIsCaught) {
  Generated before = generate(source_dir() / "schema" / "protocol.json");
  SchemaCopy copy;
  J caps = copy.json("capabilities.json");
  J& e = caps["definitions"]["EventName"];
  e["enum"].insert(e["enum"].begin(), "on_first");
  e["x-enum-descriptions"].insert(e["x-enum-descriptions"].begin(), "First.");
  copy.save("capabilities.json", caps);
  Generated after = copy.generate();

  std::vector<std::string> ir = ir_additive_problems(before.module, after.module);
  EXPECT_THAT(ir, Contains("enum EventName value \"on_stream_start\" position changed: 0 -> 1"))
      << lines(ir);
  std::vector<std::string> declared =
      api_surface_problems(api_surface(before.module), api_surface(after.module));
  EXPECT_THAT(declared, Contains("streamnook::v1::EventNameValues::Value::kOnStreamStart changed: "
                                 "`kOnStreamStart = 1` -> `kOnStreamStart = 2`"))
      << lines(declared);
}

// Negative control: a field's type change, and a message's deadline change.
TEST(AdditiveChange, ChangingATypeOrADeadlineIsCaught) {
  Generated before = generate(source_dir() / "schema" / "protocol.json");
  SchemaCopy copy;
  J channel = copy.json("types/channel.json");
  channel["properties"]["viewer_count"] = J::parse(R"({"type": ["number", "null"]})");
  copy.save("types/channel.json", channel);
  J ping = copy.json("messages/ping.json");
  ping["x-deadline"] = "handshake_timeout_ms";
  copy.save("messages/ping.json", ping);
  Generated after = copy.generate();

  std::vector<std::string> ir = ir_additive_problems(before.module, after.module);
  EXPECT_THAT(ir, Contains("struct Channel field viewer_count type changed: "
                           "\"nullable<int64>\" -> \"nullable<double>\""))
      << lines(ir);
  EXPECT_THAT(ir, Contains("message ping deadline changed: \"kPingIntervalMs\" -> "
                           "\"kHandshakeTimeoutMs\""))
      << lines(ir);
  std::vector<std::string> declared =
      api_surface_problems(api_surface(before.module), api_surface(after.module));
  EXPECT_THAT(declared, Contains("streamnook::v1::Channel::viewer_count changed: "
                                 "`rpckit::Nullable<std::int64_t> viewer_count` -> "
                                 "`rpckit::Nullable<double> viewer_count`"))
      << lines(declared);
  EXPECT_THAT(declared, Contains("streamnook::v1::messages::Ping::kDeadline changed: "
                                 "`std::chrono::milliseconds kDeadline = kPingIntervalMs` -> "
                                 "`std::chrono::milliseconds kDeadline = kHandshakeTimeoutMs`"))
      << lines(declared);
}

// kErrors and kGate are views whose types do not name their lengths: an error or a gate clause
// added to a message changes no declaration.
TEST(AdditiveChange, AnErrorOrAGateClauseAddedToAMessageChangesNoDeclaration) {
  Generated before = generate(source_dir() / "schema" / "protocol.json");
  SchemaCopy copy;
  J log = copy.json("messages/log.json");
  log["x-errors"].push_back("rate_limited");
  log["x-gate"].push_back(J::parse(R"({"sender_capability": "logging"})"));
  copy.save("messages/log.json", log);
  Generated after = copy.generate();

  std::vector<std::string> declared =
      api_surface_problems(api_surface(before.module), api_surface(after.module));
  EXPECT_THAT(declared, IsEmpty()) << lines(declared);
  auto log_descriptor = [](const Generated& g) {
    for (const OutputFile& f : g.files) {
      if (!f.path.ends_with("/messages.hpp")) continue;
      const std::size_t at = f.content.find("struct Log {");
      return f.content.substr(at, f.content.find("\n};", at) - at);
    }
    return std::string();
  };
  // The descriptor did change: its private arrays hold the new error and clause.
  EXPECT_THAT(log_descriptor(after), HasSubstr("ErrorCode::kRateLimited"));
  EXPECT_THAT(log_descriptor(after), HasSubstr("kSenderCapability, \"logging\""));
  EXPECT_THAT(log_descriptor(before), Not(HasSubstr("ErrorCode::kRateLimited")));
}

}  // namespace
}  // namespace rpckit::gen::test
