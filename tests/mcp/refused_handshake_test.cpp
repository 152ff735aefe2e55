// After a refused initialize a client ends the session as any MCP stdio session ends (lifecycle,
// "Shutdown": close the server's stdin, wait for it to exit, SIGTERM, wait, SIGKILL), the
// profile's handshake_failure_exit_wait "stop", rather than killing the server at once. A server
// written from the spec (tests/mcp/peers/refusing_server.py) refuses and writes down how its
// session ended: it sees its stdin close, and when it stays past that, a SIGTERM; no SIGKILL
// before either.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "mcp_2025_11_25/roles.hpp"
#include "rpckit/roles/spawned_plugin.hpp"

namespace {

namespace fs = std::filesystem;
namespace mcp = ::mcp::v2025_11_25;
using Server = rpckit::roles::SpawnedPlugin<mcp::Protocol>;
using rpckit::supervision::State;

mcp::InitializeParams hello() {
  mcp::InitializeParams p;
  p.protocolVersion = std::string(mcp::kProtocolVersion);
  p.clientInfo.name = "refused-handshake-test";
  p.clientInfo.version = "1";
  return p;
}

class RefusedHandshake : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    notes_ = fs::temp_directory_path() /
             ("rpckit-refused-" + std::string(info->name()) + "-" + std::to_string(::getpid()));
    fs::remove(notes_);
  }
  void TearDown() override { fs::remove(notes_); }

  // What the server wrote, once it has stopped (the plugin's state says so).
  std::string notes_once_stopped(const Server& server) const {
    for (int i = 0; i < 600; ++i) {  // the stop sequence's waits are 2 s + 2 s
      if (server.state() == State::kStopped || server.state() == State::kDisabled) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::ifstream in(notes_);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  fs::path notes_;
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
