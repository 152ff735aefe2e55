// Open enums (DESIGN.md): every listed value maps both ways; an unknown value decodes to
// kUnknown, keeps its text and re-encodes unchanged. ErrorCode against spec section 3.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support.hpp"
#include "streamnook_v1/messages.hpp"
#include "streamnook_v1/types.hpp"

namespace bindings_test {
namespace {

namespace sn = streamnook::v1;

template <class E>
using Listed = std::vector<std::pair<typename E::Value, std::string_view>>;

// Wire texts of each open string enum, as the spec lists them.
std::map<std::string, std::vector<std::string>>& tested_wires() {
  static std::map<std::string, std::vector<std::string>> wires;
  return wires;
}

template <class E>
void check_open_enum(std::string_view name, const Listed<E>& listed,
                     std::string_view unknown_text) {
  SCOPED_TRACE(std::string(name));
  auto& wires = tested_wires()[std::string(name)];
  wires.clear();
  for (const auto& [value, text] : listed) {
    SCOPED_TRACE(std::string(text));
    wires.emplace_back(text);
    E e = E::from_wire(text);
    EXPECT_EQ(e.value(), value);
    EXPECT_EQ(e, E(value));
    EXPECT_TRUE(e.is_known());
    EXPECT_EQ(e.wire(), text);
    EXPECT_EQ(E(value).wire(), text);
    EXPECT_EQ(encode(E(value)), json(text));
    EXPECT_EQ(decode_as<E>(json(text)), E(value));
  }
  // Values are numbered from 1 in schema order; 0 is kUnknown.
  for (std::size_t i = 0; i < listed.size(); ++i) {
    EXPECT_EQ(static_cast<std::size_t>(listed[i].first), i + 1);
  }

  // Unknown: decodes, is kUnknown, keeps the text, re-encodes unchanged.
  E unknown = decode_as<E>(json(unknown_text));
  EXPECT_EQ(unknown.value(), E::kUnknown);
  EXPECT_FALSE(unknown.is_known());
  EXPECT_EQ(unknown.wire(), unknown_text);
  EXPECT_EQ(encode(unknown), json(unknown_text));
  EXPECT_EQ(unknown, E::from_wire(unknown_text));
  EXPECT_NE(unknown, E::from_wire(std::string(unknown_text) + "2"))
      << "two unknown values with different texts are different";
  EXPECT_NE(unknown, E(E::kUnknown));
  // Matching is exact: case and whitespace matter.
  std::string padded = " " + std::string(listed.front().second);
  EXPECT_FALSE(E::from_wire(padded).is_known());
  EXPECT_EQ(E::from_wire(padded).wire(), padded);
  EXPECT_FALSE(E::from_wire("").is_known());
  // Not a string: a decode error.
  EXPECT_EQ(decode_error<E>(json(1)), "value: expected string, got integer");
  EXPECT_EQ(decode_error<E>(json()), "value: expected string, got null");
  // A default-constructed value is the first listed one (a valid value to send).
  EXPECT_EQ(E{}, E(listed.front().first));
}

void check_event_name() {
  check_open_enum<sn::EventName>("EventName",
                                 {{sn::EventName::kOnStreamStart, "on_stream_start"},
                                  {sn::EventName::kOnStreamStop, "on_stream_stop"},
                                  {sn::EventName::kOnChannelChange, "on_channel_change"},
                                  {sn::EventName::kOnWatchTick, "on_watch_tick"},
                                  {sn::EventName::kOnFollowedLive, "on_followed_live"},
                                  {sn::EventName::kOnChatMessage, "on_chat_message"},
                                  {sn::EventName::kOnSettingsChange, "on_settings_change"},
                                  {sn::EventName::kOnPanelChange, "on_panel_change"}},
                                 "on_raid");
}

void check_host_method_name() {
  // Spec 7: the host_methods capabilities (get_credential and set_status are gated otherwise).
  check_open_enum<sn::HostMethodName>(
      "HostMethodName",
      {{sn::HostMethodName::kGetFollowedLive, "get_followed_live"},
       {sn::HostMethodName::kSetUpstream, "set_upstream"},
       {sn::HostMethodName::kNotify, "notify"},
       {sn::HostMethodName::kLog, "log"},
       {sn::HostMethodName::kRegisterPanel, "register_panel"},
       {sn::HostMethodName::kGetPanelValues, "get_panel_values"}},
      "get_credential");
}

void check_credential_kind() {
  check_open_enum<sn::CredentialKind>("CredentialKind",
                                      {{sn::CredentialKind::kTwitchAndroid, "twitch.android"}},
                                      "twitch.web");
}

void check_ui_capability() {
  check_open_enum<sn::UiCapability>("UiCapability", {{sn::UiCapability::kPanel, "panel"}},
                                    "overlay");
}

void check_notify_level() {
  check_open_enum<sn::NotifyLevel>("NotifyLevel",
                                   {{sn::NotifyLevel::kInfo, "info"},
                                    {sn::NotifyLevel::kWarning, "warning"},
                                    {sn::NotifyLevel::kError, "error"}},
                                   "debug");
}

void check_log_level() {
  check_open_enum<sn::LogLevel>("LogLevel",
                                {{sn::LogLevel::kDebug, "debug"},
                                 {sn::LogLevel::kInfo, "info"},
                                 {sn::LogLevel::kWarning, "warning"},
                                 {sn::LogLevel::kError, "error"}},
                                "trace");
}

void check_network_access() {
  check_open_enum<sn::NetworkAccess>(
      "NetworkAccess",
      {{sn::NetworkAccess::kNone, "none"}, {sn::NetworkAccess::kExternal, "external"}}, "lan");
}

void check_manifest_tier() {
  check_open_enum<sn::ManifestTier>(
      "ManifestTier",
      {{sn::ManifestTier::kA, "A"}, {sn::ManifestTier::kB, "B"}, {sn::ManifestTier::kC, "C"}}, "D");
}

void check_runtime_kind() {
  check_open_enum<sn::RuntimeKind>(
      "RuntimeKind", {{sn::RuntimeKind::kProcess, "process"}, {sn::RuntimeKind::kUi, "ui"}},
      "wasm");
}

void check_runtime_transport() {
  check_open_enum<sn::RuntimeTransport>("RuntimeTransport",
                                        {{sn::RuntimeTransport::kStdio, "stdio"}}, "socket");
}

TEST(OpenEnums, EventName) { check_event_name(); }
TEST(OpenEnums, HostMethodName) { check_host_method_name(); }
TEST(OpenEnums, CredentialKind) { check_credential_kind(); }
TEST(OpenEnums, UiCapability) { check_ui_capability(); }
TEST(OpenEnums, NotifyLevel) { check_notify_level(); }
TEST(OpenEnums, LogLevel) { check_log_level(); }
TEST(OpenEnums, NetworkAccess) { check_network_access(); }
TEST(OpenEnums, ManifestTier) { check_manifest_tier(); }
TEST(OpenEnums, RuntimeKind) { check_runtime_kind(); }
TEST(OpenEnums, RuntimeTransport) { check_runtime_transport(); }

// Unknown values survive inside structs too, and order/duplicates are kept.
TEST(OpenEnums, UnknownValuesReencodeUnchangedInsideStructs) {
  const json granted = json::parse(R"({"events":["on_raid","on_stream_start","on_raid"],
      "host_methods":["get_credential"],"credentials":["twitch.web"],"ui":["overlay"]})");
  auto g = decode_as<sn::Granted>(granted);
  ASSERT_EQ(g.events.size(), 3u);
  EXPECT_FALSE(g.events[0].is_known());
  EXPECT_EQ(g.events[1], sn::EventName::kOnStreamStart);
  EXPECT_EQ(g.events[0], g.events[2]);
  EXPECT_FALSE(g.host_methods[0].is_known());
  EXPECT_FALSE(g.credentials[0].is_known());
  EXPECT_FALSE(g.ui[0].is_known());
  EXPECT_EQ(encode(g), granted);

