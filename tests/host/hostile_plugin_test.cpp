// The host role against a hostile plugin (tests/hostile/hostile_plugin.py, Python's standard
// library, written from the spec): one case each, a well-behaved plugin beside it. The hostile
// plugin checks every answer it gets and writes a verdict; this side checks what the host
// must do with the offender (keep it, or stop it with the documented cause) and that the
// well-behaved plugin was not disturbed: every event reached it in order, it was never
// stopped, it still answers.
#include <atomic>
#include <fstream>
#include <thread>

#include "host_test_support.hpp"

namespace host_test {
namespace {

using namespace std::chrono_literals;

const char* const kHostilePlugin = HOSTILE_PLUGIN_PY;

struct HostileCase {
  const char* name;
  // nullopt: the host keeps the plugin running (its bad frames are answered with errors).
  std::optional<StopCause> stop_cause;
};

void PrintTo(const HostileCase& c, std::ostream* os) { *os << c.name; }

// Keeps emitting chat events (seq 1, 2, ...) from a thread until stopped.
class ChatTraffic {
 public:
  explicit ChatTraffic(rs::Host& host) : host_(host), thread_([this] { run(); }) {}
  ~ChatTraffic() { stop(); }
  void stop() {
    done_ = true;
    if (thread_.joinable()) thread_.join();
  }
  long sent() const { return seq_.load(); }

 private:
  void run() {
    while (!done_) {
      host_.emit<msg::OnChatMessage>(chat(++seq_, 256));
      std::this_thread::sleep_for(20ms);
    }
  }
  rs::Host& host_;
  std::atomic<bool> done_{false};
  std::atomic<long> seq_{0};
  std::thread thread_;
};

std::optional<Json> read_verdict(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  Json verdict = Json::parse(in, nullptr, false);
  if (verdict.is_discarded()) return std::nullopt;
  return verdict;
}

class HostilePlugin : public HostTest, public ::testing::WithParamInterface<HostileCase> {};

TEST_P(HostilePlugin, OffenderGetsTheDocumentedAnswerAndNobodyElseNotices) {
  const HostileCase& c = GetParam();
  // Cases where the host must stop the plugin run four times faster (pings every 7.5 s, a
  // handshake deadline of 2.5 s that a Python start-up meets even on a loaded machine); the
  // others at full speed, so a slow (sanitizer) build never misses a ping on a busy plugin.
  make_host(c.stop_cause ? 0.25 : 1.0);
  const std::string good = "test.good";
  const std::string bad = "test.hostile";
  const fs::path verdict_file = dir_.path() / "verdict.json";
  add(PluginSpec(good, {"well-behaved"}).with_events({"on_chat_message"}));
  add(PluginSpec(bad, {c.name, verdict_file.string()})
          .with_executable(kHostilePlugin)
          .with_events({"on_chat_message"})
          .with_host_methods({"get_followed_live", "set_upstream", "notify", "log"})
          .with_credentials({"twitch.android"})
          .with_ui({"panel"})
          .with_status({"h.status"})
          .with_actions({"h.deep"}));
  host().start_all();
  ASSERT_TRUE(await_running(good));
  ASSERT_TRUE(await_running(bad, 30s));

  ChatTraffic traffic(host());
  std::optional<Json> verdict;
  ASSERT_TRUE(eventually([&] { return (verdict = read_verdict(verdict_file)).has_value(); }, 300s))
      << "the hostile plugin wrote no verdict";
  EXPECT_TRUE(verdict->value("ok", false)) << verdict->dump(2);
  EXPECT_GT(verdict->value("checked", 0), 0);

  if (c.stop_cause) {
    EXPECT_TRUE(app_.await_lifecycle(bad, Kind::kStopped, *c.stop_cause, 1, 60s))
        << "the host did not stop the offender for " << rpckit::supervision::to_string(*c.stop_cause);
  } else {
    EXPECT_EQ(host().state(bad), State::kRunning);
    EXPECT_EQ(app_.count(bad, Kind::kStopped), 0);
    if (std::string(c.name) == "deep-nesting") {
      // A result 30,000 levels deep fails the call at once, saying why.
      auto result = host().invoke_action(bad, "h.deep", rpckit::JsonValue());
      ASSERT_FALSE(result.ok());
      EXPECT_NE(result.error().error.message().find("nesting deeper than 256 levels"),
                std::string::npos)
          << result.error().describe();
    }
  }

  // The well-behaved plugin: never stopped, still answering, and every event arrived in order.
  traffic.stop();
  const long sent = traffic.sent();
  EXPECT_EQ(app_.count(good, Kind::kStopped), 0);
  EXPECT_EQ(host().state(good), State::kRunning);
  Json state;
  ASSERT_TRUE(eventually(
      [&] {
        state = plugin_state(good);
        return state.is_object() && state["chat_seqs"].size() == static_cast<std::size_t>(sent);
      },
      30s))
      << "sent " << sent << ", the well-behaved plugin has " << state.dump().substr(0, 300);
  EXPECT_TRUE(state.value("chat_in_order", false));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, HostilePlugin,
    ::testing::Values(HostileCase{"long-strings", std::nullopt},
                      HostileCase{"deep-nesting", std::nullopt},
                      HostileCase{"numbers", std::nullopt},
                      HostileCase{"duplicate-keys", std::nullopt},
                      HostileCase{"encoding", std::nullopt},
                      HostileCase{"wide", std::nullopt},
                      HostileCase{"garbage", std::nullopt},
                      HostileCase{"response-abuse", std::nullopt},
                      HostileCase{"notification-flood", std::nullopt},
                      HostileCase{"request-flood", StopCause::kUnhealthy},
                      HostileCase{"endless-header", StopCause::kMalformedFrame},
                      HostileCase{"stalled-header", StopCause::kUnhealthy}),
    [](const ::testing::TestParamInfo<HostileCase>& param) {
      std::string name = param.param.name;
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

}  // namespace
}  // namespace host_test
