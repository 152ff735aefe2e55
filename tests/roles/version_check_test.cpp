// The profile's version check of a handshake answer (rpckit::roles::check_version): exact or by
// major version, and an answer that names no version.
#include "rpckit/roles/version_check.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace {

using nlohmann::json;
using rpckit::VersionCheck;
using rpckit::VersionMatch;
using rpckit::roles::check_version;
using rpckit::roles::HandshakeOutcome;

TEST(VersionCheck, ExactAcceptsTheSameStringOnly) {
  const VersionCheck check{"protocolVersion", "2025-11-25", VersionMatch::kExact};
  EXPECT_FALSE(check_version(check, json{{"protocolVersion", "2025-11-25"}, {"x", 1}}));
  auto refused = check_version(check, json{{"protocolVersion", "2024-11-05"}});
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->kind, HandshakeOutcome::Kind::kRefused);
  EXPECT_TRUE(refused->permanent) << "another try speaks the same version";
  EXPECT_EQ(refused->detail,
            "the handshake answer's protocolVersion is \"2024-11-05\"; this side speaks "
            "\"2025-11-25\"");
}

TEST(VersionCheck, MajorAcceptsAnyVersionOfTheSameMajor) {
  const VersionCheck check{"protocol_version", "1.0.0", VersionMatch::kMajor};
  EXPECT_FALSE(check_version(check, json{{"protocol_version", "1.4.2"}}));
  EXPECT_FALSE(check_version(check, json{{"protocol_version", "1"}}));
  EXPECT_TRUE(check_version(check, json{{"protocol_version", "2.0.0"}}));
  EXPECT_TRUE(check_version(check, json{{"protocol_version", "10.0.0"}})) << "not a prefix test";
}

TEST(VersionCheck, AnAnswerWithoutAVersionIsRefusedAndNoCheckAcceptsAll) {
  const VersionCheck check{"protocolVersion", "2025-11-25", VersionMatch::kExact};
  for (const json& answer : {json::object(), json{{"protocolVersion", 20251125}},
                             json{{"protocolVersion", nullptr}}, json::array()}) {
    auto refused = check_version(check, answer);
    ASSERT_TRUE(refused) << answer.dump();
    EXPECT_EQ(refused->detail,
              "the handshake answer names no protocolVersion; this side speaks \"2025-11-25\"");
  }
  EXPECT_FALSE(check_version(VersionCheck{}, json::object()));
}

}  // namespace
