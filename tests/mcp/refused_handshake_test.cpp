// After a refused initialize a client ends the session as any MCP stdio session ends (lifecycle,
// "Shutdown": close the server's stdin, wait for it to exit, SIGTERM, wait, SIGKILL), the
// profile's handshake_failure_exit_wait "stop", rather than killing the server at once. A server
// written from the spec (tests/mcp/peers/refusing_server.py) refuses and writes down how its
// session ended: it sees its stdin close, and when it stays past that, a SIGTERM; no SIGKILL
// before either.
#include <gtest/gtest.h>

#include <string>

#include "peer_support.hpp"

namespace {

namespace mcp = ::mcp::v2025_11_25;
using namespace rpckit_mcp_test;
using rpckit::supervision::State;

class RefusedHandshake : public NotesTest {
 protected:
  // What the server wrote, once it has stopped (the plugin's state says so).
  std::string notes_once_stopped(const Server& server) const {
    // The stop sequence's waits are 2 s + 2 s.
    eventually(
        [&] { return server.state() == State::kStopped || server.state() == State::kDisabled; });
    return notes();
  }
};

TEST_F(RefusedHandshake, TheServerSeesItsStdinCloseAndExitsByItself) {
  Server server({.id = "refusing",
                 .command = {RPCKIT_REFUSING_SERVER, notes_.string()},
                 .handshake_params = hello});
  ASSERT_FALSE(server.start());
  ASSERT_TRUE(server.stop_reason());
  EXPECT_NE(server.stop_reason()->detail.find("Unsupported protocol version"), std::string::npos)
      << server.stop_reason()->detail;
  EXPECT_EQ(notes_once_stopped(server), "stdin closed\n") << "killed before it read EOF";
  EXPECT_EQ(server.state(), State::kStopped) << "not restarted (restarts_in_window none)";
}

TEST_F(RefusedHandshake, AServerThatStaysAfterEofIsSentSigterm) {
  Server server({.id = "refusing",
                 .command = {RPCKIT_REFUSING_SERVER, notes_.string(), "stays"},
                 .handshake_params = hello});
  ASSERT_FALSE(server.start());
  EXPECT_EQ(notes_once_stopped(server), "stdin closed\nSIGTERM\n");
  EXPECT_EQ(server.state(), State::kStopped);
}

TEST_F(RefusedHandshake, AServerThatAnswersAnotherVersionIsLeftAsARefusal) {
  // The profile's version check (kVersionCheck): the client does not speak 2024-11-05, so it
  // ends the session as after a refusal, for good, and nothing else is sent.
  Server server({.id = "older",
                 .command = {RPCKIT_REFUSING_SERVER, notes_.string(), "2024-11-05"},
                 .handshake_params = hello});
  ASSERT_FALSE(server.start());
  ASSERT_TRUE(server.stop_reason());
  EXPECT_EQ(server.stop_reason()->detail,
            "the handshake answer's protocolVersion is \"2024-11-05\"; this side speaks \"" +
                std::string(mcp::kProtocolVersion) + "\"");
  EXPECT_EQ(notes_once_stopped(server), "stdin closed\n");
  EXPECT_FALSE(server.handshake_result()) << "the answer was not adopted as the session's";
}

}  // namespace