  auto notify = params_of<sn::messages::Notify>(json::parse(R"({"level":"critical","message":"x"})"));
  ASSERT_TRUE(notify.level.has_value());
  EXPECT_EQ(notify.level->value(), sn::NotifyLevel::kUnknown);
  EXPECT_EQ(encode(notify), json::parse(R"({"level":"critical","message":"x"})"));

  auto credential = params_of<sn::messages::GetCredential>(json::parse(R"({"kind":"twitch.web"})"));
  EXPECT_EQ(credential.kind.wire(), "twitch.web");
  EXPECT_EQ(encode(credential), json::parse(R"({"kind":"twitch.web"})"));
}

// operator< orders by wire text, so open enums work as std::set / std::map keys.
TEST(OpenEnums, OrderedByWireText) {
  std::set<sn::EventName> events = {sn::EventName::kOnWatchTick, sn::EventName::from_wire("a_new"),
                                    sn::EventName::kOnChatMessage,
                                    sn::EventName::from_wire("a_new")};
  std::vector<std::string_view> wires;
  for (const auto& e : events) wires.push_back(e.wire());
  EXPECT_EQ(wires, (std::vector<std::string_view>{"a_new", "on_chat_message", "on_watch_tick"}));
}

// Every open enum of types.hpp (its values are the struct <Name>Values rpckit::OpenEnum
// takes) is tested above with every value it lists.
TEST(OpenEnums, EveryGeneratedEnumIsCovered) {
  const std::string header = read_text(source_dir() / "generated" / "streamnook_v1" / "types.hpp");
  std::map<std::string, std::vector<std::string>> in_header;
  const std::regex class_decl(R"(\nstruct (\w+)Values \{\n  enum Value)");
  const std::regex value_decl(R"re(\n    k\w+ = \d+,  // "([^"]*)")re");
  for (auto it = std::sregex_iterator(header.begin(), header.end(), class_decl);
       it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1].str();
    auto body_begin = header.begin() + (it->position(0) + it->length(0));
    auto body_end = header.begin() + static_cast<std::ptrdiff_t>(header.find("\n};", static_cast<std::size_t>(it->position(0))));
    auto& wires = in_header[name];
    for (auto v = std::sregex_iterator(body_begin, body_end, value_decl);
         v != std::sregex_iterator(); ++v) {
      wires.push_back((*v)[1].str());
    }
  }
  EXPECT_EQ(in_header.size(), 10u);

  // Run the per-enum tests' checks here (ctest runs each TEST in a process of its own).
  tested_wires().clear();
  check_event_name();
  check_host_method_name();
  check_credential_kind();
  check_ui_capability();
  check_notify_level();
  check_log_level();
  check_network_access();
  check_manifest_tier();
  check_runtime_kind();
  check_runtime_transport();
  EXPECT_EQ(tested_wires(), in_header);
}

// ---- ErrorCode ----------------------------------------------------------------------------

struct SpecCode {
  std::int32_t code;
  std::string_view name;
  sn::ErrorCode value;
};

// Spec section 3, in its order.
constexpr SpecCode kSpecCodes[] = {
    {-32700, "parse_error", sn::ErrorCode::kParseError},
    {-32600, "invalid_request", sn::ErrorCode::kInvalidRequest},
    {-32601, "method_not_found", sn::ErrorCode::kMethodNotFound},
    {-32602, "invalid_params", sn::ErrorCode::kInvalidParams},
    {-32603, "internal", sn::ErrorCode::kInternal},
    {-32000, "capability_denied", sn::ErrorCode::kCapabilityDenied},
    {-32001, "consent_denied", sn::ErrorCode::kConsentDenied},
    {-32002, "unknown_stream", sn::ErrorCode::kUnknownStream},
    {-32003, "rate_limited", sn::ErrorCode::kRateLimited},
    {-32004, "shutting_down", sn::ErrorCode::kShuttingDown},
    {-32005, "credential_unavailable", sn::ErrorCode::kCredentialUnavailable},
};

TEST(ErrorCodes, EverySpecCodeMapsBothWays) {
  for (const SpecCode& c : kSpecCodes) {
    SCOPED_TRACE(std::string(c.name));
    EXPECT_EQ(static_cast<std::int32_t>(c.value), c.code);
    EXPECT_EQ(sn::to_string(c.value), c.name);
    EXPECT_EQ(sn::error_code_from_string(c.name), c.value);
    EXPECT_TRUE(sn::is_known(c.value));
    EXPECT_EQ(encode(c.value), json(c.code));
    EXPECT_EQ(decode_as<sn::ErrorCode>(json(c.code)), c.value);
  }
}

TEST(ErrorCodes, UnknownCodeDecodesAndReencodes) {
  const auto code = decode_as<sn::ErrorCode>(json(-32099));
  EXPECT_EQ(static_cast<std::int32_t>(code), -32099);
  EXPECT_FALSE(sn::is_known(code));
  EXPECT_EQ(sn::to_string(code), "");
  EXPECT_EQ(encode(code), json(-32099));
  // Any 32-bit value is representable, but not beyond.
  EXPECT_EQ(static_cast<std::int32_t>(decode_as<sn::ErrorCode>(json(2147483647))), 2147483647);
  EXPECT_EQ(decode_error<sn::ErrorCode>(json(2147483648LL)),
            "value: expected integer in [-2147483648, 2147483647], got 2147483648");
  EXPECT_EQ(decode_error<sn::ErrorCode>(json("-32700")), "value: expected integer, got string");
  EXPECT_EQ(decode_error<sn::ErrorCode>(json(-32700.5)), "value: expected integer, got number");
  EXPECT_FALSE(sn::error_code_from_string("nope").has_value());
  EXPECT_FALSE(sn::error_code_from_string("").has_value());
  EXPECT_FALSE(sn::error_code_from_string("RATE_LIMITED").has_value());
}

TEST(ErrorCodes, EveryGeneratedCodeIsInTheSpec) {
  const std::string header = read_text(source_dir() / "generated" / "streamnook_v1" / "types.hpp");
  auto begin = header.find("enum class ErrorCode");
  ASSERT_NE(begin, std::string::npos);
  auto end = header.find("\n};", begin);
  const std::string body = header.substr(begin, end - begin);
  const std::regex enumerator(R"(\n  k\w+ = (-?\d+),)");
  std::set<std::int32_t> generated;
  for (auto it = std::sregex_iterator(body.begin(), body.end(), enumerator);
       it != std::sregex_iterator(); ++it) {
    generated.insert(std::stoi((*it)[1].str()));
  }
  std::set<std::int32_t> spec;
  for (const SpecCode& c : kSpecCodes) spec.insert(c.code);
  EXPECT_EQ(generated.size(), 11u);
  EXPECT_EQ(generated, spec);
}

// error.data round trip, including the protocol_version_mismatch of spec 9.2.
TEST(ErrorCodes, ErrorData) {
  auto data = decode_as<sn::ErrorData>(
      json::parse(R"({"name":"protocol_version_mismatch","retry_after_ms":null})"));
  EXPECT_EQ(data.name, "protocol_version_mismatch");
  EXPECT_TRUE(data.retry_after_ms.is_null());
  EXPECT_FALSE(sn::error_code_from_string(data.name).has_value()) << "a more specific name";
  data = decode_as<sn::ErrorData>(json::parse(R"({"name":"rate_limited","retry_after_ms":7250})"));
  EXPECT_EQ(sn::error_code_from_string(data.name), sn::ErrorCode::kRateLimited);
  EXPECT_EQ(data.retry_after_ms, 7250.0);
  EXPECT_EQ(encode(data), json::parse(R"({"name":"rate_limited","retry_after_ms":7250})"));
}

}  // namespace
}  // namespace bindings_test
