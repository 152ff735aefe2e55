#pragma once
// What the tests that run an MCP server written from the spec (tests/mcp/peers/) share: the
// client's initialize params, and the notes file such a server writes down what it saw in.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>

#include "mcp_2025_11_25/roles.hpp"
#include "rpckit/roles/spawned_plugin.hpp"

namespace rpckit_mcp_test {

using Server = rpckit::roles::SpawnedPlugin<::mcp::v2025_11_25::Protocol>;

// initialize's params from a client that declares no capabilities.
inline ::mcp::v2025_11_25::InitializeParams hello() {
  ::mcp::v2025_11_25::InitializeParams p;
  p.protocolVersion = std::string(::mcp::v2025_11_25::kProtocolVersion);
  p.clientInfo.name = "rpckit-mcp-test";
  p.clientInfo.version = "1";
  return p;
}

// Polls (a loaded machine may be slow) until `done`, for at most a minute.
inline bool eventually(const std::function<bool()>& done) {
  for (int i = 0; i < 1200 && !done(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return done();
}

// How often `line` occurs in `text`.
inline int count(const std::string& text, const std::string& line) {
  int n = 0;
  for (std::size_t at = text.find(line); at != std::string::npos; at = text.find(line, at + 1)) {
    ++n;
  }
  return n;
}

// A fresh notes file per test, named after it, removed afterwards.
class NotesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    notes_ = std::filesystem::temp_directory_path() /
             ("rpckit-mcp-" + std::string(info->test_suite_name()) + "-" + info->name() + "-" +
              std::to_string(::getpid()));
    std::filesystem::remove(notes_);
  }
  void TearDown() override { std::filesystem::remove(notes_); }

  std::string notes() const {
    std::ifstream in(notes_);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::filesystem::path notes_;
};

}  // namespace rpckit_mcp_test
