// Every constant of constants.hpp against the spec (sections 1, 2, 5), checked at compile time
// and, for a readable failure, at run time.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>

#include "support.hpp"
#include "rpckit/codec/json_reader.hpp"
#include "streamnook_v1/constants.hpp"

namespace bindings_test {
namespace {

namespace sn = streamnook::v1;
using namespace std::chrono_literals;
using std::chrono::milliseconds;

static_assert(sn::kProtocolVersion == 1);
static_assert(sn::kFraming == "content-length");
static_assert(sn::kMaxFrameBytes == 4 * 1024 * 1024 && sn::kMaxFrameBytes == 4194304);
static_assert(sn::kHandshakeTimeoutMs == 10s);
static_assert(sn::kPingIntervalMs == 30s);
static_assert(sn::kPingMaxMisses == 3);
static_assert(sn::kRestartBackoffMs.size() == 3);
static_assert(sn::kRestartBackoffMs[0] == 1s && sn::kRestartBackoffMs[1] == 5s &&
              sn::kRestartBackoffMs[2] == 25s);
static_assert(sn::kRestartWindowMs == 10min);
static_assert(sn::kRestartMaxInWindow == 3);
static_assert(sn::kExitGraceMs == 5s);
static_assert(sn::kInvokeActionTimeoutMs == 30s);
static_assert(sn::kCredentialConsentTimeoutMs == 120s);
static_assert(sn::kDefaultRequestTimeoutMs == 30s);
static_assert(sn::kWatchTickIntervalMs == 60s);
static_assert(sn::kNotifyBurst == 3);
static_assert(sn::kNotifyRefillMs == 10s);

// Durations are std::chrono::milliseconds (x-unit: ms), counts are integers.
static_assert(std::is_same_v<std::remove_cv_t<decltype(sn::kHandshakeTimeoutMs)>, milliseconds>);
static_assert(std::is_same_v<std::remove_cv_t<decltype(sn::kRestartBackoffMs)>,
                             std::array<milliseconds, 3>>);
static_assert(std::is_same_v<std::remove_cv_t<decltype(sn::kPingMaxMisses)>, std::int64_t>);
static_assert(std::is_same_v<std::remove_cv_t<decltype(sn::kFraming)>, std::string_view>);

TEST(Constants, MatchTheSpec) {
  EXPECT_EQ(sn::kProtocolVersion, 1);                   // spec 2, 8
  EXPECT_EQ(sn::kFraming, "content-length");            // spec 1
  EXPECT_EQ(sn::kMaxFrameBytes, 4194304);               // spec 1: 4 MiB
  EXPECT_EQ(sn::kMaxJsonDepth, 256);  // this project's limit, the runtime's default too
  EXPECT_EQ(static_cast<std::size_t>(sn::kMaxJsonDepth), rpckit::codec::kMaxJsonDepth);
  EXPECT_EQ(sn::kHandshakeTimeoutMs.count(), 10000);    // initialize within 10 s
  EXPECT_EQ(sn::kPingIntervalMs.count(), 30000);        // ping every 30 s
  EXPECT_EQ(sn::kPingMaxMisses, 3);                     // 3 misses = unhealthy
  ASSERT_EQ(sn::kRestartBackoffMs.size(), 3u);          // backoff 1 s, 5 s, 25 s
  EXPECT_EQ(sn::kRestartBackoffMs[0].count(), 1000);
  EXPECT_EQ(sn::kRestartBackoffMs[1].count(), 5000);
  EXPECT_EQ(sn::kRestartBackoffMs[2].count(), 25000);
  EXPECT_EQ(sn::kRestartWindowMs.count(), 600000);      // within 10 minutes
  EXPECT_EQ(sn::kRestartMaxInWindow, 3);                // more than 3 restarts disables
  EXPECT_EQ(sn::kExitGraceMs.count(), 5000);            // still alive 5 s after exit: killed
  EXPECT_EQ(sn::kInvokeActionTimeoutMs.count(), 30000); // host waits 30 s
  EXPECT_EQ(sn::kCredentialConsentTimeoutMs.count(), 120000);  // spec 5: up to 120 s
  EXPECT_EQ(sn::kDefaultRequestTimeoutMs.count(), 30000);      // project choice
  EXPECT_EQ(sn::kWatchTickIntervalMs.count(), 60000);   // spec 4: nominally every 60 s
  EXPECT_EQ(sn::kNotifyBurst, 3);                       // spec 5: burst 3
  EXPECT_EQ(sn::kNotifyRefillMs.count(), 10000);        // then 1 per 10 s
}

// No constant was added without this test knowing it.
TEST(Constants, EveryGeneratedConstantIsChecked) {
  const std::string header =
      read_text(source_dir() / "generated" / "streamnook_v1" / "constants.hpp");
  std::set<std::string> names;
  const std::regex decl(R"(inline constexpr [^=]* (k\w+) =)");
  for (auto it = std::sregex_iterator(header.begin(), header.end(), decl);
       it != std::sregex_iterator(); ++it) {
    names.insert((*it)[1].str());
  }
  EXPECT_EQ(names, (std::set<std::string>{
                       "kProtocolVersion", "kFraming", "kMaxFrameBytes", "kMaxJsonDepth",
                       "kHandshakeTimeoutMs",
                       "kPingIntervalMs", "kPingMaxMisses", "kRestartBackoffMs",
                       "kRestartWindowMs", "kRestartMaxInWindow", "kExitGraceMs",
                       "kInvokeActionTimeoutMs", "kCredentialConsentTimeoutMs",
                       "kDefaultRequestTimeoutMs", "kWatchTickIntervalMs", "kNotifyBurst",
                       "kNotifyRefillMs"}));
}

}  // namespace
}  // namespace bindings_test
