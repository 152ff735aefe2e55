// rpckit::mcp::Progress: notifications/progress for a request whose caller asked for it
// (basic/utilities/progress), with the caller's token as it came, and progress that only
// increases; nothing for a request without a token.
#include "rpckit/mcp/progress.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace m = ::mcp::v2025_11_25;
using rpckit::mcp::Progress;

m::Meta meta(const std::string& text) {
  m::Meta out;
  const nlohmann::json parsed = nlohmann::json::parse(text);
  for (const auto& [key, value] : parsed.items()) {
    out.emplace(key, rpckit::JsonValue(value));
  }
  return out;
}

struct Sent {
  std::vector<nlohmann::json> notifications;
  Progress::Send send() {
    return [this](const m::NotificationsProgressParams& p) {
      notifications.push_back(nlohmann::json(p));
      return true;
    };
  }
};

TEST(Progress, ReportsWithTheCallersTokenAsItCame) {
  for (const char* token : {R"("abc")", "7", R"({"odd": true})"}) {
    Sent sent;
    Progress progress(meta(std::string(R"({"progressToken": )") + token + "}"), sent.send());
    EXPECT_TRUE(progress.asked());
    EXPECT_TRUE(progress.report(1, 4, "one of four"));
    EXPECT_TRUE(progress.report(2.5));
    ASSERT_EQ(sent.notifications.size(), 2U) << token;
    EXPECT_EQ(
        sent.notifications[0],
        nlohmann::json::parse(std::string(R"({"progressToken": )") + token +
                              R"(, "progress": 1.0, "total": 4.0, "message": "one of four"})"));
    EXPECT_EQ(sent.notifications[1], nlohmann::json::parse(std::string(R"({"progressToken": )") +
                                                           token + R"(, "progress": 2.5})"));
  }
}

TEST(Progress, OnlyIncreases) {
  Sent sent;
  Progress progress(meta(R"({"progressToken": 1})"), sent.send());
  EXPECT_TRUE(progress.report(3));
  EXPECT_FALSE(progress.report(3));  // "MUST increase with each notification"
  EXPECT_FALSE(progress.report(2));
  EXPECT_TRUE(progress.report(3.5));
  EXPECT_EQ(sent.notifications.size(), 2U);
  // A send that fails does not count as the last value sent.
  Progress failing(meta(R"({"progressToken": 1})"),
                   [](const m::NotificationsProgressParams&) { return false; });
  EXPECT_FALSE(failing.report(1));
}

TEST(Progress, SendsNothingWhenNobodyAsked) {
  for (const char* without : {R"({})", R"({"other": 1})", R"({"progressToken": null})"}) {
    Sent sent;
    Progress progress(meta(without), sent.send());
    EXPECT_FALSE(progress.asked()) << without;
    EXPECT_FALSE(progress.report(1));
    EXPECT_TRUE(sent.notifications.empty());
  }
  Sent sent;
  Progress none(std::nullopt, sent.send());
  EXPECT_FALSE(none.report(1));
  EXPECT_TRUE(sent.notifications.empty());
}

}  // namespace
