// An additive change to the real schema (a new event, a new optional field, a new enum value,
// a new error code) only adds symbols to the IR and to the generated headers; a renaming
// change is caught by the same checks (negative controls: the checker is tested too).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "additive_check.hpp"
#include "model.hpp"
#include "schema_edit.hpp"
#include "support.hpp"

namespace rpckit::gen::test {
namespace {

using J = nlohmann::ordered_json;
using ::testing::Contains;
using ::testing::HasSubstr;

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
  std::vector<std::string> text = text_additive_problems(before.files, after.files);
  EXPECT_TRUE(text.empty()) << "header lines that changed or went away:\n" << lines(text);
}

TEST(AdditiveChange, TheTextCheckSeesEnoughDeclarations) {
  Generated g = generate(source_dir() / "schema" / "protocol.json");
  std::vector<DeclarationLine> types = declaration_lines(file(g, "types.hpp").content);
  std::vector<DeclarationLine> messages = declaration_lines(file(g, "messages.hpp").content);
  std::vector<DeclarationLine> dispatch = declaration_lines(file(g, "dispatch.hpp").content);
  std::vector<DeclarationLine> constants = declaration_lines(file(g, "constants.hpp").content);
  EXPECT_GT(types.size(), 300u);
  EXPECT_GT(messages.size(), 150u);
  EXPECT_GE(dispatch.size(), 2u);  // a struct per direction; the message lists are continuations
  EXPECT_GT(constants.size(), 15u);
  auto has = [](const std::vector<DeclarationLine>& v, const std::string& scope,
                const std::string& text) {
    return std::any_of(v.begin(), v.end(), [&](const DeclarationLine& d) {
      return d.scope == scope && d.text == text;
    });
  };
  // Fields, enumerators, members and free declarations, each in its own scope.
  EXPECT_TRUE(has(types, "streamnook::v1/Channel", "std::string login{};"));
  EXPECT_TRUE(has(types, "streamnook::v1/Channel",
                  "friend bool operator==(const Channel&, const Channel&) = default;"));
  EXPECT_TRUE(
      has(types, "streamnook::v1/EventNameValues/Value", "kOnStreamStart = 1,  // \"on_stream_start\""));
  EXPECT_TRUE(has(types, "streamnook::v1/ErrorCode", "kParseError = -32700,"));
  EXPECT_TRUE(
      has(types, "streamnook::v1", "using PanelValues = std::map<std::string, PanelValue>;"));
  EXPECT_TRUE(has(types, "streamnook::v1", "struct Channel {"));
  EXPECT_TRUE(has(messages, "streamnook::v1/messages/Initialize",
                  "static constexpr std::chrono::milliseconds kDeadline = kHandshakeTimeoutMs;"));
  EXPECT_TRUE(
      has(messages, "streamnook::v1/messages/Initialize", "using Params = InitializeParams;"));
  EXPECT_TRUE(
      has(dispatch, "streamnook::v1",
          "struct HostToPlugin : rpckit::Direction<Role, Role::kHost, Role::kPlugin, "
          "rpckit::MessageList<"));
  // Not declarations: comments, bodies, initializer lists, type-list continuations.
  for (const auto* v : {&types, &messages, &dispatch, &constants}) {
    for (const DeclarationLine& d : *v) {
      EXPECT_FALSE(d.text.starts_with("//")) << d.text;
      EXPECT_FALSE(d.text.starts_with("return")) << d.text;
      EXPECT_FALSE(d.text.starts_with("case ")) << d.text;
      EXPECT_FALSE(d.text.starts_with("messages::")) << d.text;
      EXPECT_FALSE(d.text.starts_with("rpckit::GateClause{")) << d.text;
      EXPECT_FALSE(d.text.starts_with("\"")) << d.text;
    }
  }
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
  std::vector<std::string> text = text_additive_problems(before.files, after.files);
  EXPECT_THAT(text, Contains("streamnook_v1/types.hpp: in streamnook::v1/Channel: "
                             "`std::string login{};` is gone"))
      << lines(text);
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
  std::vector<std::string> text = text_additive_problems(before.files, after.files);
  EXPECT_THAT(text, Contains("streamnook_v1/types.hpp: in streamnook::v1/EventNameValues/Value: "
                             "`kOnStreamStart = 1,  // \"on_stream_start\"` is gone"))
      << lines(text);
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
  std::vector<std::string> text = text_additive_problems(before.files, after.files);
  EXPECT_THAT(text, Contains("streamnook_v1/types.hpp: in streamnook::v1/Channel: "
                             "`rpckit::Nullable<std::int64_t> viewer_count{};` is gone"))
      << lines(text);
  EXPECT_THAT(text, Contains("streamnook_v1/messages.hpp: in streamnook::v1/messages/Ping: "
                             "`static constexpr std::chrono::milliseconds kDeadline = "
                             "kPingIntervalMs;` is gone"))
      << lines(text);
}

// The array-length allowance applies to the dispatch tables only.
TEST(AdditiveChange, ArrayLengthsAreOnlyIgnoredInDispatch) {
  OutputFile messages_before{
      "m/messages.hpp",
      "namespace m {\nstruct A {\n  static constexpr std::array<E, 1> kErrors "
      "= {E::kA};\n};\n}  // namespace m\n"};
  OutputFile messages_after{
      "m/messages.hpp",
      "namespace m {\nstruct A {\n  static constexpr std::array<E, 2> kErrors "
      "= {E::kA};\n};\n}  // namespace m\n"};
  EXPECT_EQ(text_additive_problems({messages_before}, {messages_after}).size(), 1u);
  OutputFile dispatch_before{"m/dispatch.hpp", messages_before.content};
  OutputFile dispatch_after{"m/dispatch.hpp", messages_after.content};
  EXPECT_TRUE(text_additive_problems({dispatch_before}, {dispatch_after}).empty());
}

}  // namespace
}  // namespace rpckit::gen::test
