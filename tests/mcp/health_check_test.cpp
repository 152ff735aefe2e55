// MCP's ping as the client's health check (the profile's lifecycle.health_check, a request that
// goes both ways): a running server is pinged every ping_interval_ms, an interval the application
// sets in its policy (basic/utilities/ping: "the frequency SHOULD be configurable"), and a server
// that leaves ping_misses pings in a row unanswered is taken as stale and killed (as after any
// failure: a hung server would not heed stdin closing). The server is written from the spec
// (tests/mcp/peers/pinged_server.py) and writes down every ping it was sent.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "peer_support.hpp"
#include "rpckit/roles/host_role.hpp"

namespace {

namespace mcp = ::mcp::v2025_11_25;
using namespace rpckit_mcp_test;
using rpckit::supervision::State;
using namespace std::chrono_literals;

// The profile's policy with pings every 250 ms (the profile says 60 s): what an application
// that wants another frequency does.
rpckit::supervision::Policy pinging_often() {
  rpckit::supervision::Policy p = rpckit::roles::lifecycle_policy<mcp::Protocol>();
  EXPECT_EQ(p.health_check_interval, std::chrono::milliseconds(mcp::kPingIntervalMs));
  EXPECT_EQ(p.health_check_misses, mcp::kPingMisses);
  p.health_check_interval = 250ms;
  return p;
}

using HealthCheck = NotesTest;

TEST_F(HealthCheck, ARunningServerIsPingedAtTheIntervalTheApplicationSets) {
  Server server({.id = "pinged",
                 .command = {RPCKIT_PINGED_SERVER, notes_.string(), "answers"},
                 .policy = pinging_often(),
                 .handshake_params = hello});
  ASSERT_TRUE(server.start());
  EXPECT_TRUE(eventually([&] { return count(notes(), "ping\n") >= 4; })) << notes();
  EXPECT_EQ(server.state(), State::kRunning) << "answered pings keep it running";
  server.stop();
  EXPECT_FALSE(server.stop_reason()) << server.stop_reason()->detail;
}

TEST_F(HealthCheck, AServerThatLeavesPingsUnansweredIsStoppedAsStale) {
  Server server({.id = "pinged",
                 .command = {RPCKIT_PINGED_SERVER, notes_.string(), "silent"},
                 .policy = pinging_often(),
                 .handshake_params = hello});
  ASSERT_TRUE(server.start());
  ASSERT_TRUE(eventually(
      [&] { return server.state() == State::kStopped || server.state() == State::kDisabled; }));
  ASSERT_TRUE(server.stop_reason());
  EXPECT_EQ(server.stop_reason()->cause, rpckit::supervision::StopCause::kUnhealthy);
  EXPECT_EQ(server.stop_reason()->detail,
            std::to_string(mcp::kPingMisses) + " health checks in a row unanswered");
  // It was pinged, ping_misses times at most (the last may still be unread when a hung server
  // is killed, as after any failure).
  const std::string seen = notes();
  EXPECT_GE(count(seen, "ping\n"), 1) << seen;
  EXPECT_LE(count(seen, "ping\n"), mcp::kPingMisses) << seen;
  EXPECT_EQ(server.state(), State::kStopped) << "not restarted (restarts_in_window none)";
}

}  // namespace
